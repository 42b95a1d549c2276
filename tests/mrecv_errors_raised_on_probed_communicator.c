/* mrecv_errors_raised_on_probed_communicator: errors of MPI_Mrecv and MPI_Imrecv (truncation, a bad count) go to the error handler of the communicator the message was probed on, not to MPI_COMM_WORLD's */
/* ranks: 2 */
#include "check.h"

static int calls;
static MPI_Comm seen;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
	calls++;
	seen = *comm;
}

int main(int argc, char **argv)
{
	int rank, buf[8] = { 0 }, cls;
	MPI_Comm d;
	MPI_Errhandler eh;
	MPI_Message msg;
	MPI_Request q;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL: an error raised there ends the test. */
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
	CHECK_MPI(MPI_Comm_create_errhandler(count_errors, &eh));
	CHECK_MPI(MPI_Comm_set_errhandler(d, eh));
	if (rank == 0) {
		for (int i = 0; i < 8; i++)
			buf[i] = i;
		for (int k = 0; k < 3; k++)
			CHECK_MPI(MPI_Send(buf, 8, MPI_INT, 1, k, d));
	} else if (rank == 1) {
		/* Truncation in MPI_Mrecv. */
		CHECK_MPI(MPI_Mprobe(0, 0, d, &msg, MPI_STATUS_IGNORE));
		MPI_Error_class(MPI_Mrecv(buf, 4, MPI_INT, &msg, MPI_STATUS_IGNORE), &cls);
		CHECK_INT(cls, MPI_ERR_TRUNCATE);
		CHECK_INT(calls, 1);
		CHECK(seen == d);

		/* A bad count: raised on d too, and the message is still there to receive. */
		CHECK_MPI(MPI_Mprobe(0, 1, d, &msg, MPI_STATUS_IGNORE));
		MPI_Error_class(MPI_Mrecv(buf, -1, MPI_INT, &msg, MPI_STATUS_IGNORE), &cls);
		CHECK_INT(cls, MPI_ERR_COUNT);
		CHECK_INT(calls, 2);
		CHECK(msg != MPI_MESSAGE_NULL);
		CHECK_MPI(MPI_Mrecv(buf, 8, MPI_INT, &msg, MPI_STATUS_IGNORE));
		CHECK_INT(buf[7], 7);

		/* Truncation through MPI_Imrecv, reported by MPI_Wait. */
		int flag = 0;
		while (!flag)
			CHECK_MPI(MPI_Improbe(0, 2, d, &flag, &msg, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Imrecv(buf, 2, MPI_INT, &msg, &q));
		MPI_Error_class(MPI_Wait(&q, MPI_STATUS_IGNORE), &cls);
		CHECK_INT(cls, MPI_ERR_TRUNCATE);
		CHECK_INT(calls, 3);
		CHECK(seen == d);
	}
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK_MPI(MPI_Comm_free(&d));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
