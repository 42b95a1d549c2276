#!/bin/bash
# plain_gcc_program_refused: mpiexec refuses a program not built with mpicc (plain gcc, with or without MPI), with a non-zero status and a message saying to rebuild with mpicc.
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/plain.c" <<'SRC'
#include <stdio.h>
int main(void)
{
	puts("plain program ran");
	return 0;
}
SRC
gcc -o "$TEST_TMP/plain" "$TEST_TMP/plain.c" || skip "no gcc"

run "$MPIEXEC" -n 2 "$TEST_TMP/plain"
expect_nonzero
expect_err 'mpicc'
grep -q 'plain program ran' "$OUT" && fail "the plain program was run"

cat >"$TEST_TMP/plainmpi.c" <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	puts("plain MPI program ran");
	MPI_Finalize();
	return 0;
}
SRC
gcc -I"$SHOAL_BUILD/include" -o "$TEST_TMP/plainmpi" "$TEST_TMP/plainmpi.c" \
	-L"$SHOAL_BUILD/lib" -Wl,-rpath,"$SHOAL_BUILD/lib" -lmpi || fail "gcc could not link with libmpi"
run "$MPIEXEC" -n 2 "$TEST_TMP/plainmpi"
expect_nonzero
expect_err 'mpicc'
grep -q 'plain MPI program ran' "$OUT" && fail "the plain MPI program was run"
exit 0
