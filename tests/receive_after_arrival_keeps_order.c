/* receive_after_arrival_keeps_order: receives posted after their messages arrived (so a
 * receive may take its message straight from the sender's fastbox) see each sender's
 * messages in the order sent: a specific-tag receive gets the oldest message with that tag,
 * never a younger one, and wildcard receives then get the rest in order. Small (fastbox
 * cell), 200-byte (envelope) and 2000-byte (sender's buffer) messages interleave, and the
 * 100 messages overflow a 64-cell box into the inbox. */
/* ranks: 2 3 5 */
#include <unistd.h>

#include "check.h"

#define K 100
#define TAGS 4

/* Message k's length in ints: 8 B, 200 B, 2000 B. */
static int len_of(int k)
{
	static const int lens[] = { 2, 50, 500 };
	return lens[k % 3];
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank != 1) {
		static int bufs[K][500];
		MPI_Request reqs[K];
		for (int k = 0; k < K; k++) {
			int n = len_of(k);
			bufs[k][0] = k;
			bufs[k][n - 1] = rank;
			CHECK_MPI(MPI_Isend(bufs[k], n, MPI_INT, 1, k % TAGS, MPI_COMM_WORLD,
					    &reqs[k]));
		}
		CHECK_MPI(MPI_Waitall(K, reqs, MPI_STATUSES_IGNORE));
	} else {
		int senders = size - 1, last[64], got = 0, buf[500];
		MPI_Request req;
		MPI_Status st;
		/* No MPI call while the senders fill their boxes: nothing is drained early. */
		usleep(300000);
		for (int s = 0; s < size; s++) {
			if (s == 1)
				continue;
			/* The box's first cell matches: the oldest message, k = 0. */
			CHECK_MPI(MPI_Irecv(buf, 500, MPI_INT, s, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
			CHECK_MPI(MPI_Wait(&req, &st));
			CHECK_INT(buf[0], 0);
			CHECK_INT(st.MPI_TAG, 0);
			/* Tag 3: k = 3, not the head (k = 1) and not a later tag-3 message. */
			CHECK_MPI(MPI_Irecv(buf, 500, MPI_INT, s, 3, MPI_COMM_WORLD, &req));
			CHECK_MPI(MPI_Wait(&req, &st));
			CHECK_INT(buf[0], 3);
			CHECK_INT(buf[len_of(3) - 1], s);
			last[s] = 0;
			got += 2;
		}
		while (got < senders * K) {
			int count;
			CHECK_MPI(MPI_Recv(buf, 500, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
					   MPI_COMM_WORLD, &st));
			CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
			int s = st.MPI_SOURCE, k = buf[0];
			/* The next message of s in order, skipping the k = 3 taken above. */
			CHECK_INT(k, last[s] + 1 == 3 ? 4 : last[s] + 1);
			CHECK_INT(count, len_of(k));
			CHECK_INT(st.MPI_TAG, k % TAGS);
			CHECK_INT(buf[count - 1], s);
			last[s] = k;
			got++;
		}
	}
	MPI_Finalize();
	return 0;
}
