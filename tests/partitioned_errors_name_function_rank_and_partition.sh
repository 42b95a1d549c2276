#!/bin/bash
# partitioned_errors_name_function_rank_and_partition: bad partitioned calls get their error class (a partition readied twice in an epoch MPI_ERR_OTHER, out of range MPI_ERR_ARG, Pready on an inactive request or Parrived on a send MPI_ERR_REQUEST, MPI_ANY_SOURCE/MPI_ANY_TAG in Precv_init, totals that disagree MPI_ERR_TRUNCATE, an info that is none MPI_ERR_INFO, MPI_Cancel MPI_ERR_REQUEST) and the job still moves the data after them; fatal by default, the message names the function, the rank, the partition and the class.
. "$SHOAL_TESTS/lib/common.bash"

build perr <<'SRC'
#include <string.h>
#include "check.h"

static int cls(int rc) { int c; MPI_Error_class(rc, &c); return c; }

int main(int argc, char **argv)
{
	int rank, s[4] = { 1, 2, 3, 4 }, r[4] = { 0 }, flag, list[2] = { 1, 4 };
	MPI_Request sq, rq, q;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Psend_init(s, 4, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &sq));
	CHECK_MPI(MPI_Precv_init(r, 2, 2, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
	if (strcmp(argv[1], "twice") == 0) {
		MPI_Start(&sq);
		MPI_Pready(2, sq);
		MPI_Pready(2, sq);
		return 3;
	}
	if (strcmp(argv[1], "range") == 0) {
		MPI_Start(&sq);
		MPI_Pready(9, sq);
		return 3;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	CHECK_INT(cls(MPI_Pready(0, sq)), MPI_ERR_REQUEST);          /* not started */
	CHECK_MPI(MPI_Start(&sq));
	CHECK_MPI(MPI_Pready(0, sq));
	CHECK_INT(cls(MPI_Pready(0, sq)), MPI_ERR_OTHER);            /* twice */
	CHECK_INT(cls(MPI_Pready(4, sq)), MPI_ERR_ARG);
	CHECK_INT(cls(MPI_Pready(-1, sq)), MPI_ERR_ARG);
	CHECK_INT(cls(MPI_Pready_range(3, 1, sq)), MPI_ERR_ARG);
	CHECK_INT(cls(MPI_Pready_list(2, list, sq)), MPI_ERR_ARG);
	CHECK_INT(cls(MPI_Pready(0, rq)), MPI_ERR_REQUEST);          /* a receive */
	CHECK_INT(cls(MPI_Parrived(sq, 0, &flag)), MPI_ERR_REQUEST); /* a send */
	CHECK_INT(cls(MPI_Parrived(rq, 2, &flag)), MPI_ERR_ARG);
	CHECK_INT(cls(MPI_Cancel(&sq)), MPI_ERR_REQUEST);
	CHECK_INT(cls(MPI_Precv_init(r, 1, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD,
				     MPI_INFO_NULL, &q)), MPI_ERR_RANK);
	CHECK_INT(cls(MPI_Precv_init(r, 1, 1, MPI_INT, rank, MPI_ANY_TAG, MPI_COMM_WORLD,
				     MPI_INFO_NULL, &q)), MPI_ERR_TAG);
	CHECK_INT(cls(MPI_Psend_init(s, -1, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
				     &q)), MPI_ERR_ARG);
	CHECK_INT(cls(MPI_Psend_init(s, 4, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, (MPI_Info)s,
				     &q)), MPI_ERR_INFO);
	CHECK_MPI(MPI_Psend_init(s, 4, 1, MPI_INT, rank, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &q));
	MPI_Request q2;
	CHECK_INT(cls(MPI_Precv_init(r, 1, 3, MPI_INT, rank, 8, MPI_COMM_WORLD, MPI_INFO_NULL,
				     &q2)), MPI_ERR_TRUNCATE);
	CHECK_MPI(MPI_Request_free(&q));
	/* The errors changed nothing: the rest arrives. */
	list[1] = 3;
	CHECK_MPI(MPI_Start(&rq));
	CHECK_MPI(MPI_Pready_list(2, list, sq));
	CHECK_MPI(MPI_Pready(2, sq));
	CHECK_MPI(MPI_Wait(&sq, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
	for (int i = 0; i < 4; i++)
		CHECK_INT(r[i], i + 1);
	MPI_Request_free(&sq);
	MPI_Request_free(&rq);
	printf("rank %d ok\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

run -t 30 "$MPIEXEC" -n 2 "$TEST_TMP/perr" classes
expect_rc 0
expect_out_count '^rank [0-9]+ ok$' 2

run -t 30 "$MPIEXEC" -n 1 "$TEST_TMP/perr" twice
expect_nonzero
expect_err 'MPI_Pready'
expect_err 'rank 0'
expect_err 'partition 2 was readied already in this epoch'
expect_err 'MPI_ERR_OTHER'

run -t 30 "$MPIEXEC" -n 1 "$TEST_TMP/perr" range
expect_nonzero
expect_err 'MPI_Pready'
expect_err 'partition 9 is outside 0..3'
expect_err 'MPI_ERR_ARG'
exit 0
