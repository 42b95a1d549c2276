#!/bin/bash
# private_mpi_library_keeps_a_global_per_rank: a shared library built with Shoal's mpicc -shared (it needs libmpi) and linked into a program is loaded once per rank, at 4 and 64 ranks: each rank sees its own static global ("rank R: library thinks rank R"), its own thread-local, the library's constructor ran once in each rank's copy (once per rank on the node), and the library's atexit handler and destructor run once per rank, for that rank. A plain library it needs (no MPI) stays one per node. mpicc -shared gives the library a soname of its own name.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP" || fail "no scratch directory"

# libtally: a plain library (no MPI), shared by the node's ranks: counts constructor runs.
gcc -shared -fPIC -Wl,-soname,libtally.so -o libtally.so "$SHOAL_TESTS/lib/tally.c" ||
	fail "cannot build libtally"

cat >libsolver.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
int tally_add(void);
static int my_rank = -1;
static __thread int tls_value = 7;   /* each thread starts from 7 */
static int ctor_runs;                /* constructor runs in this copy */
__attribute__((constructor)) static void solver_ctor(void)
{
	ctor_runs++;
	tally_add();
}
__attribute__((destructor)) static void solver_dtor(void)
{
	printf("destructor: library rank %d\n", my_rank);
}
static void solver_atexit(void)
{
	printf("atexit: library rank %d\n", my_rank);
}
void solver_init(void)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
	tls_value += 100 * my_rank;
	atexit(solver_atexit);
}
int solver_rank(void) { return my_rank; }
int solver_tls(void) { return tls_value; }
int solver_ctor_runs(void) { return ctor_runs; }
SRC
"$MPICC" -g -shared -o libsolver.so libsolver.c -L"$TEST_TMP" -ltally -Wl,-rpath,"$TEST_TMP" ||
	fail "mpicc -shared cannot build libsolver"

build prog -L"$TEST_TMP" -lsolver -ltally -Wl,-rpath,"$TEST_TMP" <<'SRC'
#include <stdio.h>
#include <mpi.h>
void solver_init(void);
int solver_rank(void);
int solver_tls(void);
int solver_ctor_runs(void);
int tally_total(void);
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	solver_init();
	MPI_Barrier(MPI_COMM_WORLD);   /* every rank has set the library's rank before any reads it */
	printf("rank %d: library thinks rank %d\n", rank, solver_rank());
	printf("rank %d: tls %d constructors in my copy %d on the node %d\n", rank, solver_tls(),
	       solver_ctor_runs(), tally_total());
	MPI_Finalize();
	return 0;
}
SRC

# Run directly (a singleton), the library is the process's own. Not under a sanitizer
# (tests/run --san sets SAN): the program would load its runtime with libmpi.so, after libc,
# which it does not support, and the library's __thread variable makes it die at start.
if [ -z "${SAN:-}" ]; then
	run ./prog
	expect_rc 0
	expect_out '^rank 0: library thinks rank 0$'
fi

for n in 4 64; do
	run -t 240 "$MPIEXEC" -n $n ./prog
	expect_rc 0
	bad=$(grep -E '^rank [0-9]+: library thinks' "$OUT" | awk '$2 != $6 ":"' | head -n 3)
	[ -z "$bad" ] || { show; fail "-n $n: a rank reads another rank's global: $bad"; }
	for r in $(seq 0 $((n - 1))); do
		expect_out_count "^rank $r: library thinks rank $r\$" 1
		# Its own thread-local, its copy's constructor once, N copies' constructors on the node.
		expect_out_count "^rank $r: tls $((7 + 100 * r)) constructors in my copy 1 on the node $n\$" 1
		expect_out_count "^atexit: library rank $r\$" 1
		expect_out_count "^destructor: library rank $r\$" 1
	done
	expect_out_count '^atexit: library rank' $n
	expect_out_count '^destructor: library rank' $n
done

# Shoal's mpicc -shared names the library after its file: its soname is libsolver.so.
readelf -d libsolver.so | grep -q 'Library soname: \[libsolver\.so\]' ||
	{ readelf -d libsolver.so; fail "mpicc -shared gave libsolver.so no soname libsolver.so"; }
exit 0
