#!/bin/bash
# control_address_follows_route_to_hosts: mpiexec runs on a host (network namespace) whose first interface does not reach the job's hosts, with no --control-addr; the node processes still reach it: by the route's source address when the hosts are named by address, by trying mpiexec's addresses in turn when they are names only the launcher agent knows (namespaces). 4 ranks on 2 hosts, both ways.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build across <<'SRC'
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, sum = 0, one = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d of %d: sum %d\n", rank, size, sum);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
# A second head whose first interface (a veth pair of its own, on a subnet no host has a
# route to) comes before the one on the hosts' bridge.
HEAD2=$NS_TAG-hd2
netns_add "$HEAD2" || fail "cannot make $HEAD2"
ip -n "$HEAD2" link add side0 type veth peer name side1 &&
	ip -n "$HEAD2" addr add "10.78.$(( ${SHOAL_TEST_SLOT:-$$} % 250 )).1/24" dev side0 &&
	ip -n "$HEAD2" link set side0 up && ip -n "$HEAD2" link set side1 up ||
	fail "cannot add the side interface"
netns_plug "$HEAD2" "$NS_NET.200" 9 || fail "cannot plug $HEAD2"
first=$(ip -n "$HEAD2" -4 -o addr show scope global | awk '{ print $4; exit }')
case $first in 10.78.*) ;; *) fail "the side interface is not first: $first" ;; esac

# Hosts named as the agent knows them: namespace names, no network name.
run -t 60 ip netns exec "$HEAD2" "$MPIEXEC" --launcher-agent 'ip netns exec' \
	-H "${NS_HOSTS[0]}:2,${NS_HOSTS[1]}:2" -n 4 "$TEST_TMP/across"
expect_rc 0
expect_out_count '^rank [0-3] of 4: sum 4$' 4

# Hosts named by address, started by an agent that maps an address to its namespace.
cat >"$TEST_TMP/agent" <<AGENT
#!/bin/bash
case \$1 in
$NS_NET.2) ns=${NS_HOSTS[0]} ;;
$NS_NET.3) ns=${NS_HOSTS[1]} ;;
*) echo "agent: unknown host \$1" >&2; exit 1 ;;
esac
shift
exec ip netns exec "\$ns" "\$@"
AGENT
chmod +x "$TEST_TMP/agent"
run -t 60 ip netns exec "$HEAD2" "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" \
	-H "$NS_NET.2:2,$NS_NET.3:2" -n 4 "$TEST_TMP/across"
expect_rc 0
expect_out_count '^rank [0-3] of 4: sum 4$' 4
exit 0
