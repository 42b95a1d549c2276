#!/bin/bash
# private_mpi_library_chain_program_liba_libb: a chain program -> libA -> libB of two libraries built with Shoal's mpicc -shared, found through LD_LIBRARY_PATH, at 4 and 16 ranks: each rank's libA and libB keep their own globals; libB's constructor runs once per rank, before libA's in that rank, and libA's once per rank; the program, which needs libB too, reaches the same libB as its libA does.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP" || fail "no scratch directory"

# libtally: a plain library (no MPI), shared by the node's ranks: counts constructor runs.
gcc -shared -fPIC -Wl,-soname,libtally.so -o libtally.so "$SHOAL_TESTS/lib/tally.c" ||
	fail "cannot build libtally"

cat >libb.c <<'SRC'
#include <mpi.h>
int tally_add(void);
static int b_state = -1;
static int b_ctor_runs;
__attribute__((constructor)) static void b_ctor(void)
{
	b_ctor_runs++;
	tally_add();
}
void b_init(void)
{
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	b_state = 100 * rank;
}
int b_get(void) { return b_state; }
int b_ctors(void) { return b_ctor_runs; }
SRC
cat >liba.c <<'SRC'
#include <mpi.h>
int tally_add(void);
void b_init(void);
int b_get(void);
int b_ctors(void);
static int a_state = -1;
static int a_ctor_runs;
static int b_before_a = -1;   /* libB's constructor had run when libA's ran */
__attribute__((constructor)) static void a_ctor(void)
{
	a_ctor_runs++;
	b_before_a = b_ctors();
	tally_add();
}
void a_init(void)
{
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	a_state = rank;
	b_init();
}
int a_get(void) { return a_state; }
int a_b_get(void) { return b_get(); }
int a_ctors(void) { return a_ctor_runs; }
int a_saw_b(void) { return b_before_a; }
SRC
export LD_LIBRARY_PATH=$TEST_TMP
"$MPICC" -g -shared -o libb.so libb.c -L"$TEST_TMP" -ltally || fail "mpicc -shared cannot build libb"
"$MPICC" -g -shared -o liba.so liba.c -L"$TEST_TMP" -lb -ltally || fail "mpicc -shared cannot build liba"

build chain -L"$TEST_TMP" -la -lb -ltally <<'SRC'
#include <stdio.h>
#include <mpi.h>
void a_init(void);
int a_get(void);
int a_b_get(void);
int a_ctors(void);
int a_saw_b(void);
int b_get(void);
int b_ctors(void);
int tally_total(void);
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	a_init();
	MPI_Barrier(MPI_COMM_WORLD);   /* every rank has set its state before any reads it */
	printf("rank %d: A %d B through A %d B %d\n", rank, a_get(), a_b_get(), b_get());
	printf("rank %d: A constructors %d B constructors %d B before A %d on the node %d\n", rank,
	       a_ctors(), b_ctors(), a_saw_b(), tally_total());
	MPI_Finalize();
	return 0;
}
SRC
readelf -d chain liba.so | grep -E 'R(UN)?PATH' | grep -qF "$TEST_TMP" &&
	fail "a RUNPATH names $TEST_TMP: this test finds its libraries through LD_LIBRARY_PATH"

run ./chain
expect_rc 0
expect_out '^rank 0: A 0 B through A 0 B 0$'

for n in 4 16; do
	run -t 120 "$MPIEXEC" -n $n ./chain
	expect_rc 0
	for r in $(seq 0 $((n - 1))); do
		expect_out_count "^rank $r: A $r B through A $((100 * r)) B $((100 * r))\$" 1
		# Two constructors per rank on the node: each rank's libA and libB, libB's first.
		expect_out_count "^rank $r: A constructors 1 B constructors 1 B before A 1 on the node $((2 * n))\$" 1
	done
done
exit 0
