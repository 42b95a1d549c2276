/* messages_of_several_cells_keep_data_and_order: messages of 97-296 bytes (longer than
 * one fastbox cell holds, short enough to go eagerly) arrive whole and in the order sent:
 * received as they come and after a burst has waited unexpected (more than one box of
 * cells, so some go through the inbox), into a contiguous buffer and into a strided
 * type (an int every other int), and sent from that type; and in a ping-pong of every
 * size up to 296 bytes broken by bursts, where boxes begin new laps in their first slot
 * and bursts walk the ring past old cells. Even ranks send to the next odd one. */
/* ranks: 2 3 8 */
#include "check.h"

enum { STREAM = 400, BURST = 60, PINGPONG = 600, MAX_INTS = 74 };  /* 74 ints: 296 B */

static int value(int src, int k, int i)
{
	return src * 1000003 + k * 131 + i;
}

/* Ints of message `k`: 25 to 74 (100 to 296 bytes), so that messages of two and three
 * cells mix and start anywhere in the ring. */
static int ints_of(int k)
{
	return 25 + (k * 7) % (MAX_INTS - 25 + 1);
}

static void send_message(int to, int me, int k, MPI_Datatype strided)
{
	int out[2 * MAX_INTS], n = ints_of(k);

	if (strided != MPI_DATATYPE_NULL && k % 3 == 0) {
		for (int i = 0; i < n; i++)
			out[2 * i] = value(me, k, i);
		CHECK_MPI(MPI_Send(out, n, strided, to, k % 5, MPI_COMM_WORLD));
		return;
	}
	for (int i = 0; i < n; i++)
		out[i] = value(me, k, i);
	CHECK_MPI(MPI_Send(out, n, MPI_INT, to, k % 5, MPI_COMM_WORLD));
}

static void receive_message(int from, int k, MPI_Datatype strided)
{
	int in[2 * MAX_INTS], n = ints_of(k), count = -1;
	MPI_Status st;

	memset(in, 0xff, sizeof in);
	if (k % 4 == 1) {
		CHECK_MPI(MPI_Recv(in, MAX_INTS, strided, from, k % 5, MPI_COMM_WORLD, &st));
		MPI_Get_count(&st, MPI_INT, &count);
		CHECK_INT(count, n);
		for (int i = 0; i < n; i++) {
			CHECK_INT(in[2 * i], value(from, k, i));
			CHECK_INT(in[2 * i + 1], -1);  /* the gaps stay untouched */
		}
		return;
	}
	CHECK_MPI(MPI_Recv(in, MAX_INTS, MPI_INT, from, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
	CHECK_INT(st.MPI_TAG, k % 5);
	MPI_Get_count(&st, MPI_INT, &count);
	CHECK_INT(count, n);
	for (int i = 0; i < n; i++)
		CHECK_INT(in[i], value(from, k, i));
	CHECK_INT(in[n], -1);
}

static void send_bytes(int to, int me, int k, int bytes)
{
	unsigned char out[4 * MAX_INTS + 2];

	for (int i = 0; i < bytes; i++)
		out[i] = (unsigned char)value(me, k, i);
	CHECK_MPI(MPI_Send(out, bytes, MPI_BYTE, to, k % 7, MPI_COMM_WORLD));
}

static void receive_bytes(int from, int k, int bytes)
{
	unsigned char in[4 * MAX_INTS + 2];
	int count = -1;
	MPI_Status st;

	CHECK_MPI(MPI_Recv(in, (int)sizeof in, MPI_BYTE, from, k % 7, MPI_COMM_WORLD, &st));
	MPI_Get_count(&st, MPI_BYTE, &count);
	CHECK_INT(count, bytes);
	for (int i = 0; i < bytes; i++)
		CHECK_INT(in[i], (unsigned char)value(from, k, i));
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Datatype strided;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* An int every other int: count n of it is n ints at a stride of two. */
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &strided));
	CHECK_MPI(MPI_Type_commit(&strided));
	int partner = rank ^ 1;
	int active = partner < size;

	/* Received as they come (the receiver is usually waiting already). */
	for (int k = 0; active && k < STREAM; k++) {
		if (rank % 2 == 0)
			send_message(partner, rank, k, strided);
		else
			receive_message(partner, k, strided);
	}
	/* A burst sent before any receive is posted waits unexpected. */
	if (active && rank % 2 == 0)
		for (int k = 0; k < BURST; k++)
			send_message(partner, rank, k, MPI_DATATYPE_NULL);
	MPI_Barrier(MPI_COMM_WORLD);
	if (active && rank % 2 == 1)
		for (int k = 0; k < BURST; k++)
			receive_message(partner, k, strided);

	/* Ping-pong of every size up to 296 bytes (a box whose messages are all taken
	 * begins a new lap in its first slot), broken by bursts that walk the whole ring. */
	for (int k = 0; active && k < PINGPONG; k++) {
		int bytes = (k * 37) % (4 * MAX_INTS + 1), burst = k % 50 == 49 ? BURST : 1;
		for (int j = 0; j < burst; j++) {
			if (rank % 2 == 0)
				send_bytes(partner, rank, k + j, bytes + j % 3);
			else
				receive_bytes(partner, k + j, bytes + j % 3);
		}
		if (rank % 2 == 0)
			receive_bytes(partner, k, bytes);
		else
			send_bytes(partner, rank, k, bytes);
	}

	CHECK_MPI(MPI_Type_free(&strided));
	MPI_Finalize();
	return 0;
}
