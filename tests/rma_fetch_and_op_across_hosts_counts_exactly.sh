#!/bin/bash
# rma_fetch_and_op_across_hosts_counts_exactly: N ranks on 2 hosts (network namespaces) each add 1 M times to one counter of rank 0 with MPI_Fetch_and_op under MPI_Win_lock_all: the counter ends at exactly N*M and the fetched values are 0 .. N*M-1, each once; then M get + put of the value + 1 under MPI_Win_lock(MPI_LOCK_EXCLUSIVE) also give N*M (requests of the other host queued at the target and granted by local and remote unlocks) (4 ranks x 300, 16 x 50 with 8 per host, 64 x 20 with 32 per host, oversubscribed).
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build rma < "$SHOAL_TESTS/lib/rma_across_hosts.c"

netns_up 2
hosts=$(netns_hosts)
while read -r ppn np m; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/rma" counter "$m"
	[ "$RC" = 0 ] || { show; fail "$np ranks x $m increments on 2 hosts: exit $RC"; }
	expect_out_count '^ok [0-9]+$' "$np"
done <<LIST
2 4 300
8 16 50
32 64 20
LIST
exit 0
