#!/bin/bash
# crash_report_unwinds_past_unmapped_code: a rank (or a thread it created) that calls code no longer mapped gets a crash report with the unmapped pc as frame 0 and its callers, with source lines, after it; a fault while the report unwinds a wrecked stack ends the report instead of the node, which still exits 128+signal.
. "$SHOAL_TESTS/lib/common.bash"

build gone -O1 <<'SRC'
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <mpi.h>
typedef int fn_t(void);
/* Calls a function whose code is unmapped just before, as when a library is unloaded under
 * a thread that still runs it. */
__attribute__((noinline)) int call_unmapped(void)
{
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fn_t *volatile f = (fn_t *)p;

	p[0] = 0xc3;  /* ret */
	munmap(p, 4096);
	return f() + 1;
}
/* Faults with a stack pointer that the unwinder cannot follow. */
__attribute__((noinline)) void wreck_stack(void)
{
	__asm__ volatile("mov $0x10, %%rsp\n\tud2" ::: "memory");
}
static void *in_thread(void *arg)
{
	call_unmapped();
	return arg;
}
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* Every rank past loading its copy: no other rank maps memory where the unmapped page
	 * was between its munmap and the call. */
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1 && !strcmp(argv[1], "rank")) {
		call_unmapped();
	} else if (rank == 1 && !strcmp(argv[1], "thread")) {
		pthread_t t;
		pthread_create(&t, NULL, in_thread, NULL);
		pthread_join(t, NULL);
	} else if (rank == 1) {
		wreck_stack();
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
SRC

for where in rank thread; do
	run "$MPIEXEC" -n 2 "$TEST_TMP/gone" "$where"
	expect_rc 139
	expect_err '^shoal: rank 1.*killed by signal SIGSEGV'
	expect_err '^  #0 +0x[0-9a-f]+ \(not mapped'
	expect_err '^  #1 +0x[0-9a-f]+ call_unmapped\+0x[0-9a-f]+ \(gone\.rank1\+0x'
	expect_err ' call_unmapped at .*gone\.c:1[0-9]$'
	grep -q 'node process killed' "$ERR" && { show; fail "$where: the report itself crashed"; }
done
expect_err '^  #2 +0x[0-9a-f]+ in_thread\+'
expect_err '^shoal: rank 1 \(thread [0-9]+\): killed'

run "$MPIEXEC" -n 2 "$TEST_TMP/gone" stack
expect_rc 132
expect_err '^shoal: rank 1: killed by signal SIGILL'
expect_err '^  #0 +0x[0-9a-f]+ wreck_stack\+0x[0-9a-f]+ \(gone\.rank1\+0x'
expect_err 'the backtrace stops here'
exit 0
