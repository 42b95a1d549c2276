/* many_senders_keep_per_sender_order: every rank floods rank 0 with small and medium
 * messages faster than it receives them (so a sender's fastbox fills and it falls back to
 * the inbox, and past 8 senders some have no fastbox at all); rank 0 receives them with
 * MPI_ANY_SOURCE and sees each sender's messages in the order sent. */
/* ranks: 2 4 16 64 */
#include "check.h"

#define BURSTS 20
#define PER_BURST 100

/* Message k of a sender is mostly 8 bytes, sometimes 600 or 20000 (an envelope, not a
 * fastbox cell), so both kinds interleave within one sender's stream. */
static int ints_of(int k)
{
	return k % 17 == 5 ? 5000 : k % 7 == 3 ? 150 : 2;
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int bursts = size > 16 ? 2 : BURSTS;

	if (rank != 0) {
		int **bufs = malloc(PER_BURST * sizeof(int *));
		MPI_Request reqs[PER_BURST];
		for (int b = 0; b < bursts; b++) {
			for (int i = 0; i < PER_BURST; i++) {
				int k = b * PER_BURST + i, n = ints_of(k);
				bufs[i] = malloc(n * sizeof(int));
				bufs[i][0] = k;
				bufs[i][n - 1] = rank;
				CHECK_MPI(MPI_Isend(bufs[i], n, MPI_INT, 0, k % 3, MPI_COMM_WORLD,
						    &reqs[i]));
			}
			CHECK_MPI(MPI_Waitall(PER_BURST, reqs, MPI_STATUSES_IGNORE));
			for (int i = 0; i < PER_BURST; i++)
				free(bufs[i]);
		}
		free(bufs);
	} else {
		int *next = calloc(size, sizeof(int));
		int *buf = malloc(5000 * sizeof(int));
		volatile double work = 0;
		for (int m = 0; m < (size - 1) * bursts * PER_BURST; m++) {
			MPI_Status st;
			int count;
			CHECK_MPI(MPI_Recv(buf, 5000, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
					   MPI_COMM_WORLD, &st));
			CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
			int src = st.MPI_SOURCE, k = next[src]++;
			CHECK_INT(buf[0], k);
			CHECK_INT(count, ints_of(k));
			CHECK_INT(buf[count - 1], src);
			CHECK_INT(st.MPI_TAG, k % 3);
			/* Slower than the senders, so their fastboxes fill up. */
			for (int i = 0; i < 3000; i++)
				work = work + i;
		}
		for (int s = 1; s < size; s++)
			CHECK_INT(next[s], bursts * PER_BURST);
		free(next);
		free(buf);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
