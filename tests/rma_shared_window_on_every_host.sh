#!/bin/bash
# rma_shared_window_on_every_host: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) then MPI_Win_allocate_shared on each node of a job on 2 hosts (network namespaces; 2 and 3 ranks per host): each node's communicator holds that host's ranks, each rank stores its world rank in its segment, and after MPI_Win_sync and a barrier every rank loads them all through MPI_Win_shared_query, the segments contiguous in node rank order.
# timeout: 200
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build rma < "$SHOAL_TESTS/lib/rma_across_hosts.c"

netns_up 2
hosts=$(netns_hosts)
for ppn in 2 3; do
	np=$((2 * ppn))
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/rma" shared
	[ "$RC" = 0 ] || { show; fail "$np ranks on 2 hosts: exit $RC"; }
	expect_out_count "^node of rank [0-9]+ has $ppn ranks\$" "$np"
	expect_out_count '^ok [0-9]+$' "$np"
done
exit 0
