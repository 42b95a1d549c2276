/* unexpected_messages_keep_order_while_taken_out_of_order: rank 0 holds thousands of
 * unexpected messages while it takes some out of the middle (one tag of each phase) and
 * more keep arriving, so its store of unexpected messages grows, leaves gaps and closes
 * them. Each specific (source, tag) receive gets that sender's oldest message with the tag,
 * and wildcard receives at the end get every sender's remaining messages in the order
 * sent. Small (fastbox cell) and 200-byte (envelope) messages interleave. */
/* ranks: 2 4 16 */
#include "check.h"

#define PHASES 20
#define PER_PHASE 37 /* messages a sender sends to rank 0 in each phase */
#define TAGS 5
#define TAKEN_TAG 2 /* taken phase by phase; the rest wait until the end */
#define MAXLEN 50

/* Message k's length in ints: 200 B every third message, 8 B otherwise. */
static int len_of(int k)
{
	return k % 3 == 0 ? MAXLEN : 2;
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int p = 0; p < PHASES; p++) {
		if (rank != 0) {
			static int bufs[PER_PHASE][MAXLEN];
			MPI_Request reqs[PER_PHASE];
			for (int k = 0; k < PER_PHASE; k++) {
				bufs[k][0] = p * PER_PHASE + k;
				bufs[k][len_of(k) - 1] = rank;
				CHECK_MPI(MPI_Isend(bufs[k], len_of(k), MPI_INT, 0, k % TAGS,
						    MPI_COMM_WORLD, &reqs[k]));
			}
			CHECK_MPI(MPI_Waitall(PER_PHASE, reqs, MPI_STATUSES_IGNORE));
		}
		/* Rank 0 drains what has arrived into its unexpected messages meanwhile. */
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		if (rank != 0)
			continue;
		for (int s = 1; s < size; s++)
			for (int k = TAKEN_TAG; k < PER_PHASE; k += TAGS) {
				int buf[MAXLEN], count;
				MPI_Status st;
				CHECK_MPI(MPI_Recv(buf, MAXLEN, MPI_INT, s, TAKEN_TAG, MPI_COMM_WORLD,
						   &st));
				CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
				CHECK_INT(buf[0], p * PER_PHASE + k);
				CHECK_INT(count, len_of(k));
				CHECK_INT(buf[count - 1], s);
			}
	}
	if (rank == 0) {
		int next[16] = { 0 }, left = 0;
		for (int k = 0; k < PER_PHASE; k++)
			left += k % TAGS != TAKEN_TAG;
		left *= PHASES * (size - 1);
		CHECK_CMP(size, <=, 16);
		while (left-- > 0) {
			int buf[MAXLEN], count;
			MPI_Status st;
			CHECK_MPI(MPI_Recv(buf, MAXLEN, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
					   MPI_COMM_WORLD, &st));
			CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
			int s = st.MPI_SOURCE, m = buf[0], k = m % PER_PHASE;
			/* The sender's next message in order, past those taken by tag. */
			while (next[s] % PER_PHASE % TAGS == TAKEN_TAG)
				next[s]++;
			CHECK_INT(m, next[s]);
			CHECK_INT(st.MPI_TAG, k % TAGS);
			CHECK_INT(count, len_of(k));
			CHECK_INT(buf[count - 1], s);
			next[s]++;
		}
	}
	MPI_Finalize();
	return 0;
}
