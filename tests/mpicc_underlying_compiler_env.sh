#!/bin/bash
# mpicc_underlying_compiler_env: SHOAL_CC (SHOAL_CXX for mpicxx) swaps the underlying compiler; a program built with clang runs under mpiexec. Skipped without clang.
# asan: its clang-built program run without mpiexec loads ASan after libc (with libmpi.so), which ASan does not support: it dies at start (SEGV at address 0), an ASan limit
# tsan: its clang-built program (with a __thread variable) run without mpiexec loads TSan with libmpi.so, after libc, which TSan does not support: it dies at start (SEGV), a TSan limit
. "$SHOAL_TESTS/lib/common.bash"
command -v clang >/dev/null || skip "clang not installed"
cd "$TEST_TMP"
cat >c.c <<'SRC'
#include <stdio.h>
#include <mpi.h>
__thread int tls;
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	tls = rank;
#ifdef __clang__
	printf("clang rank %d tls %d\n", rank, tls);
#else
	printf("not clang\n");
#endif
	MPI_Finalize();
	return 0;
}
SRC
run env SHOAL_CC=clang "$MPICC" -show -o c c.c
expect_rc 0
expect_out 'clang'
env SHOAL_CC=clang "$MPICC" -o c c.c || fail "SHOAL_CC=clang mpicc failed"
run "$MPIEXEC" -n 3 ./c
expect_rc 0
expect_out_count '^clang rank [0-2] tls [0-2]$' 3
run ./c
expect_rc 0
expect_out '^clang rank 0 tls 0$'

if command -v clang++ >/dev/null; then
	cp c.c cx.cpp
	run env SHOAL_CXX=clang++ "$MPICXX" -show -o cx cx.cpp
	expect_rc 0
	expect_out 'clang\+\+'
fi
exit 0
