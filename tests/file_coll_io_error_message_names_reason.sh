#!/bin/bash
# file_coll_io_error_message_names_reason: a collective write whose only aggregator (cb_nodes 1) hits the file-size limit ends a job whose file handler is MPI_ERRORS_ARE_FATAL with a message naming the call and the system's reason ("File too large"), at 1 and 4 ranks.
. "$SHOAL_TESTS/lib/common.bash"

build werr <<'C'
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	static char a[65536];
	char path[512];
	int rank;
	MPI_File fh;
	MPI_Info info;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		struct rlimit rl = { 1 << 20, 1 << 20 };
		struct sigaction sa = { .sa_handler = SIG_IGN };
		sigaction(SIGXFSZ, &sa, NULL);
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	snprintf(path, sizeof path, "%s/werr.dat", argv[1]);
	MPI_Info_create(&info);
	MPI_Info_set(info, "cb_nodes", "1");
	MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
	MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL);
	MPI_File_write_at_all(fh, (1 << 20) - 1000 + (MPI_Offset)rank * sizeof a, a, sizeof a,
			      MPI_BYTE, MPI_STATUS_IGNORE);
	printf("not reached\n");
	MPI_Finalize();
	return 0;
}
C

for n in 1 4; do
	run -t 60 "$MPIEXEC" -n "$n" "$TEST_TMP/werr" "$TEST_TMP"
	[ "$RC" != 0 ] || { show; fail "$n ranks: the job did not end"; }
	expect_err 'MPI_File_write_at_all'
	expect_err 'File too large'
	grep -q 'not reached' "$OUT" && { show; fail "$n ranks: a rank went on"; }
	rm -f "$TEST_TMP/werr.dat"
done
exit 0
