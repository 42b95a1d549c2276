/* truncated_receive_counts_what_was_received: an 8-int message received into room for 4
 * fails with MPI_ERR_TRUNCATE on every receive path (Recv, Irecv with Wait, Test, Waitall or
 * Request_get_status, Mprobe+Mrecv, Sendrecv), and the status then counts what was received
 * (MPI 4.1 §3.2.5): 4 ints, the first 4 sent, nothing written past them; likewise a 1 MiB
 * message into 256 KiB.  A probe before the receive still reports the whole message. */
/* ranks: 2 4 */
#include "check.h"

#define SENT 8
#define ROOM 4
#define SLACK 4                   /* ints past ROOM that must stay untouched */
#define UNTOUCHED (-7)
#define BIG_SENT (1024 * 1024)    /* bytes */
#define BIG_ROOM (256 * 1024)

enum { T_PROBE_RECV, T_WAIT, T_TEST, T_WAITALL_FITS, T_WAITALL, T_MRECV, T_SENDRECV,
       T_GET_STATUS, T_BIG, T_AFTER };

static int in[ROOM + SLACK];

static void clear(void)
{
	for (int i = 0; i < ROOM + SLACK; i++)
		in[i] = UNTOUCHED;
}

/* What every truncated receive must leave: the envelope, a count of what was received, the
 * first ROOM sent ints in the buffer and nothing past them. */
static void check_truncated(const MPI_Status *st, int from, int tag)
{
	int count = -1, elements = -1;

	CHECK_INT(st->MPI_SOURCE, from);
	CHECK_INT(st->MPI_TAG, tag);
	CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
	CHECK_INT(count, ROOM);
	CHECK_MPI(MPI_Get_elements(st, MPI_INT, &elements));
	CHECK_INT(elements, ROOM);
	for (int i = 0; i < ROOM; i++)
		CHECK_INT(in[i], tag * 100 + i);
	for (int i = ROOM; i < ROOM + SLACK; i++)
		CHECK_INT(in[i], UNTOUCHED);
}

static void send_all(int to)
{
	int out[SENT];

	for (int tag = T_PROBE_RECV; tag <= T_GET_STATUS; tag++) {
		for (int i = 0; i < SENT; i++)
			out[i] = tag * 100 + i;
		/* The Waitall partner message fits: 2 ints. */
		CHECK_MPI(MPI_Send(out, tag == T_WAITALL_FITS ? 2 : SENT, MPI_INT, to, tag,
				   MPI_COMM_WORLD));
	}
	char *big = malloc(BIG_SENT);
	for (int i = 0; i < BIG_SENT; i++)
		big[i] = (char)(i * 7 + 1);
	CHECK_MPI(MPI_Send(big, BIG_SENT, MPI_CHAR, to, T_BIG, MPI_COMM_WORLD));
	free(big);
	/* The pair still works after the errors. */
	out[0] = 4242;
	CHECK_MPI(MPI_Send(out, 1, MPI_INT, to, T_AFTER, MPI_COMM_WORLD));
}

/* MPI_Test r until it completes (bounded: a message that never completes fails the test
 * instead of hanging it); returns MPI_Test's code. */
static int test_until_complete(MPI_Request *r, MPI_Status *st)
{
	double end = MPI_Wtime() + CHECK_POLL_S;
	int flag = 0, rc;

	do
		rc = MPI_Test(r, &flag, st);
	while (rc == MPI_SUCCESS && !flag && MPI_Wtime() < end);
	CHECK_INT(flag, 1);
	return rc;
}

