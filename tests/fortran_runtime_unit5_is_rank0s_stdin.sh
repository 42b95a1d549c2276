#!/bin/bash
# fortran_runtime_unit5_is_rank0s_stdin: READ(*,...) of unit 5 (libgfortran reads descriptor 0 with read(2)) reads mpiexec's stdin in rank 0 alone, every line in order, while the other ranks, reading at the same time, get end-of-file at once, as C's stdin and Open MPI's ranks do, at 1, 4 and 64 ranks; a program run directly reads its stdin.
# timeout: 200
. "$SHOAL_TESTS/lib/common.bash"
command -v gfortran >/dev/null || skip "gfortran is not installed (make deps)"
build_fortran stdin -g -I"$SHOAL_TESTS/lib" \
	"$SHOAL_TESTS/lib/fortran_runtime_stdin.f90" "$SHOAL_TESTS/lib/fortran_rank.c"
seq 1 50000 | sed 's/^/input /' >"$TEST_TMP/input"

for n in 1 4 64; do
	feed "cat '$TEST_TMP/input'" "$MPIEXEC" -n $n -l "$TEST_TMP/stdin"
	expect_rc 0
	expect_out_count '^\[0\] lines 50000 bad 0$' 1
	expect_out_count '^\[[0-9]+\] lines 0 bad 0$' $((n - 1))
done
feed "cat '$TEST_TMP/input'" "$TEST_TMP/stdin"
expect_rc 0
expect_out_count '^lines 50000 bad 0$' 1
exit 0
