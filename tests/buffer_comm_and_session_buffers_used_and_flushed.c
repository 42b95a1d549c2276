/* ranks: 2 4 16 64 */
/* buffer_comm_and_session_buffers_used_and_flushed: a buffered send on a communicator with
 * a buffer of its own (MPI_Comm_attach_buffer) takes its room there: with the process's
 * buffer too small for the message (MPI_Bsend on MPI_COMM_WORLD fails MPI_ERR_BUFFER), the
 * same send on the communicator succeeds before any receive is posted. The iflush calls
 * give a request that stays incomplete while the message waits unreceived (the receiver
 * posts nothing until told) and completes once it is received; the blocking flushes and
 * detaches then return at once. A session's buffer (MPI_Session_attach_buffer) serves the
 * communicators made from its process sets, not MPI_COMM_WORLD. MPI_BUFFER_AUTOMATIC
 * takes what the messages need (three 1 MiB sends with no buffer of the user's) and is
 * handed back by the detach with size 0. Pairs of ranks (2k, 2k+1). */
#include "check.h"

#define BIG (64 * 1024)
#define TAG_GO 50

/* The receiver's half of one round: wait for "go", then receive `n` BIG messages. */
static void receive_round(MPI_Comm comm, int from, int n)
{
	char *buf = malloc(BIG);
	int go;

	CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, from, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	for (int i = 0; i < n; i++) {
		memset(buf, 0, BIG);
		CHECK_MPI(MPI_Recv(buf, BIG, MPI_CHAR, from, i, comm, MPI_STATUS_IGNORE));
		CHECK(buf[0] == 'a' + i && buf[BIG - 1] == 'a' + i);
	}
	free(buf);
}

/* The sender's: `n` buffered sends on `comm`, an iflush by `iflush` (NULL: none) whose
 * request must stay incomplete until the receiver is told to go. */
static void send_round(MPI_Comm comm, int to, int n, int (*iflush)(MPI_Comm, MPI_Request *))
{
	char *buf = malloc(BIG);
	MPI_Request q = MPI_REQUEST_NULL;
	int flag = -1, go = 1;

	for (int i = 0; i < n; i++) {
		memset(buf, 'a' + i, BIG);
		CHECK_MPI(MPI_Bsend(buf, BIG, MPI_CHAR, to, i, comm));
	}
	free(buf);   /* the messages are in the buffer now */
	if (iflush != NULL) {
		CHECK_MPI(iflush(comm, &q));
		for (int i = 0; i < 100; i++) {
			CHECK_MPI(MPI_Test(&q, &flag, MPI_STATUS_IGNORE));
			CHECK_INT(flag, 0);
		}
	}
	CHECK_MPI(MPI_Send(&go, 1, MPI_INT, to, TAG_GO, MPI_COMM_WORLD));
	if (iflush != NULL) {
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
		CHECK(q == MPI_REQUEST_NULL);
	}
}

static MPI_Session the_session;
static int session_iflush(MPI_Comm comm, MPI_Request *q)
{
	return MPI_Session_iflush_buffer(the_session, q);
}

