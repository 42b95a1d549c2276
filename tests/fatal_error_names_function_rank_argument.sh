#!/bin/bash
# fatal_error_names_function_rank_argument: with the default MPI_ERRORS_ARE_FATAL, an invalid argument aborts the job with a non-zero status and a message naming the MPI function, the rank and the bad argument.
. "$SHOAL_TESTS/lib/common.bash"

build fatal <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
static _Alignas(64) unsigned char not_a_request[4096];
int main(int argc, char **argv)
{
	int rank, v = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1) {
		if (strcmp(argv[1], "dest") == 0)
			MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
		else if (strcmp(argv[1], "count") == 0)
			MPI_Recv(&v, -3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		else if (strcmp(argv[1], "tag") == 0)
			MPI_Isend(&v, 1, MPI_INT, 0, -4, MPI_COMM_WORLD, &(MPI_Request){0});
		else if (strcmp(argv[1], "request") == 0) {
			MPI_Request bogus = (MPI_Request)(void *)not_a_request;
			MPI_Wait(&bogus, MPI_STATUS_IGNORE);
		}
		printf("rank 1 survived the error\n");
	}
	/* Everyone else waits for a message that never comes. */
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

check_fatal() {
	local arg=$1 fn=$2 what=$3
	run -t 20 "$MPIEXEC" -n 3 "$TEST_TMP/fatal" "$arg"
	expect_nonzero
	expect_err "$fn"
	expect_err 'rank 1'
	grep -Eqi -- "$what" "$ERR" || { show; fail "$fn: message does not name the argument (/$what/)"; }
	grep -q 'survived' "$OUT" && fail "$fn: the rank continued after a fatal error"
	return 0
}
check_fatal dest MPI_Send 'dest|rank 99|99'
check_fatal count MPI_Recv 'count'
check_fatal tag MPI_Isend 'tag'
check_fatal request MPI_Wait 'request'
exit 0
