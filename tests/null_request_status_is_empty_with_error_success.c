/* null_request_status_is_empty_with_error_success: MPI_Wait, MPI_Test, MPI_Waitany,
 * MPI_Testany, MPI_Waitall, MPI_Testall, MPI_Waitsome, MPI_Testsome and
 * MPI_Request_get_status on MPI_REQUEST_NULL and on an inactive persistent request give the
 * empty status of MPI 4.1 3.7.3 whole: source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0, not
 * cancelled, and MPI_ERROR = MPI_SUCCESS over whatever the status held. */
/* ranks: 1 2 4 16 64 */
#include "check.h"

/* A status full of values no call would leave. */
static void dirty(MPI_Status *st)
{
	st->MPI_SOURCE = 4242;
	st->MPI_TAG = 4343;
	st->MPI_ERROR = 4444;
	MPI_Status_set_cancelled(st, 1);
}

static void check_empty(const MPI_Status *st)
{
	int flag = 1;

	CHECK_EMPTY_STATUS(st, MPI_ANY_SOURCE);
	CHECK_INT(st->MPI_ERROR, MPI_SUCCESS);
	CHECK_MPI(MPI_Test_cancelled(st, &flag));
	CHECK_INT(flag, 0);
}

/* Every call of the family on `reqs`, two requests that are null or inactive. */
static void family(MPI_Request reqs[2])
{
	MPI_Status st, sts[2];
	int flag, index, outcount, indices[2];

	dirty(&st);
	CHECK_MPI(MPI_Wait(&reqs[0], &st));
	check_empty(&st);
	dirty(&st);
	flag = 0;
	CHECK_MPI(MPI_Test(&reqs[0], &flag, &st));
	CHECK_INT(flag, 1);
	check_empty(&st);
	dirty(&st);
	CHECK_MPI(MPI_Request_get_status(reqs[0], &flag, &st));
	CHECK_INT(flag, 1);
	check_empty(&st);
	dirty(&st);
	CHECK_MPI(MPI_Waitany(2, reqs, &index, &st));
	CHECK_INT(index, MPI_UNDEFINED);
	check_empty(&st);
	dirty(&st);
	flag = 0;
	CHECK_MPI(MPI_Testany(2, reqs, &index, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_INT(index, MPI_UNDEFINED);
	check_empty(&st);
	dirty(&sts[0]);
	dirty(&sts[1]);
	CHECK_MPI(MPI_Waitall(2, reqs, sts));
	check_empty(&sts[0]);
	check_empty(&sts[1]);
	dirty(&sts[0]);
	dirty(&sts[1]);
	flag = 0;
	CHECK_MPI(MPI_Testall(2, reqs, &flag, sts));
	CHECK_INT(flag, 1);
	check_empty(&sts[0]);
	check_empty(&sts[1]);
	CHECK_MPI(MPI_Waitsome(2, reqs, &outcount, indices, sts));
	CHECK_INT(outcount, MPI_UNDEFINED);
	CHECK_MPI(MPI_Testsome(2, reqs, &outcount, indices, sts));
	CHECK_INT(outcount, MPI_UNDEFINED);
}

int main(int argc, char **argv)
{
	int rank, size, buf = 0;
	MPI_Request reqs[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	family(reqs);
	/* Inactive persistent requests: never started, and started then completed. */
	CHECK_MPI(MPI_Recv_init(&buf, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD,
				&reqs[0]));
	CHECK_MPI(MPI_Send_init(&rank, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD,
				&reqs[1]));
	family(reqs);
	CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Startall(2, reqs));
	CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
	CHECK_INT(buf, (rank + size - 1) % size);
	family(reqs);
	CHECK_MPI(MPI_Request_free(&reqs[0]));
	CHECK_MPI(MPI_Request_free(&reqs[1]));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
