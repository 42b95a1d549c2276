#!/bin/bash
# stack_overflow_is_reported_naming_stack_size: a rank that recurses without bound ends the job with status 139 and "rank 1: stack overflow at ADDR (SHOAL_STACK_SIZE=N bytes ...)", N the stack each rank has, not a bare SIGSEGV report: on 2 ranks with the default stack, on 64 ranks (more than the cores) with SHOAL_STACK_SIZE=256K, and on 4 ranks switched in user space (SHOAL_FIBERS=1, where the CPU can) with 1M; a NULL dereference is still reported as SIGSEGV.
. "$SHOAL_TESTS/lib/common.bash"

build deep -O0 <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
static int deep(volatile char *p, long n)
{
	volatile char frame[512];
	frame[0] = (char)n;
	return deep(frame, n + 1) + p[0];
}
int main(int argc, char **argv)
{
	int rank, v = 0;
	char c = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1 && strcmp(argv[1], "recurse") == 0)
		v = deep(&c, 0);
	if (rank == 1 && strcmp(argv[1], "null") == 0)
		v = *(volatile int *)NULL;
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return v;
}
SRC

# overflow N SIZE BYTES: rank 1 of N recurses with SHOAL_STACK_SIZE=SIZE (empty: unset).
overflow() {
	if [ -n "$2" ]; then
		SHOAL_STACK_SIZE=$2 run "$MPIEXEC" -n "$1" "$TEST_TMP/deep" recurse
	else
		run "$MPIEXEC" -n "$1" "$TEST_TMP/deep" recurse
	fi
	expect_rc 139
	expect_err "^shoal: rank 1: stack overflow at 0x[0-9a-f]+ \(SHOAL_STACK_SIZE=$3 bytes is each rank's stack"
	grep -q 'killed by signal' "$ERR" && { show; fail "a stack overflow reported as a plain signal"; }
	return 0
}
overflow 2 "" 8388608
overflow 64 256K 262144
if grep -qw fsgsbase /proc/cpuinfo; then
	(export SHOAL_FIBERS=1; overflow 4 1M 1048576) || exit 1
else
	echo "no FSGSBASE: ranks are not switched in user space; that part is skipped"
fi

run "$MPIEXEC" -n 2 "$TEST_TMP/deep" null
expect_rc 139
expect_err '^shoal: rank 1: killed by signal SIGSEGV \(Segmentation fault\) at (0x0|\(nil\))'
grep -q 'stack overflow' "$ERR" && { show; fail "a NULL dereference reported as a stack overflow"; }
exit 0
