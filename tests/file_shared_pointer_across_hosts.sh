#!/bin/bash
# file_shared_pointer_across_hosts: the shared file pointer, ordered access and nonblocking access of a file in a directory both hosts see, on 2 hosts (network namespaces) with 2 and 8 ranks each: records written through the shared pointer land once, ordered records lie in rank order, seeks agree, nonblocking writes progress without their rank (the file tests of one node, run across hosts).
# timeout: 400
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

for t in file_shared_pointer_records_land_once file_ordered_access_in_rank_order \
	 file_nonblocking_progress_without_caller; do
	build "$t" < "$SHOAL_TESTS/$t.c"
done

netns_up 2
hosts=$(netns_hosts)
while read -r t ppn np; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/$t" "$TEST_TMP"
	[ "$RC" = 0 ] || { show; fail "$t, $np ranks on $hosts ($ppn per host): exit $RC"; }
	expect_out_count '^ok [0-9]+$' "$np"
done <<LIST
file_shared_pointer_records_land_once 1 2
file_shared_pointer_records_land_once 8 16
file_ordered_access_in_rank_order 2 4
file_ordered_access_in_rank_order 8 16
file_nonblocking_progress_without_caller 2 4
LIST
exit 0
