#!/bin/bash
# rma_put_across_hosts_progresses_without_target_calls: rank 0 loops on a volatile load of its window, making no MPI call, while a rank of the other host (network namespaces) locks rank 0 exclusively, puts a flag and unlocks: the unlock returns and rank 0 sees the flag, both before rank 0 calls MPI again (the node's reader of the connections applies the put). 2 ranks, and 4 with rank 0's host neighbour idle in a barrier.
# timeout: 300
# tsan: rank 0 reads its window with plain loads while the node's reader writes it: the race is the test's point
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build rma < "$SHOAL_TESTS/lib/rma_across_hosts.c"

netns_up 2
hosts=$(netns_hosts)
for np in 2 4; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 2 -n "$np" --map-by node \
		"$TEST_TMP/rma" progress
	[ "$RC" = 0 ] || { show; fail "$np ranks on 2 hosts: exit $RC"; }
	expect_out_count '^flag 42 arrived with no MPI call$' 1
	expect_out_count '^unlocked$' 1
	expect_out_count '^ok [0-9]+$' "$np"
done
exit 0
