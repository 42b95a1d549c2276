#!/bin/bash
# rma_puts_across_hosts_stream_to_one_flush: each rank puts 1000 ints and accumulates 1000 ints (one element each) into rank + 1 on the other host (network namespaces) under a shared lock, then calls MPI_Win_flush once: every value is at the target after it; on a dynamic window, puts inside the attached region around one beyond it and one flush: the flush gives MPI_ERR_RMA_RANGE, the puts inside are applied, and a flush after one more put succeeds. 2 ranks, 4 by node, 64 (oversubscribed) by slot.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build rma < "$SHOAL_TESTS/lib/rma_across_hosts.c"

netns_up 2
hosts=$(netns_hosts)
while read -r ppn np map; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by "$map" \
		"$TEST_TMP/rma" stream
	[ "$RC" = 0 ] || { show; fail "$np ranks on 2 hosts ($ppn per host, by $map): exit $RC"; }
	expect_out_count '^ok [0-9]+$' "$np"
done <<LIST
1 2 node
2 4 node
32 64 slot
LIST
exit 0
