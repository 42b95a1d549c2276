#!/bin/bash
# neighbor_collectives_across_hosts_give_values: the values test of the neighborhood collectives (every call, topology and datatype of neighbor_collectives_give_values) on a job of 2 hosts (network namespaces), ranks placed by node and by slot, 2-8 per host and 16 over 2 hosts (oversubscribed); and the error classes of mismatched counts across hosts.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build neigh < "$SHOAL_TESTS/neighbor_collectives_give_values.c"
build neigh_err < "$SHOAL_TESTS/neighbor_bad_arguments_and_mismatched_counts_return_errors.c"

netns_up 2
hosts=$(netns_hosts)
while read -r ppn np map; do
	for prog in neigh_err neigh; do
		run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by "$map" \
			"$TEST_TMP/$prog"
		[ "$RC" = 0 ] || { show; fail "$prog: $np ranks ($ppn per host, by $map): exit $RC"; }
	done
	expect_out '^ok$'  # the values program's last line
done <<LIST
1 2 node
2 4 node
2 4 slot
3 6 slot
8 16 node
LIST
exit 0
