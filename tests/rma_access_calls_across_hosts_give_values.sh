#!/bin/bash
# rma_access_calls_across_hosts_give_values: MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap and MPI_Rput/Rget/Raccumulate/Rget_accumulate from each rank to the next, under fence, post/start/complete/wait, lock/unlock and lock_all/flush, with a contiguous and a vector target layout, on 2 hosts (network namespaces; 2 ranks, 4 and 8 by node: every target on the other host; 4 and 64 (oversubscribed) by slot: most of them on the same host): the values at the origin and at the target; a put, accumulate and get of 40000 ints (many 64 KiB frames) with each layout; an access beyond the attached memory of a dynamic window on another host gives MPI_ERR_RMA_RANGE at the flush.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build rma < "$SHOAL_TESTS/lib/rma_across_hosts.c"

netns_up 2
hosts=$(netns_hosts)
while read -r ppn np map; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by "$map" \
		"$TEST_TMP/rma" access
	[ "$RC" = 0 ] || { show; fail "$np ranks on 2 hosts ($ppn per host, by $map): exit $RC"; }
	expect_out_count '^ok [0-9]+$' "$np"
done <<LIST
1 2 node
2 4 node
2 4 slot
4 8 node
32 64 slot
LIST
exit 0
