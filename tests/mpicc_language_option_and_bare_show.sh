#!/bin/bash
# mpicc_language_option_and_bare_show: a `-x c` (or `-x c++`) in the user's arguments does not make the compiler read the start files mpicc adds as source (a source file without a .c suffix, and a program from stdin, build and run), and -show or -showme alone prints the whole link line with -lmpi, as Open MPI's and MPICH's wrappers do.
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"
cat >hello.txt <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("hello from %d\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

run "$MPICC" -x c hello.txt -o hello_c
expect_rc 0
run "$MPIEXEC" -n 2 ./hello_c
expect_rc 0
expect_out 'hello from 1'

run bash -c "'$MPICC' -x c - -o from_stdin < hello.txt"
expect_rc 0
run "$MPIEXEC" -n 2 ./from_stdin
expect_rc 0
expect_out 'hello from 0'

run "$MPICXX" -x c++ hello.txt -o hello_cxx
expect_rc 0
run "$MPIEXEC" -n 1 ./hello_cxx
expect_rc 0
expect_out 'hello from 0'

for w in "$MPICC" "$MPICXX"; do
	for opt in -show -showme; do
		run "$w" "$opt"
		expect_rc 0
		expect_out '\-lmpi'
		expect_out '\-I'
	done
done
