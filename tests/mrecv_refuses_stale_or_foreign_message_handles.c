/* mrecv_refuses_stale_or_foreign_message_handles: MPI_Mrecv and MPI_Imrecv given a copy of a
 * message handle that was already received, a handle to memory that is not a message, or a
 * small integer fail with MPI_ERR_REQUEST without receiving anything (a NULL message pointer
 * is MPI_ERR_ARG), and later messages are still delivered intact. */
/* ranks: 1 2 */
#include "check.h"

#define LATER 8

/* Zeroed, readable memory that is not a message. */
static _Alignas(64) unsigned char not_a_message[4096];

int main(int argc, char **argv)
{
	int rank, x;
	MPI_Status st;
	MPI_Message msg, stale, bogus;
	MPI_Request r;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	/* A message to ourselves, matched by MPI_Mprobe and received once. */
	x = 123;
	CHECK_MPI(MPI_Send(&x, 1, MPI_INT, rank, 9, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Mprobe(rank, 9, MPI_COMM_WORLD, &msg, &st));
	stale = msg;
	x = -1;
	CHECK_MPI(MPI_Mrecv(&x, 1, MPI_INT, &msg, &st));
	CHECK(msg == MPI_MESSAGE_NULL);
	CHECK_INT(x, 123);

	/* The saved copy names a message that is gone: refused, nothing delivered. */
	x = -1;
	msg = stale;
	CHECK_CLASS(MPI_Mrecv(&x, 1, MPI_INT, &msg, &st), MPI_ERR_REQUEST);
	CHECK_INT(x, -1);
	msg = stale;
	r = MPI_REQUEST_NULL;
	CHECK_CLASS(MPI_Imrecv(&x, 1, MPI_INT, &msg, &r), MPI_ERR_REQUEST);
	CHECK_INT(x, -1);

	/* Handles that were never messages. */
	bogus = (MPI_Message)(void *)not_a_message;
	CHECK_CLASS(MPI_Mrecv(&x, 1, MPI_INT, &bogus, &st), MPI_ERR_REQUEST);
	bogus = (MPI_Message)1;
	CHECK_CLASS(MPI_Mrecv(&x, 1, MPI_INT, &bogus, &st), MPI_ERR_REQUEST);
	bogus = (MPI_Message)1;
	CHECK_CLASS(MPI_Imrecv(&x, 1, MPI_INT, &bogus, &r), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Mrecv(&x, 1, MPI_INT, NULL, &st), MPI_ERR_ARG);
	CHECK_INT(x, -1);

	/* Later messages, all unreceived at once, arrive with their own values.  A stale receive
	 * that gave a message's memory back a second time loses or mixes them up. */
	int out[LATER], in[LATER];
	MPI_Request sends[LATER], recvs[LATER];
	for (int i = 0; i < LATER; i++) {
		out[i] = 1000 + i;
		in[i] = -1;
		CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, rank, 20 + i, MPI_COMM_WORLD, &sends[i]));
	}
	for (int i = LATER - 1; i >= 0; i--)
		CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, rank, 20 + i, MPI_COMM_WORLD, &recvs[i]));
	double end = MPI_Wtime() + CHECK_POLL_S;
	int done = 0;
	do
		CHECK_MPI(MPI_Testall(LATER, recvs, &done, MPI_STATUSES_IGNORE));
	while (!done && MPI_Wtime() < end);
	CHECK_INT(done, 1);
	for (int i = 0; i < LATER; i++)
		CHECK_INT(in[i], 1000 + i);
	CHECK_MPI(MPI_Waitall(LATER, sends, MPI_STATUSES_IGNORE));

	/* And a probed message is still received through its handle. */
	x = 77;
	CHECK_MPI(MPI_Send(&x, 1, MPI_INT, rank, 10, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Mprobe(rank, 10, MPI_COMM_WORLD, &msg, &st));
	x = -1;
	CHECK_MPI(MPI_Mrecv(&x, 1, MPI_INT, &msg, &st));
	CHECK_INT(x, 77);
	CHECK_INT(st.MPI_TAG, 10);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
