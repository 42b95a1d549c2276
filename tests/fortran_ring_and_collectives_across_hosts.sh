#!/bin/bash
# fortran_ring_and_collectives_across_hosts: the Fortran ring (mpi_f08) and every collective on Fortran types (the mpi module), tests/fortran_ring_f08.f90 and tests/fortran_collectives_fortran_types.f90 built by mpifort, run on 2 hosts (network namespaces) at 2 ranks (one per host), 4 (2 per host, by node) and 16 (8 per host, oversubscribed).
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
MPIFORT=$SHOAL_BUILD/bin/mpifort
[ -x "$MPIFORT" ] || fail "no $MPIFORT"

for p in fortran_ring_f08 fortran_collectives_fortran_types; do
	( cd "$TEST_TMP" && "$MPIFORT" -g -o "$p" "$SHOAL_TESTS/$p.f90" ) >"$TEST_TMP/$p.build" 2>&1 ||
		{ cat "$TEST_TMP/$p.build"; fail "mpifort could not build $p"; }
done

netns_up 2
hosts=$(netns_hosts)
while read -r ppn np; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/fortran_ring_f08"
	[ "$RC" = 0 ] || { show; fail "ring, $np ranks on $hosts: exit $RC"; }
	expect_out "^ring: token $((5 * np)) after 5 laps of $np\$"
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/fortran_collectives_fortran_types"
	[ "$RC" = 0 ] || { show; fail "collectives, $np ranks on $hosts: exit $RC"; }
	expect_out "^collectives: $np ranks ok\$"
done <<LIST
1 2
2 4
8 16
LIST
exit 0
