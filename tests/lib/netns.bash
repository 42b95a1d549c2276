# Network namespaces as hosts for Shoal's multi-host tests (sourced after common.bash).
# netns_up N makes namespaces $NS_HEAD (where mpiexec runs) and ${NS_HOSTS[@]} (N hosts),
# each with one veth into a bridge that lives in namespace $NS_SWITCH, on a private /24.
# Nothing is added to the machine's own namespace, and a trap deletes every namespace when
# the test ends, whatever the way. Skips (exit 77) where namespaces cannot be made.
#
# Names are unique among the tests running at once: tests/run gives each test a tag of its
# own (SHOAL_TEST_TAG, the run's pid and the test's slot) and removes what a test killed by
# its timeout left behind; a test run by hand takes its shell's pid. A namespace already
# named so is a leftover of an ended test (live tags are unique) and is replaced. Each test's
# hosts share a bridge of their own, so no packet of one test can reach another's; the
# subnet 10.77.X.0/24 still differs between tests running at once (X is tests/run's slot).
NS_TAG=shl${SHOAL_TEST_TAG:-$$}
NS_HEAD=$NS_TAG-head
NS_SWITCH=$NS_TAG-sw
NS_HOSTS=()
NS_MADE=()
NS_NET=10.77.$(( ${SHOAL_TEST_SLOT:-$$} % 250 ))

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
	if [ -e "/run/netns/$1" ]; then
		ip netns pids "$1" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$1" 2>/dev/null
	fi
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
# test after a job ended: its processes may take a moment to go, a minute at most however
# loaded the machine.
netns_nothing_left() {
	local ns left i
	for i in $(seq 600); do
		left=
		for ns in "$NS_HEAD" "${NS_HOSTS[@]}"; do
			left=$(ip netns pids "$ns")
			[ -z "$left" ] || break
		done
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	ps -o pid,ppid,args -p "$(echo $left | tr ' ' ',')"
	fail "${1:+$1: }left in $ns: $left"
}

# netns_hosts: the host names, comma-separated, for -H.
netns_hosts() { (IFS=,; echo "${NS_HOSTS[*]}"); }

# netns_secret_agent: a launcher agent ($TEST_TMP/agent) that starts nodes as `ip netns exec`
# does and keeps a copy of the job secret in $TEST_TMP/secret (a test only: it is what a
# node receives), so that a test can greet a node as a peer would.
netns_secret_agent() {
	cat >"$TEST_TMP/agent" <<AGENT
#!/bin/bash
IFS= read -r secret
printf '%s\n' "\$secret" >"$TEST_TMP/secret"
printf '%s\n' "\$secret" | exec ip netns exec "\$@"
AGENT
	chmod +x "$TEST_TMP/agent"
}

# "${NETNS_MPIEXEC[@]}" ARGS...: mpiexec run in the head namespace, nodes started in the
# host namespaces with `ip netns exec` as the launcher agent (an array, so `run` takes it).
NETNS_MPIEXEC=(ip netns exec "$NS_HEAD" "$MPIEXEC" --launcher-agent 'ip netns exec')
