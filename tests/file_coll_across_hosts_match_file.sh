#!/bin/bash
# file_coll_across_hosts_match_file: collective file access of a job on 2 hosts (network namespaces, the file in a directory both see), 1, 2 and 8 ranks per host (oversubscribed) placed by node and by slot: 2D block subarray views, uneven counts with holes from a non-contiguous memory type, darray views and iwrite_all, each file checked byte for byte with pread and read back with read_all; per-node aggregators exchange the pieces bound to the other host's domains.
# timeout: 400
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

for t in file_coll_subarray_blocks_match_file file_coll_uneven_counts_keep_holes \
	file_coll_darray_views_match_file; do
	build "$t" < "$SHOAL_TESTS/$t.c"
done

netns_up 2
hosts=$(netns_hosts)
while read -r ppn np map; do
	for t in file_coll_subarray_blocks_match_file file_coll_uneven_counts_keep_holes \
		file_coll_darray_views_match_file; do
		run -t 120 env TEST_TMP="$TEST_TMP" "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" \
			-n "$np" --map-by "$map" "$TEST_TMP/$t"
		[ "$RC" = 0 ] || { show; fail "$t: $np ranks on $hosts ($ppn per host, by $map): exit $RC"; }
		expect_out_count '^ok$' 1
	done
done <<LIST
1 2 node
2 4 slot
8 16 node
LIST
exit 0
