#!/bin/bash
# win_fatal_error_names_call_rank_and_window: an error on a window whose handler is the default MPI_ERRORS_ARE_FATAL ends the job with a message naming the call, the rank, what was wrong, the window's name and the error class.
. "$SHOAL_TESTS/lib/common.bash"

build winfatal <<'SRC'
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, buf[4];
	MPI_Win win;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_set_name(win, "ghost cells");
	if (rank == 1)
		MPI_Win_set_attr(win, MPI_WIN_SIZE, buf);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
SRC

run -t 60 "$MPIEXEC" -n 2 "$TEST_TMP/winfatal"
expect_nonzero
expect_err 'rank 1: MPI_Win_set_attr: win_keyval 9 is predefined and read-only on window ghost cells: MPI_ERR_KEYVAL'
exit 0
