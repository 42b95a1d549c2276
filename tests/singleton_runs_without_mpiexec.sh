#!/bin/bash
# singleton_runs_without_mpiexec: a program built with mpicc runs directly (./prog) as a one-rank job: size 1, rank 0, self messages work, its exit status is the program's.
. "$SHOAL_TESTS/lib/common.bash"

build single <<'SRC'
#include <stdio.h>
#include <pthread.h>
#include "check.h"
int main(int argc, char **argv)
{
	int rank = -1, size = -1, v = 5, w = 0;
	MPI_Request r;
	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	CHECK_INT(rank, 0);
	CHECK_INT(size, 1);
	CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &r));
	CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
	CHECK_INT(w, 5);
	/* An invalid rank is still an error here. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
	printf("singleton ok argc=%d last=%s\n", argc, argv[argc - 1]);
	CHECK_MPI(MPI_Finalize());
	return argc > 2 ? 6 : 0;
}
SRC

run "$TEST_TMP/single" x
expect_rc 0
expect_out '^singleton ok argc=2 last=x$'
run "$TEST_TMP/single" x y
expect_rc 6
# Relative path, from another directory.
(cd "$TEST_TMP" && ./single z) >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0
expect_out '^singleton ok argc=2 last=z$'
exit 0
