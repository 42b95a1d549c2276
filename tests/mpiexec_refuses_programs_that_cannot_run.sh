#!/bin/bash
# mpiexec_refuses_programs_that_cannot_run: a program file without execute permission, a directory and an empty program name end mpiexec before any rank starts, with a shell's status (126, 127) and a message naming the reason; the same program with execute permission runs.
. "$SHOAL_TESTS/lib/common.bash"

build hello <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	printf("ran\n");
	MPI_Finalize();
	return 0;
}
SRC
cd "$TEST_TMP"

cp hello noexec
chmod a-x noexec
run "$MPIEXEC" -n 2 ./noexec
expect_rc 126
expect_err 'noexec: Permission denied'
grep -q ran "$OUT" && fail "a program without execute permission ran"

mkdir adir
run "$MPIEXEC" -n 2 ./adir
expect_rc 126
expect_err 'adir: is a directory'

run "$MPIEXEC" -n 2 ""
expect_rc 127
expect_err 'command not found'

chmod a+x noexec
run "$MPIEXEC" -n 2 ./noexec
expect_rc 0
expect_out_count '^ran$' 2
