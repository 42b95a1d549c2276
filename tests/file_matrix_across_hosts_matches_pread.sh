#!/bin/bash
# file_matrix_across_hosts_matches_pread: the global array of
# file_matrix_views_and_forms_match_pread.c (vector, subarray, darray views, native and
# external32, independent, collective, split, nonblocking, shared and ordered forms, every
# byte of the file checked with pread) written and read by a job on two hosts (network
# namespaces) into one file of $TEST_TMP, a directory both hosts see: one rank a host, two
# a host placed by node (ranks alternate between the hosts) and three a host by slot.
# timeout: 420
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build matrix < "$SHOAL_TESTS/file_matrix_views_and_forms_match_pread.c"

netns_up 2
hosts=$(netns_hosts)
while read -r ppn np map; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by "$map" \
		"$TEST_TMP/matrix" "$TEST_TMP"
	[ "$RC" = 0 ] || { show; fail "$np ranks on 2 hosts ($ppn per host, by $map): exit $RC"; }
	expect_out "^ok: [0-9]+ cases at $np ranks$"
	ls "$TEST_TMP"/file_matrix.*.dat >/dev/null 2>&1 &&
		fail "$np ranks: MPI_File_delete left $(ls "$TEST_TMP"/file_matrix.*.dat | head -n 1)"
done <<LIST
1 2 node
2 4 node
3 6 slot
LIST
exit 0
