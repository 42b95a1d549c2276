#!/bin/bash
# coll_overlapping_receive_message_names_blocks: a collective whose receive blocks overlap is fatal by default, and the message names the function, the rank, the two blocks and the error class; a receive type that overlaps itself is named with its count.
. "$SHOAL_TESTS/lib/common.bash"

build overlap <<'SRC'
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, in[2] = { 1, 2 }, out[64] = { 0 }, counts[32], displs[32];
	MPI_Datatype v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int k = 0; k < size; k++)
		counts[k] = 2, displs[k] = k;      /* block k covers k and k + 1 */
	if (strcmp(argv[1], "displs") == 0) {
		MPI_Allgatherv(in, 2, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_WORLD);
	} else {
		MPI_Type_vector(2, 2, 1, MPI_INT, &v);
		MPI_Type_commit(&v);
		MPI_Allreduce(in, out, 1, v, MPI_SUM, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
SRC

run -t 20 "$MPIEXEC" -n 3 "$TEST_TMP/overlap" displs
expect_nonzero
expect_err 'MPI_Allgatherv'
expect_err 'rank [0-2]'
expect_err 'blocks 0 and 1 write the same elements'
expect_err 'MPI_ERR_ARG'

run -t 20 "$MPIEXEC" -n 2 "$TEST_TMP/overlap" type
expect_nonzero
expect_err 'MPI_Allreduce'
expect_err 'the receive layout overlaps: count 1 of datatype'
expect_err 'MPI_ERR_TYPE'
exit 0
