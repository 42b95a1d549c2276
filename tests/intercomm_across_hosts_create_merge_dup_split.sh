#!/bin/bash
# intercomm_across_hosts_create_merge_dup_split: on 2 and 4 hosts (network namespaces), by node and by slot, 2 to 12 ranks: MPI_Intercomm_create of world's halves, parities, one rank against the rest and the rest against the last rank (groups spanning hosts or on one host, leaders on other hosts), then ranks, sizes, remote groups, point-to-point by MPI_ANY_SOURCE and a 1 MiB message between the groups, MPI_Barrier, MPI_Bcast and MPI_Ibcast each way, MPI_Gather and MPI_Scatter (MPI_ROOT, MPI_PROC_NULL), MPI_Allgather/Iallgather, MPI_Alltoall, MPI_Alltoallv (one peer too), MPI_Allreduce/Iallreduce, MPI_Reduce/Ireduce (MPI_ROOT, MPI_PROC_NULL), MPI_Reduce_scatter with the groups' counts differing, MPI_Reduce_scatter_block; MPI_Intercomm_merge with each high flag (merged order checked, traffic on it); MPI_Comm_dup of it (its messages apart from the parent's); MPI_Comm_split of it by parity with keys reversing the order (a color on one side only gives MPI_COMM_NULL) and MPI_Comm_create of each group's first half, with traffic on each.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build ic < "$SHOAL_TESTS/lib/intercomm_across_hosts.c"

netns_up 4
hosts2=$(IFS=,; echo "${NS_HOSTS[*]:0:2}")
hosts4=$(netns_hosts)
while read -r hosts nh ppn map; do
	np=$((nh * ppn))
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" --map-by "$map" "$TEST_TMP/ic"
	[ "$RC" = 0 ] || { show; fail "$np ranks on $hosts ($ppn per host, by $map): exit $RC"; }
	expect_out_count '^ok [0-9]+$' "$np"
done <<LIST
$hosts2 2 1 slot
$hosts2 2 2 slot
$hosts2 2 3 node
$hosts4 4 2 slot
$hosts4 4 3 node
LIST
exit 0
