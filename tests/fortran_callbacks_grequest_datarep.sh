#!/bin/bash
# fortran_callbacks_grequest_datarep: MPI_Grequest_start and MPI_Register_datarep with callbacks written in Fortran (tests/fortran_callbacks_grequest_datarep.f90): the query, cancel and free functions with their extra_state, and a user representation converting INTEGERs on write and read, at 1 and 4 ranks.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
name=fortran_callbacks_grequest_datarep
build_fortran $name -O1 -g "$SHOAL_TESTS/$name.f90"
cd "$TEST_TMP" || fail "no $TEST_TMP"
for n in 1 4; do
	rm -f rep.*
	run -t 60 "$MPIEXEC" -n $n "$TEST_TMP/$name"
	expect_rc 0
	expect_out_count '^ok$' $n
done
exit 0
