# Network namespaces as hosts for Shoal's multi-host tests (sourced after common.bash).
# netns_up N makes namespaces $NS_HEAD (where mpiexec runs) and ${NS_HOSTS[@]} (N hosts),
# each with one veth into a bridge that lives in namespace $NS_SWITCH, on a private /24.
# Nothing is added to the machine's own namespace, and a trap deletes every namespace when
# the test ends, whatever the way. Skips (exit 77) where namespaces cannot be made.
NS_TAG=shl$$
NS_HEAD=$NS_TAG-head
NS_SWITCH=$NS_TAG-sw
NS_HOSTS=()
NS_MADE=()
# 10.77.X.0/24 with X from the pid, so two tests running at once do not share a subnet.
NS_NET=10.77.$(($$ % 250))

netns_down() {
	local ns
	for ns in "${NS_MADE[@]}"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	NS_MADE=()
}

# netns_add NAME: a namespace with loopback up, deleted at exit.
netns_add() {
	ip netns add "$1" 2>"$TEST_TMP/netns.err" || return 1
	NS_MADE+=("$1")
	ip -n "$1" link set lo up
}

# netns_plug NAME ADDR INDEX: a veth from NAME (eth0, ADDR/24) to the switch's bridge.
netns_plug() {
	ip -n "$NS_SWITCH" link add "p$3" type veth peer name eth0 netns "$1" &&
		ip -n "$NS_SWITCH" link set "p$3" master br0 up &&
		ip -n "$1" addr add "$2/24" dev eth0 &&
		ip -n "$1" link set eth0 up
}

netns_up() {
	local n=$1 i
	[ "$(id -u)" = 0 ] || skip "network namespaces need root"
	command -v ip >/dev/null || skip "no ip command (apt-get install iproute2)"
	trap netns_down EXIT
	netns_add "$NS_SWITCH" || skip "cannot create network namespaces: $(head -n 1 "$TEST_TMP/netns.err")"
	ip -n "$NS_SWITCH" link add br0 type bridge && ip -n "$NS_SWITCH" link set br0 up ||
		skip "cannot create a bridge in a namespace"
	netns_add "$NS_HEAD" && netns_plug "$NS_HEAD" "$NS_NET.1" 0 || fail "cannot set up $NS_HEAD"
	for i in $(seq 1 "$n"); do
		NS_HOSTS+=("$NS_TAG-h$i")
		netns_add "$NS_TAG-h$i" && netns_plug "$NS_TAG-h$i" "$NS_NET.$((i + 1))" "$i" ||
			fail "cannot set up $NS_TAG-h$i"
	done
	# Without STP (the default) a bridge port forwards at once: no wait is needed.
	return 0
}

# netns_nothing_left [WHAT]: fail (naming WHAT) if any process is left in a namespace of the
# test, half a second after a job ended.
netns_nothing_left() {
	local ns left
	sleep 0.5
	for ns in "$NS_HEAD" "${NS_HOSTS[@]}"; do
		left=$(ip netns pids "$ns")
		[ -z "$left" ] || { ps -o pid,ppid,args -p "$(echo $left | tr ' ' ',')"
			fail "${1:+$1: }left in $ns: $left"; }
	done
}

# netns_hosts: the host names, comma-separated, for -H.
netns_hosts() { (IFS=,; echo "${NS_HOSTS[*]}"); }

# "${NETNS_MPIEXEC[@]}" ARGS...: mpiexec run in the head namespace, nodes started in the
# host namespaces with `ip netns exec` as the launcher agent (an array, so `run` takes it).
NETNS_MPIEXEC=(ip netns exec "$NS_HEAD" "$MPIEXEC" --launcher-agent 'ip netns exec'
	--control-addr "$NS_NET.1")
