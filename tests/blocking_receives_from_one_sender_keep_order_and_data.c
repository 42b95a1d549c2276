/* blocking_receives_from_one_sender_keep_order_and_data: MPI_Recv naming one source gets
 * that source's messages in the order sent, with their data, sizes and tags, whatever way
 * they travel (a fastbox cell, an envelope, the sender's buffer, the inbox once the box
 * is full), also when the next message of that source does not match (another tag), when
 * it overflows the receive (MPI_ERR_TRUNCATE under MPI_ERRORS_RETURN), and when it comes
 * long after the receive began. Rank 0 receives; every other rank sends. */
/* ranks: 2 3 8 64 */
#include <time.h>

#include "check.h"

enum { BURST = 150, MAX_BYTES = 4000 };

static const int sizes[] = { 0, 1, 8, 32, 33, 96, 97, 216, 217, 232, 233, 296, 297, MAX_BYTES };
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

static unsigned char pattern(int src, int k, int i)
{
	return (unsigned char)(src * 131 + k * 17 + i);
}

static void fill(unsigned char *buf, int src, int k, int bytes)
{
	for (int i = 0; i < bytes; i++)
		buf[i] = pattern(src, k, i);
}

/* Receive message `k` of `src`'s burst (by its tag, or any tag on odd k) and check it. */
static void receive_burst_message(int src, int k)
{
	static unsigned char buf[MAX_BYTES];
	int bytes = sizes[k % NSIZES], count = -1;
	MPI_Status st;

	CHECK_MPI(MPI_Recv(buf, MAX_BYTES, MPI_BYTE, src, k % 2 ? MPI_ANY_TAG : k % 3,
			   MPI_COMM_WORLD, &st));
	CHECK_INT(st.MPI_SOURCE, src);
	CHECK_INT(st.MPI_TAG, k % 3);
	MPI_Get_count(&st, MPI_BYTE, &count);
	CHECK_INT(count, bytes);
	for (int i = 0; i < bytes; i++)
		if (buf[i] != pattern(src, k, i)) {
			fprintf(stderr, "from %d message %d byte %d: %d, expected %d\n", src, k, i,
				buf[i], pattern(src, k, i));
			CHECK(0);
		}
}

static void send_burst(int rank)
{
	static unsigned char buf[MAX_BYTES];

	for (int k = 0; k < BURST; k++) {
		fill(buf, rank, k, sizes[k % NSIZES]);
		CHECK_MPI(MPI_Send(buf, sizes[k % NSIZES], MPI_BYTE, 0, k % 3, MPI_COMM_WORLD));
	}
}

int main(int argc, char **argv)
{
	int rank, size, a = 0, b = 0, ok = 0;
	long big[2] = { 0, 0 };

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

	/* Bursts longer than a fastbox; rank 0 drains one sender at a time, so the others'
	 * messages pile up meanwhile. */
	if (rank == 0) {
		for (int src = 1; src < size; src++)
			for (int k = 0; k < BURST; k++)
				receive_burst_message(src, k);
	} else {
		send_burst(rank);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* The next message does not match: tag 8 is received before the tag 7 sent first. */
	if (rank == 1) {
		a = 7;
		b = 8;
		CHECK_MPI(MPI_Send(&a, 1, MPI_INT, 0, 7, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(&b, 1, MPI_INT, 0, 8, MPI_COMM_WORLD));
	} else if (rank == 0) {
		CHECK_MPI(MPI_Recv(&b, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Recv(&a, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(a, 7);
		CHECK_INT(b, 8);
	}

	/* A message larger than the receive: MPI_ERR_TRUNCATE, the part that fits, and the
	 * next message still arrives. */
	if (rank == 1) {
		long two[2] = { 41, 42 };
		CHECK_MPI(MPI_Send(two, 2, MPI_LONG, 0, 9, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(two + 1, 1, MPI_LONG, 0, 10, MPI_COMM_WORLD));
	} else if (rank == 0) {
		MPI_Status st;
		int rc = MPI_Recv(big, 1, MPI_LONG, 1, 9, MPI_COMM_WORLD, &st), class = -1;
		MPI_Error_class(rc, &class);
		CHECK_INT(class, MPI_ERR_TRUNCATE);
		CHECK_INT(st.MPI_SOURCE, 1);
		CHECK_INT(st.MPI_TAG, 9);
		CHECK_INT((int)big[0], 41);
		CHECK_INT((int)big[1], 0);
		CHECK_MPI(MPI_Recv(big, 1, MPI_LONG, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT((int)big[0], 42);
	}

	/* A sender that takes its time (well beyond the spin of a waiting receiver). */
	if (rank == size - 1) {
		struct timespec pause = { 0, 50 * 1000 * 1000 };
		nanosleep(&pause, NULL);
		ok = 1234;
		CHECK_MPI(MPI_Send(&ok, 1, MPI_INT, 0, 11, MPI_COMM_WORLD));
	} else if (rank == 0) {
		CHECK_MPI(MPI_Recv(&ok, 1, MPI_INT, size - 1, 11, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_INT(ok, 1234);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