static int rank_iflush(MPI_Comm comm, MPI_Request *q)
{
	return MPI_Buffer_iflush(q);
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	int partner = rank ^ 1, sender = rank % 2 == 0;
	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}
	MPI_Comm dup;
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);

	/* 1. The communicator's own buffer; the process's is too small. */
	int small = 1024, bufsize = 2 * (BIG + MPI_BSEND_OVERHEAD);
	char *rank_buf = malloc(small), *comm_buf = malloc(bufsize), *big = malloc(BIG);
	CHECK_MPI(MPI_Buffer_attach(rank_buf, small));
	if (sender) {
		memset(big, 'z', BIG);
		CHECK_CLASS(MPI_Bsend(big, BIG, MPI_CHAR, partner, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
		CHECK_CLASS(MPI_Bsend(big, BIG, MPI_CHAR, partner, 0, dup), MPI_ERR_BUFFER);
		CHECK_MPI(MPI_Comm_attach_buffer(dup, comm_buf, bufsize));
		CHECK_CLASS(MPI_Comm_attach_buffer(dup, comm_buf, bufsize), MPI_ERR_BUFFER);
		send_round(dup, partner, 2, MPI_Comm_iflush_buffer);
		CHECK_MPI(MPI_Comm_flush_buffer(dup));
		void *addr = NULL;
		int n = -1;
		CHECK_MPI(MPI_Comm_detach_buffer(dup, &addr, &n));
		CHECK(addr == comm_buf);
		CHECK_INT(n, bufsize);
		CHECK_CLASS(MPI_Comm_detach_buffer(dup, &addr, &n), MPI_ERR_BUFFER);
	} else {
		receive_round(dup, partner, 2);
	}

	/* 2. The process's buffer, flushed by MPI_Buffer_iflush. */
	CHECK_DETACH(rank_buf, small);
	CHECK_MPI(MPI_Buffer_attach(comm_buf, bufsize));
	if (sender)
		send_round(MPI_COMM_WORLD, partner, 2, rank_iflush);
	else
		receive_round(MPI_COMM_WORLD, partner, 2);
	CHECK_MPI(MPI_Buffer_flush());
	CHECK_DETACH(comm_buf, bufsize);

	/* 3. A session's buffer serves its communicators only. */
	MPI_Group g;
	MPI_Comm sc;
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &the_session));
	CHECK_MPI(MPI_Group_from_session_pset(the_session, "mpi://WORLD", &g));
	CHECK_MPI(MPI_Comm_create_from_group(g, "buffer test", MPI_INFO_NULL, MPI_ERRORS_RETURN,
					     &sc));
	CHECK_MPI(MPI_Session_attach_buffer(the_session, comm_buf, bufsize));
	if (sender) {
		CHECK_CLASS(MPI_Bsend(big, BIG, MPI_CHAR, partner, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
		send_round(sc, partner, 2, session_iflush);
	} else {
		receive_round(sc, partner, 2);
	}
	CHECK_MPI(MPI_Session_flush_buffer(the_session));
	void *addr = NULL;
	int n = -1;
	CHECK_MPI(MPI_Session_detach_buffer(the_session, &addr, &n));
	CHECK(addr == comm_buf);
	CHECK_INT(n, bufsize);
	if (sender)
		CHECK_CLASS(MPI_Bsend(big, BIG, MPI_CHAR, partner, 0, sc), MPI_ERR_BUFFER);

	/* 4. MPI_BUFFER_AUTOMATIC on a communicator: room as needed. */
	enum { MIB = 1 << 20 };
	if (sender) {
		char *m = malloc(MIB);
		MPI_Count cn = -1;
		CHECK_MPI(MPI_Comm_attach_buffer(sc, MPI_BUFFER_AUTOMATIC, 0));
		for (int i = 0; i < 3; i++) {
			memset(m, 'A' + i, MIB);
			CHECK_MPI(MPI_Bsend(m, MIB, MPI_CHAR, partner, 10 + i, sc));
		}
		free(m);
		int go = 1;
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, partner, TAG_GO, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Comm_detach_buffer_c(sc, &addr, &cn));
		CHECK(addr == MPI_BUFFER_AUTOMATIC);
		CHECK_INT(cn, 0);
	} else {
		char *m = malloc(MIB);
		int go;
		CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, partner, TAG_GO, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		for (int i = 0; i < 3; i++) {
			CHECK_MPI(MPI_Recv(m, MIB, MPI_CHAR, partner, 10 + i, sc, MPI_STATUS_IGNORE));
			CHECK(m[0] == 'A' + i && m[MIB - 1] == 'A' + i);
		}
		free(m);
	}
	CHECK_MPI(MPI_Comm_free(&sc));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Session_finalize(&the_session));
	CHECK_MPI(MPI_Comm_free(&dup));
	free(big);
	free(rank_buf);
	free(comm_buf);
	MPI_Finalize();
	if (rank == 0)
		printf("ok\n");
	return 0;
}
