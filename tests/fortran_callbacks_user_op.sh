#!/bin/bash
# fortran_callbacks_user_op: Fortran user ops (tests/fortran_callbacks_user_op.f90), commutative and not, reduce correctly through MPI_Allreduce and MPI_Reduce at 1, 4 and 64 ranks, each called with the datatype's Fortran handle.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
name=fortran_callbacks_user_op
"$SHOAL_BUILD/bin/mpifort" -O1 -g -J "$TEST_TMP" -o "$TEST_TMP/$name" "$SHOAL_TESTS/$name.f90" \
	>"$TEST_TMP/build.log" 2>&1 || { cat "$TEST_TMP/build.log"; fail "mpifort could not build $name.f90"; }
for n in 1 4 64; do
	run -t 90 "$MPIEXEC" -n $n "$TEST_TMP/$name"
	expect_rc 0
	expect_out_count '^ok$' $n
done
exit 0
