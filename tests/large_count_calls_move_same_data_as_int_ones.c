/* large_count_calls_move_same_data_as_int_ones: each MPI 4.1 _c point-to-point call (sends of
 * all modes and kinds, receives, Sendrecv(_replace)_c, Mrecv_c/Imrecv_c, Buffer_attach_c/
 * detach_c) moves the data and status its int twin does, eager and large, mixed with int. */
/* ranks: 2 4 */
#include <stdbool.h>
#include "check.h"

/* In ints: an eager message, and one above Shoal's 128 KiB split-copy threshold. */
#define SMALL 8
#define LARGE (64 * 1024)

typedef int send_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm);
typedef int send_c_fn(const void *, MPI_Count, MPI_Datatype, int, int, MPI_Comm);
typedef int isend_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
typedef int isend_c_fn(const void *, MPI_Count, MPI_Datatype, int, int, MPI_Comm,
		       MPI_Request *);

enum mode { STANDARD, SYNC, BUFFERED, READY, MODES };
enum kind { BLOCKING, NONBLOCKING, PERSISTENT, KINDS };

static const struct {
	send_fn *send;
	send_c_fn *send_c;
	isend_fn *isend, *init;
	isend_c_fn *isend_c, *init_c;
} modes[MODES] = {
	[STANDARD] = { MPI_Send, MPI_Send_c, MPI_Isend, MPI_Send_init, MPI_Isend_c,
		       MPI_Send_init_c },
	[SYNC] = { MPI_Ssend, MPI_Ssend_c, MPI_Issend, MPI_Ssend_init, MPI_Issend_c,
		   MPI_Ssend_init_c },
	[BUFFERED] = { MPI_Bsend, MPI_Bsend_c, MPI_Ibsend, MPI_Bsend_init, MPI_Ibsend_c,
		       MPI_Bsend_init_c },
	[READY] = { MPI_Rsend, MPI_Rsend_c, MPI_Irsend, MPI_Rsend_init, MPI_Irsend_c,
		    MPI_Rsend_init_c },
};

static int rank, partner;
static int *sbuf, *rbuf;

static void fill(int *buf, int n, int seed)
{
	for (int i = 0; i < n; i++)
		buf[i] = seed * 1000003 + i;
}

/* rbuf holds n ints of `seed` and the status says n ints from `src` with `tag`. */
static void check_received(int n, int seed, const MPI_Status *st, int src, int tag)
{
	MPI_Count count_c;
	int count;

	for (int i = 0; i < n; i++)
		if (rbuf[i] != seed * 1000003 + i)
			CHECK_INT(rbuf[i], seed * 1000003 + i);
	CHECK_INT(st->MPI_SOURCE, src);
	CHECK_INT(st->MPI_TAG, tag);
	CHECK_MPI(MPI_Get_count_c(st, MPI_INT, &count_c));
	CHECK_INT(count_c, n);
	CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
	CHECK_INT(count, n);
}

/* One message of n ints from the even rank of the pair to the odd one, in mode `m` and
 * kind `k`; the sender uses the _c call if `send_c`, the receiver if `recv_c`. A ready
 * send waits until its receive is posted. */
static void transfer(enum kind k, enum mode m, int n, bool send_c, bool recv_c, int seed)
{
	int tag = ((k * MODES + m) * 2 + send_c) * 2 + recv_c, token = 0;
	MPI_Request q;
	MPI_Status st;

	if (rank % 2 == 1) {
		memset(rbuf, 0, (size_t)n * sizeof(int));
		if (k == PERSISTENT) {
			if (recv_c)
				CHECK_MPI(MPI_Recv_init_c(rbuf, n, MPI_INT, partner, tag,
							  MPI_COMM_WORLD, &q));
			else
				CHECK_MPI(MPI_Recv_init(rbuf, n, MPI_INT, partner, tag,
							MPI_COMM_WORLD, &q));
			CHECK_MPI(MPI_Start(&q));
		} else if (k == NONBLOCKING || m == READY) {
			if (recv_c)
				CHECK_MPI(MPI_Irecv_c(rbuf, n, MPI_INT, partner, tag,
						      MPI_COMM_WORLD, &q));
			else
				CHECK_MPI(MPI_Irecv(rbuf, n, MPI_INT, partner, tag,
						    MPI_COMM_WORLD, &q));
		}
		if (m == READY)
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, partner, 999, MPI_COMM_WORLD));
		if (k == BLOCKING && m != READY) {
			if (recv_c)
				CHECK_MPI(MPI_Recv_c(rbuf, n, MPI_INT, partner, tag,
						     MPI_COMM_WORLD, &st));
			else
				CHECK_MPI(MPI_Recv(rbuf, n, MPI_INT, partner, tag,
						   MPI_COMM_WORLD, &st));
		} else {
			CHECK_MPI(MPI_Wait(&q, &st));
			if (k == PERSISTENT)
				CHECK_MPI(MPI_Request_free(&q));
		}
		check_received(n, seed, &st, partner, tag);
		return;
	}
	fill(sbuf, n, seed);
	if (m == READY)
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, partner, 999, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
	switch (k) {
	case BLOCKING:
		if (send_c)
			CHECK_MPI(modes[m].send_c(sbuf, n, MPI_INT, partner, tag, MPI_COMM_WORLD));
		else
			CHECK_MPI(modes[m].send(sbuf, n, MPI_INT, partner, tag, MPI_COMM_WORLD));
		return;
	case NONBLOCKING:
		if (send_c)
			CHECK_MPI(modes[m].isend_c(sbuf, n, MPI_INT, partner, tag, MPI_COMM_WORLD,
						   &q));
		else
			CHECK_MPI(modes[m].isend(sbuf, n, MPI_INT, partner, tag, MPI_COMM_WORLD,
						 &q));
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
		return;
	default:
		if (send_c)
			CHECK_MPI(modes[m].init_c(sbuf, n, MPI_INT, partner, tag, MPI_COMM_WORLD,
						  &q));
		else
			CHECK_MPI(modes[m].init(sbuf, n, MPI_INT, partner, tag, MPI_COMM_WORLD,
						&q));
		CHECK_MPI(MPI_Start(&q));
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Request_free(&q));
		return;
	}
}

