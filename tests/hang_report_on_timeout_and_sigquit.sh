#!/bin/bash
# hang_report_on_timeout_and_sigquit: mpiexec --timeout prints what every rank waits for (call, source, tag, communicator, queues) and ends the job with 124; kill -QUIT on mpiexec prints the same and the job goes on. Calls whose entry point ends in a tail call (MPI_Waitall, MPI_Barrier) are named too, and posted receives are listed in the order posted, wildcards among them. The report has no gdb attach noise (libthread_db, the frame gdb stopped in, the detach line).
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
# These jobs stay blocked on purpose while gdb looks at them: no deadlock check.
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"

build ring <<'SRC'
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, v[3];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* Everyone receives first: a deadlock. */
	MPI_Recv(v, 3, MPI_INT, (rank + 1) % size, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC
# timed_out N PROG: run PROG on N ranks under --timeout 3; it must end with 124. The ranks
# block at once: 3 s leaves a loaded machine time to bring them there before the report.
timed_out() {
	timeout -k 5 60 "$MPIEXEC" --timeout 3 -n "$1" "$TEST_TMP/$2" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	expect_rc 124
}

timed_out 4 ring
expect_err 'hang report \(--timeout 3 s expired\)'
for r in 0 1 2 3; do
	expect_err "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=$(((r + 1) % 4)), tag=4, comm=MPI_COMM_WORLD, count=3\\)"
	expect_err "^    recv source=$(((r + 1) % 4)) tag=4 comm=MPI_COMM_WORLD count=3 "
done
expect_err 'job ended by --timeout after 3 s'
# The report is Shoal's, without gdb's own attach and detach messages.
grep -Eq 'libthread_db|No such file or directory|^\[Inferior|futex-internal' "$ERR" &&
	{ show; fail "gdb's attach messages are in the report"; }

build waits <<'SRC'
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v[3];
	MPI_Request q[3];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&v[0], 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &q[0]);
		MPI_Irecv(&v[1], 1, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &q[1]);
		MPI_Irecv(&v[2], 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &q[2]);
		MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
	} else {
		MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
SRC
timed_out 2 waits
expect_err '^[ *] 0 +[0-9]+ +in MPI_Waitall\(count=3\) pending: \[recv source=1 tag=5 .*; recv source=MPI_ANY_SOURCE tag=6 .*; recv source=1 tag=7 '
expect_err '^[ *] 1 +[0-9]+ +in MPI_Barrier\('
grep -A3 '^rank 0: posted receives: 3' "$ERR" | tr '\n' ' ' |
	grep -Eq 'recv source=1 tag=5 .* recv source=MPI_ANY_SOURCE tag=6 .* recv source=1 tag=7 ' ||
	{ show; fail "rank 0's posted receives are not listed in the order posted"; }
grep -q 'Python Exception' "$ERR" && { show; fail "the report has a Python exception"; }

# SIGQUIT: a report, then the job still runs until we end it. Until a report shows both
# ranks in MPI_Recv (one made before they got there, on a loaded machine, would not),
# another every 5 s, for a minute at most.
"$MPIEXEC" -n 2 "$TEST_TMP/ring" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
for _ in $(seq 600); do
	pgrep -P "$mpx" shoal-node >/dev/null && break
	sleep 0.1
done
for i in $(seq 600); do
	grep -Eq '^[ *] 0 +[0-9]+ +in MPI_Recv\(' "$ERR" &&
		grep -Eq '^[ *] 1 +[0-9]+ +in MPI_Recv\(' "$ERR" && break
	[ $((i % 50)) = 1 ] && kill -QUIT "$mpx"
	sleep 0.1
done
kill -0 "$mpx" 2>/dev/null || { RC=gone; show; fail "the job ended after SIGQUIT"; }
kill -TERM "$mpx"
wait "$mpx"
RC=$?
expect_err 'hang report \(SIGQUIT\)'
expect_err '^[ *] 0 +[0-9]+ +in MPI_Recv\(source=1, tag=4, comm=MPI_COMM_WORLD, count=3\)'
expect_err '^[ *] 1 +[0-9]+ +in MPI_Recv\(source=0, tag=4, comm=MPI_COMM_WORLD, count=3\)'
exit 0
