#!/bin/bash
# file_open_for_writing_is_named_when_job_dies: a job that ends while its ranks have a file open for writing says so ("shoal: file PATH was open for writing by ranks 0, 1, 2, 3 and may be incomplete") and keeps the exit status of the end: MPI_Abort, a segfault, a rank's exit, a stop signal; files open read-only, or closed, are not named, and a job that closes its files prints nothing of the kind.
. "$SHOAL_TESTS/lib/common.bash"

build writer <<'SRC'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, v;
	char w[600], r[600], c[600];
	MPI_File fw, fr, fc;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	snprintf(w, sizeof(w), "%s/written.dat", argv[2]);
	snprintf(r, sizeof(r), "%s/read.dat", argv[2]);
	snprintf(c, sizeof(c), "%s/closed.dat", argv[2]);
	MPI_File_open(MPI_COMM_WORLD, c, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fc);
	MPI_File_close(&fc);
	MPI_File_open(MPI_COMM_WORLD, c, MPI_MODE_RDONLY, MPI_INFO_NULL, &fr);
	if (MPI_File_open(MPI_COMM_WORLD, w, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
			  &fw) != MPI_SUCCESS)
		return 2;
	printf("rank %d opened\n", rank);
	fflush(stdout);
	MPI_Barrier(MPI_COMM_WORLD);
	if (strcmp(argv[1], "close") == 0) {
		MPI_File_close(&fw);
		MPI_File_close(&fr);
		MPI_Finalize();
		return 0;
	}
	/* Outside MPI, so that no deadlock check ends the job before the signal. */
	if (strcmp(argv[1], "wait") == 0)
		for (;;)
			sleep(1);
	if (rank == size - 1) {
		if (strcmp(argv[1], "abort") == 0)
			MPI_Abort(MPI_COMM_WORLD, 5);
		if (strcmp(argv[1], "segv") == 0) {
			volatile int *p = NULL;
			*p = 1;
		}
		if (strcmp(argv[1], "exit") == 0)
			exit(3);
	}
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

T=$TEST_TMP
for end in abort:5 segv:139 exit:3; do
	kind=${end%%:*} rc=${end##*:}
	run -t 60 "$MPIEXEC" -n 4 "$T/writer" $kind "$T"
	expect_rc $rc
	expect_out '^rank 3 opened$'
	expect_err "^shoal: file $T/written.dat was open for writing by ranks 0, 1, 2, 3 and may be incomplete$"
	grep -q 'read.dat\|closed.dat' "$ERR" && { show; fail "$kind: a file not open for writing is named"; }
done
# One rank: "rank", a relative name made absolute.
cd "$T"
run -t 60 "$MPIEXEC" -n 1 "$T/writer" abort .
cd - >/dev/null
expect_rc 5
expect_err "^shoal: file $T/\\./written.dat was open for writing by rank 0 and may be incomplete$"

# A stop signal (mpiexec's SIGTERM, passed to the node).
"$MPIEXEC" -n 4 "$T/writer" wait "$T" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
await_out_count '^rank [0-3] opened$' 4 || { kill -KILL $mpx; show; fail "the ranks did not open"; }
kill -TERM $mpx
await_exit $mpx "mpiexec did not end on SIGTERM"
expect_rc 143
expect_err "^shoal: file $T/written.dat was open for writing by ranks 0, 1, 2, 3 and may be incomplete$"

run -t 60 "$MPIEXEC" -n 4 "$T/writer" close "$T"
expect_rc 0
grep -q 'may be incomplete' "$ERR" && { show; fail "a job that closed its files names one"; }
exit 0