/* Both ranks of the pair exchange n ints with Sendrecv or Sendrecv_c (`use_c` per rank). */
static void exchange(int n, bool use_c, int seed)
{
	MPI_Status st;

	fill(sbuf, n, seed + rank);
	memset(rbuf, 0, (size_t)n * sizeof(int));
	if (use_c)
		CHECK_MPI(MPI_Sendrecv_c(sbuf, n, MPI_INT, partner, 500, rbuf, n, MPI_INT, partner,
					 500, MPI_COMM_WORLD, &st));
	else
		CHECK_MPI(MPI_Sendrecv(sbuf, n, MPI_INT, partner, 500, rbuf, n, MPI_INT, partner,
				       500, MPI_COMM_WORLD, &st));
	check_received(n, seed + partner, &st, partner, 500);
}

/* The same with Sendrecv_replace or Sendrecv_replace_c, in place in rbuf. */
static void exchange_in_place(int n, bool use_c, int seed)
{
	MPI_Status st;

	fill(rbuf, n, seed + rank);
	if (use_c)
		CHECK_MPI(MPI_Sendrecv_replace_c(rbuf, n, MPI_INT, partner, 600, partner, 600,
						 MPI_COMM_WORLD, &st));
	else
		CHECK_MPI(MPI_Sendrecv_replace(rbuf, n, MPI_INT, partner, 600, partner, 600,
					       MPI_COMM_WORLD, &st));
	check_received(n, seed + partner, &st, partner, 600);
}

/* A matched probe, then Mrecv(_c) or Imrecv(_c) (`how`: bit 0 _c, bit 1 nonblocking). */
static void matched(int n, int how, int seed)
{
	MPI_Message msg;
	MPI_Request q;
	MPI_Status st;
	MPI_Count count_c;

	if (rank % 2 == 0) {
		fill(sbuf, n, seed);
		CHECK_MPI(MPI_Send_c(sbuf, n, MPI_INT, partner, 700 + how, MPI_COMM_WORLD));
		return;
	}
	memset(rbuf, 0, (size_t)n * sizeof(int));
	CHECK_MPI(MPI_Mprobe(partner, 700 + how, MPI_COMM_WORLD, &msg, &st));
	CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count_c));
	CHECK_INT(count_c, n);
	switch (how) {
	case 0:
		CHECK_MPI(MPI_Mrecv(rbuf, n, MPI_INT, &msg, &st));
		break;
	case 1:
		CHECK_MPI(MPI_Mrecv_c(rbuf, n, MPI_INT, &msg, &st));
		break;
	case 2:
		CHECK_MPI(MPI_Imrecv(rbuf, n, MPI_INT, &msg, &q));
		CHECK_MPI(MPI_Wait(&q, &st));
		break;
	default:
		CHECK_MPI(MPI_Imrecv_c(rbuf, n, MPI_INT, &msg, &q));
		CHECK_MPI(MPI_Wait(&q, &st));
		break;
	}
	CHECK(msg == MPI_MESSAGE_NULL);
	check_received(n, seed, &st, partner, 700 + how);
}

int main(int argc, char **argv)
{
	static const int sizes[] = { SMALL, LARGE };
	/* The sender runs ahead of its receiver by at most the 4 buffered sends of one kind:
	 * the ready sends after them wait for the receiver. */
	MPI_Count attach_size = 4 * (LARGE * (MPI_Count)sizeof(int) + MPI_BSEND_OVERHEAD + 64);
	MPI_Count detached_size;
	void *attached, *detached;
	int size, seed = 1;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	sbuf = malloc(LARGE * sizeof(int));
	rbuf = malloc(LARGE * sizeof(int));
	attached = malloc((size_t)attach_size);
	CHECK(sbuf != NULL && rbuf != NULL && attached != NULL);
	CHECK_MPI(MPI_Buffer_attach_c(attached, attach_size));

	for (int s = 0; s < 2; s++) {
		for (int k = 0; k < KINDS; k++)
			for (int m = 0; m < MODES; m++)
				for (int v = 0; v < 4; v++)
					transfer(k, m, sizes[s], v & 1, v & 2, seed++);
		for (int v = 0; v < 4; v++) {
			/* v: which ranks of the pair use the _c call. */
			exchange(sizes[s], rank % 2 ? v & 1 : v & 2, seed);
			exchange_in_place(sizes[s], rank % 2 ? v & 1 : v & 2, seed);
			seed += 2;
		}
		for (int how = 0; how < 4; how++)
			matched(sizes[s], how, seed++);
	}

	CHECK_MPI(MPI_Buffer_detach_c(&detached, &detached_size));
	CHECK(detached == attached);
	CHECK_INT(detached_size, attach_size);
	free(attached);
	free(sbuf);
	free(rbuf);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
