#!/bin/bash
# fortran_f08_and_mpif_h_in_one_job: one program of two source files, one using mpi_f08 (tests/lib/fortran_mixed_main.f90) and one including mpif.h in fixed form (tests/lib/fortran_mixed_mpif.f), built by mpifort and run at 1, 4 and 64 ranks: handles, requests and statuses pass between the two bindings and each one's MPI_IN_PLACE and MPI_STATUS_IGNORE work.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
MPIFORT=$SHOAL_BUILD/bin/mpifort
[ -x "$MPIFORT" ] || fail "no $MPIFORT"

"$MPIFORT" -g -c -o "$TEST_TMP/mpif_part.o" "$SHOAL_TESTS/lib/fortran_mixed_mpif.f" \
	>"$TEST_TMP/build.log" 2>&1 || { cat "$TEST_TMP/build.log"; fail "mpifort could not build the mpif.h half"; }
( cd "$TEST_TMP" && "$MPIFORT" -g -o mixed "$SHOAL_TESTS/lib/fortran_mixed_main.f90" mpif_part.o ) \
	>"$TEST_TMP/build.log" 2>&1 || { cat "$TEST_TMP/build.log"; fail "mpifort could not build the program"; }

for n in 1 4 64; do
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/mixed"
	[ "$RC" = 0 ] || { show; fail "$n ranks: exit $RC"; }
	expect_out "^mixed: $n ranks ok\$"
done
exit 0
