#!/bin/bash
# large_count_overflow_message_names_count_and_datatype: a _c call whose count of bytes overflows is fatal by default, and the message names the function, the rank, the count, the datatype and its size; a negative large count is named as such.
. "$SHOAL_TESTS/lib/common.bash"

build overflow <<'SRC'
#include <limits.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v[2] = { 0 };
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1 && strcmp(argv[1], "overflow") == 0)
		MPI_Isend_c(v, LLONG_MAX, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &(MPI_Request){0});
	else if (rank == 1)
		MPI_Recv_c(v, -5000000000LL, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

run -t 20 "$MPIEXEC" -n 2 "$TEST_TMP/overflow" overflow
expect_nonzero
expect_err 'MPI_Isend_c'
expect_err 'rank 1'
expect_err 'count 9223372036854775807 of datatype MPI_DOUBLE \(8 bytes each\)'
expect_err 'MPI_ERR_COUNT'

run -t 20 "$MPIEXEC" -n 2 "$TEST_TMP/overflow" negative
expect_nonzero
expect_err 'MPI_Recv_c'
expect_err 'count -5000000000 is negative'
exit 0
