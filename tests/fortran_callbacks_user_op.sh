#!/bin/bash
# fortran_callbacks_user_op: Fortran user ops (tests/fortran_callbacks_user_op.f90), commutative and not, reduce correctly through MPI_Allreduce and MPI_Reduce at 1, 4 and 64 ranks, each called with the datatype's Fortran handle.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
name=fortran_callbacks_user_op
build_fortran $name -O1 -g "$SHOAL_TESTS/$name.f90"
for n in 1 4 64; do
	run -t 90 "$MPIEXEC" -n $n "$TEST_TMP/$name"
	expect_rc 0
	expect_out_count '^ok$' $n
done
exit 0
