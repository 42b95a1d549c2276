#!/bin/bash
# session_across_hosts_comms_from_groups: on 2 and 4 hosts (network namespaces), by node and by slot, 2 to 12 ranks, a program that never calls MPI_Init (tests/session_psets_groups_and_comms_without_init.c): a process set per host (shoal://node/0..H-1) partitioning the ranks besides mpi://WORLD and mpi://SELF; MPI_Comm_create_from_group of mpi://WORLD (spanning the hosts) carries a ring of messages, a 1 MiB message, Allreduce and Bcast; the evens and the odds make theirs at once; MPI_Intercomm_create_from_groups connects them; the session ends and each rank exits cleanly. Then the program that opens sessions before, during and after the world model (session_alongside_world_model_in_any_order.c) and the one whose threads make communicators of one group at once with different tags (session_concurrent_creations_told_apart_by_tag.c) on 2 hosts.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build ses < "$SHOAL_TESTS/session_psets_groups_and_comms_without_init.c"
build along < "$SHOAL_TESTS/session_alongside_world_model_in_any_order.c"
build tags -pthread < "$SHOAL_TESTS/session_concurrent_creations_told_apart_by_tag.c"

netns_up 4
hosts2=$(IFS=,; echo "${NS_HOSTS[*]:0:2}")
hosts4=$(netns_hosts)
while read -r hosts nh ppn map; do
	np=$((nh * ppn))
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" --map-by "$map" "$TEST_TMP/ses" "$nh"
	[ "$RC" = 0 ] || { show; fail "$np ranks on $hosts ($ppn per host, by $map): exit $RC"; }
	expect_out_count '^ok$' 1
done <<LIST
$hosts2 2 1 slot
$hosts2 2 2 slot
$hosts2 2 3 node
$hosts4 4 2 slot
$hosts4 4 3 node
LIST
for ppn in 1 3; do
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts2" -ppn "$ppn" "$TEST_TMP/along"
	[ "$RC" = 0 ] || { show; fail "sessions alongside the world model, $ppn per host: exit $RC"; }
	expect_out_count '^ok$' 1
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts2" -ppn "$ppn" "$TEST_TMP/tags"
	[ "$RC" = 0 ] || { show; fail "concurrent creations by tag, $ppn per host: exit $RC"; }
	expect_out_count '^ok$' 1
done
exit 0
