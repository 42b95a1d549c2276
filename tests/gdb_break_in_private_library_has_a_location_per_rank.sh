#!/bin/bash
# gdb_break_in_private_library_has_a_location_per_rank: debugging a library built with Shoal's mpicc -shared, loaded once per rank, at 4 ranks: under mpiexec --gdb, `break solver_init` has one location per rank, each rank stops there once, at the library's source file and line, and `info ranks` shows the stopped rank in the library function; a rank that crashes in the library gets a backtrace naming the library function and its line; a hang report names the library function and line where each rank waits, at 4 ranks and at 16 (switched in user space where the CPU can); shoal-gdb attaches to a running job and shows the library function and the rank's own library global.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
# These jobs stay blocked on purpose while gdb looks at them: no deadlock check.
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"
cd "$TEST_TMP" || fail "no scratch directory"

# Line numbers matter: solver_init's body is line 6, the null write line 15, MPI_Recv line 22.
cat >libsolver.c <<'SRC'
#include <mpi.h>
static int my_rank = -1;
static int size;
void solver_init(void)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
}
int solver_rank(void) { return my_rank; }
void solver_crash(void)
{
	volatile int *p = 0;

	if (my_rank == 2)
		*p = 1;
}
void solver_wait(void)
{
	int v;

	/* Every rank receives first from the next one: a deadlock. */
	MPI_Recv(&v, 1, MPI_INT, (my_rank + 1) % size, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
SRC
"$MPICC" -g -O0 -shared -o libsolver.so libsolver.c || fail "mpicc -shared cannot build libsolver"

build prog -g -O0 -L"$TEST_TMP" -lsolver -Wl,-rpath,"$TEST_TMP" <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
void solver_init(void);
int solver_rank(void);
void solver_crash(void);
void solver_wait(void);
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	solver_init();
	MPI_Barrier(MPI_COMM_WORLD);   /* every rank has set the library's rank before any uses it */
	printf("rank %d: library thinks rank %d\n", rank, solver_rank());
	if (argc > 1 && !strcmp(argv[1], "crash"))
		solver_crash();
	if (argc > 1 && !strcmp(argv[1], "wait"))
		solver_wait();
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
SRC

# gdb: the job stops once every rank has loaded its copies; then one breakpoint, a location
# in each rank's copy of the library, hit once by each rank.
cat >cmds <<'GDB'
break solver_init
continue
info ranks
continue
continue
continue
continue
GDB
run -t 120 "$MPIEXEC" --gdb-x cmds -n 4 ./prog
expect_rc 0
# (mpiexec --gdb's own breakpoints come first: the number is read from gdb's answer.)
bp=$(sed -nE 's/^Breakpoint ([0-9]+) at 0x.*/\1/p' "$OUT" | head -n 1)
[ -n "$bp" ] || { show; fail "gdb set no breakpoint on solver_init"; }
expect_out "^Breakpoint $bp at 0x[0-9a-f]+: solver_init\\. \\(4 locations\\)\$"
for r in 0 1 2 3; do
	expect_out_count "\"rank $r\" hit Breakpoint $bp\\.[1-4], solver_init \\(\\) at .*libsolver\\.c:6\$" 1
	expect_out_count "^rank $r: library thinks rank $r\$" 1
done
expect_out '^6[[:space:]]+MPI_Comm_rank\(MPI_COMM_WORLD, &my_rank\);$'
# info ranks at the first stop: the rank that hit it is in the library's function.
first=$(grep -m1 -oE '"rank [0-3]" hit Breakpoint' "$OUT" | grep -oE '[0-3]')
expect_out "^\\* $first +[0-9]+ +running +solver_init \\(\\) at libsolver\\.c:6"

# A crash in the library: rank 2's report names the library's function and line.
run -t 60 "$MPIEXEC" -n 4 ./prog crash
expect_rc 139
expect_err 'rank 2: killed by signal SIGSEGV .* at (\(nil\)|0x0)'
expect_err '#0 +0x[0-9a-f]+ solver_crash\+0x[0-9a-f]+ \('
expect_err '#0 +solver_crash at .*libsolver\.c:15\b'
expect_err '#1 +main at .*prog\.c:17\b'

# A hang in the library: the report names where in the library each rank waits.
# (Not `run`: it takes status 124 for its own limit.)
timeout -k 5 60 "$MPIEXEC" --timeout 3 -n 4 ./prog wait >"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc 124
expect_err 'hang report \(--timeout 3 s expired\)'
for r in 0 1 2 3; do
	expect_err "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=$(((r + 1) % 4)), tag=4, comm=MPI_COMM_WORLD, count=1\\) +solver_wait \\(\\) at libsolver\\.c:22\$"
done

# The same with 16 ranks outnumbering the cores, switched in user space (parked, or run on
# carrier threads) where the CPU can switch them (FSGSBASE), threads of their own elsewhere.
SHOAL_FIBERS=1 timeout -k 5 60 "$MPIEXEC" --timeout 3 -n 16 ./prog wait >"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc 124
for r in $(seq 0 15); do
	expect_err "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=$(((r + 1) % 16)), tag=4, comm=MPI_COMM_WORLD, count=1\\) +solver_wait \\(\\) at libsolver\\.c:22\$"
done

# shoal-gdb attaches to a running job as before, with every copy's symbols and with symbols
# on demand (SHOAL_GDB_EAGER_MAX=0): info ranks names the library function where each rank
# waits, and rank 2 selects its frame there, where print shows rank 2's own library global.
start_job 4 ./prog wait
for eager in 64 0; do
	for _ in $(seq 30); do   # until every rank waits in the library, 30 attaches at most
		SHOAL_GDB_EAGER_MAX=$eager run -t 60 "$SHOAL_BUILD/bin/shoal-gdb" "$node" -batch -nx \
			-ex 'info ranks' -ex 'rank 2' -ex 'print my_rank'
		[ "$(grep -Ec '^[ *] [0-3] +[0-9]+ +in MPI_Recv' "$OUT")" = 4 ] && break
		sleep 1
	done
	expect_rc 0
	for r in 0 1 2 3; do
		expect_out "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=$(((r + 1) % 4)), tag=4, comm=MPI_COMM_WORLD, count=1\\) +solver_wait \\(\\) at libsolver\\.c:22\$"
	done
	expect_out '^#[0-9]+ +0x[0-9a-f]+ in solver_wait \(\) at libsolver\.c:22$'
	expect_out '^\$1 = 2$'
done
exit 0
