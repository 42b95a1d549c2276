#!/bin/bash
# fortran_ring_and_collectives_across_hosts: the Fortran rings through mpi_f08 and mpif.h (tests/fortran_ring_f08.f90, tests/fortran_ring_mpif.f), every collective on Fortran types through the mpi module (tests/fortran_collectives_fortran_types.f90) and the subarray halo exchanges on Fortran-ordered arrays (tests/fortran_subarray_halo_exchange.f90), built by mpifort, run on 2 hosts (network namespaces) at 2 ranks (one per host), 4 (2 per host, by node) and 16 (8 per host, oversubscribed).
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
MPIFORT=$SHOAL_BUILD/bin/mpifort
[ -x "$MPIFORT" ] || fail "no $MPIFORT"

for src in fortran_ring_f08.f90 fortran_ring_mpif.f fortran_collectives_fortran_types.f90 \
	fortran_subarray_halo_exchange.f90; do
	p=${src%.*}
	( cd "$TEST_TMP" && "$MPIFORT" -g -o "$p" "$SHOAL_TESTS/$src" ) >"$TEST_TMP/$p.build" 2>&1 ||
		{ cat "$TEST_TMP/$p.build"; fail "mpifort could not build $src"; }
done

netns_up 2
hosts=$(netns_hosts)
while read -r ppn np; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/fortran_ring_f08"
	[ "$RC" = 0 ] || { show; fail "ring, $np ranks on $hosts: exit $RC"; }
	expect_out "^ring: token $((5 * np)) after 5 laps of $np\$"
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/fortran_ring_mpif"
	[ "$RC" = 0 ] || { show; fail "mpif.h ring, $np ranks on $hosts: exit $RC"; }
	expect_out "^ring: token $((5 * np)) after 5 laps of $np\$"
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/fortran_collectives_fortran_types"
	[ "$RC" = 0 ] || { show; fail "collectives, $np ranks on $hosts: exit $RC"; }
	expect_out "^collectives: $np ranks ok\$"
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn "$ppn" -n "$np" --map-by node \
		"$TEST_TMP/fortran_subarray_halo_exchange"
	[ "$RC" = 0 ] || { show; fail "subarray halos, $np ranks on $hosts: exit $RC"; }
	expect_out "^subarray halos: $np ranks ok\$"
done <<LIST
1 2
2 4
8 16
LIST
exit 0
