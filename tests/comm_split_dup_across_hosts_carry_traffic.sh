#!/bin/bash
# comm_split_dup_across_hosts_carry_traffic: on 2 and 4 hosts (network namespaces), by node and by slot, up to 16 ranks: MPI_Comm_dup, idup, split (keys reversing the order, MPI_UNDEFINED), create (even ranks), create_group (evens and odds at once, twice), split_type shared (the host's ranks), dups of two halves made at once, 20 dup/free cycles; on each new communicator a ring by MPI_ANY_SOURCE (status names the rank in it), a 1 MiB rendezvous message, Allreduce and Bcast; a dup's messages never match MPI_COMM_WORLD's.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build comm < "$SHOAL_TESTS/lib/comm_across_hosts.c"

netns_up 4
hosts2=$(IFS=,; echo "${NS_HOSTS[*]:0:2}")
hosts4=$(netns_hosts)
while read -r hosts nh ppn map; do
	np=$((nh * ppn))
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" --map-by "$map" "$TEST_TMP/comm" "$nh"
	[ "$RC" = 0 ] || { show; fail "$np ranks on $hosts ($ppn per host, by $map): exit $RC"; }
	expect_out_count '^ok [0-9]+$' "$np"
done <<LIST
$hosts2 2 2 node
$hosts2 2 3 slot
$hosts4 4 2 slot
$hosts4 4 3 node
$hosts2 2 8 node
LIST
exit 0
