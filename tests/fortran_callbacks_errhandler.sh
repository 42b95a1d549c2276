#!/bin/bash
# fortran_callbacks_errhandler: error handlers written in Fortran (tests/fortran_callbacks_errhandler.f90) for a communicator, a window, a file and a session are called with the Fortran handle of the object and the error code, on real errors and on MPI_*_call_errhandler, at 1 and 4 ranks.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
name=fortran_callbacks_errhandler
build_fortran $name -O1 -g "$SHOAL_TESTS/$name.f90"
for n in 1 4; do
	run -t 90 "$MPIEXEC" -n $n "$TEST_TMP/$name"
	expect_rc 0
	expect_out_count '^ok$' $n
done
exit 0
