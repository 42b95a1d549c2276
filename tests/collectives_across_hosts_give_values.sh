#!/bin/bash
# collectives_across_hosts_give_values: every collective on MPI_COMM_WORLD of a job on 2 and 4 hosts (network namespaces), ranks placed --map-by node and by slot, 2-4 per host and 16 ranks over 2 hosts (oversubscribed): values, MPI_IN_PLACE, v/w forms, a vector type, a non-commutative user op folded in rank order, nonblocking, persistent and _c forms, Ibarrier interleaved with a rendezvous send, 8 outstanding Iallreduce.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build coll < "$SHOAL_TESTS/lib/coll_across_hosts.c"

netns_up 4
hosts2=$(IFS=,; echo "${NS_HOSTS[*]:0:2}")
hosts4=$(netns_hosts)
while read -r hosts ppn np map; do
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by "$map" \
		"$TEST_TMP/coll"
	[ "$RC" = 0 ] || { show; fail "$np ranks on $hosts ($ppn per host, by $map): exit $RC"; }
	expect_out_count '^ok [0-9]+$' "$np"
done <<LIST
$hosts2 1 2 node
$hosts2 2 4 node
$hosts2 3 6 slot
$hosts4 1 4 slot
$hosts4 2 8 node
$hosts4 3 12 slot
$hosts2 2 16 node
LIST
exit 0