static void receive_all(int from)
{
	MPI_Status st, sts[2];
	MPI_Request r, rs[2];
	MPI_Message msg;
	int count = -1, flag = 0, rc;

	/* A probe reports the whole message; the receive then counts what fitted. */
	CHECK_MPI(MPI_Probe(from, T_PROBE_RECV, MPI_COMM_WORLD, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
	CHECK_INT(count, SENT);
	clear();
	CHECK_CLASS(MPI_Recv(in, ROOM, MPI_INT, from, T_PROBE_RECV, MPI_COMM_WORLD, &st),
		    MPI_ERR_TRUNCATE);
	check_truncated(&st, from, T_PROBE_RECV);

	clear();
	CHECK_MPI(MPI_Irecv(in, ROOM, MPI_INT, from, T_WAIT, MPI_COMM_WORLD, &r));
	CHECK_CLASS(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
	CHECK(r == MPI_REQUEST_NULL);
	check_truncated(&st, from, T_WAIT);

	clear();
	CHECK_MPI(MPI_Irecv(in, ROOM, MPI_INT, from, T_TEST, MPI_COMM_WORLD, &r));
	CHECK_CLASS(test_until_complete(&r, &st), MPI_ERR_TRUNCATE);
	CHECK(r == MPI_REQUEST_NULL);
	check_truncated(&st, from, T_TEST);

	/* Waitall: request 0 fits, request 1 is truncated. */
	int fits[2] = { UNTOUCHED, UNTOUCHED };
	clear();
	CHECK_MPI(MPI_Irecv(fits, 2, MPI_INT, from, T_WAITALL_FITS, MPI_COMM_WORLD, &rs[0]));
	CHECK_MPI(MPI_Irecv(in, ROOM, MPI_INT, from, T_WAITALL, MPI_COMM_WORLD, &rs[1]));
	sts[0].MPI_ERROR = sts[1].MPI_ERROR = -1;
	CHECK_CLASS(MPI_Waitall(2, rs, sts), MPI_ERR_IN_STATUS);
	CHECK_INT(sts[0].MPI_ERROR, MPI_SUCCESS);
	CHECK_CLASS(sts[1].MPI_ERROR, MPI_ERR_TRUNCATE);
	CHECK_MPI(MPI_Get_count(&sts[0], MPI_INT, &count));
	CHECK_INT(count, 2);
	CHECK_INT(fits[1], T_WAITALL_FITS * 100 + 1);
	check_truncated(&sts[1], from, T_WAITALL);

	clear();
	CHECK_MPI(MPI_Mprobe(from, T_MRECV, MPI_COMM_WORLD, &msg, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
	CHECK_INT(count, SENT);
	CHECK_CLASS(MPI_Mrecv(in, ROOM, MPI_INT, &msg, &st), MPI_ERR_TRUNCATE);
	CHECK(msg == MPI_MESSAGE_NULL);
	check_truncated(&st, from, T_MRECV);

	clear();
	CHECK_CLASS(MPI_Sendrecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, in, ROOM, MPI_INT, from,
				 T_SENDRECV, MPI_COMM_WORLD, &st),
		    MPI_ERR_TRUNCATE);
	check_truncated(&st, from, T_SENDRECV);

	/* MPI_Request_get_status reports the truncation of a completed receive without freeing
	 * it; the MPI_Wait that follows reports it again and frees the request. */
	clear();
	CHECK_MPI(MPI_Irecv(in, ROOM, MPI_INT, from, T_GET_STATUS, MPI_COMM_WORLD, &r));
	double end = MPI_Wtime() + CHECK_POLL_S;
	do
		rc = MPI_Request_get_status(r, &flag, &st);
	while (rc == MPI_SUCCESS && !flag && MPI_Wtime() < end);
	CHECK_INT(flag, 1);
	CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
	CHECK(r != MPI_REQUEST_NULL);
	check_truncated(&st, from, T_GET_STATUS);
	CHECK_CLASS(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
	CHECK(r == MPI_REQUEST_NULL);
	check_truncated(&st, from, T_GET_STATUS);

	/* A large message: the count is the buffer's size, the bytes are the first ones sent. */
	char *big = malloc(BIG_ROOM + 64);
	memset(big, 0x5a, BIG_ROOM + 64);
	CHECK_CLASS(MPI_Recv(big, BIG_ROOM, MPI_CHAR, from, T_BIG, MPI_COMM_WORLD, &st),
		    MPI_ERR_TRUNCATE);
	CHECK_INT(st.MPI_SOURCE, from);
	CHECK_INT(st.MPI_TAG, T_BIG);
	CHECK_MPI(MPI_Get_count(&st, MPI_CHAR, &count));
	CHECK_INT(count, BIG_ROOM);
	CHECK_INT(big[0], 1);
	CHECK_INT(big[BIG_ROOM - 1], (char)((BIG_ROOM - 1) * 7 + 1));
	CHECK_INT(big[BIG_ROOM], 0x5a);
	free(big);

	int after = 0;
	CHECK_MPI(MPI_Recv(&after, 1, MPI_INT, from, T_AFTER, MPI_COMM_WORLD, &st));
	CHECK_INT(after, 4242);
}

int main(int argc, char **argv)
{
	int rank, size, partner;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	partner = rank ^ 1;
	if (partner < size) {
		if (rank < partner)
			send_all(partner);
		else
			receive_all(partner);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
