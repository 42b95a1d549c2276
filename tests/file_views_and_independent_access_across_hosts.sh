#!/bin/bash
# file_views_and_independent_access_across_hosts: views, the engine's independent access, data sieving's locks and atomic mode behave across 2 hosts (network namespaces, one file system) as on one: the C tests of read/write_at, vector, subarray and darray views, sieved interleaved writers and atomic-mode overlapping writers pass with 4 ranks, 2 per host, placed by node and by slot.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

tests="file_read_write_at_match_file_bytes
file_view_vector_interleaves_ranks_through_individual_pointer
file_view_subarray_and_darray_place_global_array
file_data_sieving_writes_keep_interleaved_ranks_bytes
file_atomic_mode_overlapping_writes_stay_whole"
for t in $tests; do
	[ -x "$SHOAL_BUILD/tests/$t" ] || fail "$SHOAL_BUILD/tests/$t is not built (make test-programs)"
done
netns_up 2
hosts=$(netns_hosts)
for map in node slot; do
	for t in $tests; do
		run -t 120 env TEST_TMP="$TEST_TMP" "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 2 -n 4 \
			--map-by $map "$SHOAL_BUILD/tests/$t"
		[ "$RC" = 0 ] || { show; fail "$t, 4 ranks on 2 hosts by $map: exit $RC"; }
	done
done
exit 0
