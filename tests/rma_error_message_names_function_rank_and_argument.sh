#!/bin/bash
# rma_error_message_names_function_rank_and_argument: under the default MPI_ERRORS_ARE_FATAL of a window, a bad RMA call on rank 1 of 3 (an MPI_Put past the target's window, an MPI_Win_lock with an invalid lock type, an MPI_Accumulate with a user op) ends the job with a non-zero status and a message naming the function, rank 1, the bad argument and the error class, while the other ranks wait in a barrier.
. "$SHOAL_TESTS/lib/common.bash"

build bad_rma <<'SRC'
#include <string.h>
#include <mpi.h>
static void user_op(void *in, void *inout, int *len, MPI_Datatype *type) { }
int main(int argc, char **argv)
{
	int rank, *mem, v[4] = { 0 };
	MPI_Win win;
	MPI_Op op;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Op_create(user_op, 1, &op);
	MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
	if (rank == 1) {
		if (strcmp(argv[1], "put") == 0) {
			MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
			MPI_Put(v, 4, MPI_INT, 0, 100, 4, MPI_INT, win);
		} else if (strcmp(argv[1], "lock") == 0) {
			MPI_Win_lock(5, 0, 0, win);
		} else {
			MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
			MPI_Accumulate(v, 1, MPI_INT, 0, 0, 1, MPI_INT, op, win);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
SRC

run -t 60 "$MPIEXEC" -n 3 "$TEST_TMP/bad_rma" put
expect_nonzero
expect_err 'MPI_Put'
expect_err 'rank 1'
expect_err 'target_disp 100'
expect_err 'MPI_ERR_RMA_RANGE'

run -t 60 "$MPIEXEC" -n 3 "$TEST_TMP/bad_rma" lock
expect_nonzero
expect_err 'MPI_Win_lock'
expect_err 'rank 1'
expect_err 'lock_type 5'
expect_err 'MPI_ERR_LOCKTYPE'

run -t 60 "$MPIEXEC" -n 3 "$TEST_TMP/bad_rma" accumulate
expect_nonzero
expect_err 'MPI_Accumulate'
expect_err 'rank 1'
expect_err '\bop\b'
expect_err 'MPI_ERR_OP'
exit 0
