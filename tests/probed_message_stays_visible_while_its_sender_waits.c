/* probed_message_stays_visible_while_its_sender_waits: once MPI_Probe has reported a
 * message, every later MPI_Iprobe for its source and tag finds it until it is received,
 * also while its blocking sender stops waiting for a match and buffers it (4000 bytes:
 * too large to ride in an envelope, small enough to be buffered); its data is intact. */
/* ranks: 2 4 64 */
#include "check.h"

enum { ROUNDS = 6, BYTES = 4000, WATCH_US = 300 };

/* Byte i of the message rank `src` sends in round `round`. */
static unsigned char pattern(int src, int round, int i)
{
	return (unsigned char)(src * 31 + round * 7 + i);
}

int main(int argc, char **argv)
{
	int rank, size;
	static unsigned char buf[BYTES];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	if (rank != 0) {
		for (int round = 0; round < ROUNDS; round++) {
			for (int i = 0; i < BYTES; i++)
				buf[i] = pattern(rank, round, i);
			CHECK_MPI(MPI_Send(buf, BYTES, MPI_BYTE, 0, 1000 * round + rank,
					   MPI_COMM_WORLD));
		}
	} else {
		/* Each sender's rounds arrive in order; senders may run rounds ahead. */
		int *next_round = calloc((size_t)size, sizeof(int));
		for (int n = 0; n < ROUNDS * (size - 1); n++) {
			MPI_Status st;
			int count = -1;
			CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
			int src = st.MPI_SOURCE, tag = st.MPI_TAG, round = tag / 1000;
			CHECK_INT(tag % 1000, src);
			CHECK_INT(round, next_round[src]);
			next_round[src]++;
			/* Watch it long enough for its sender to stop waiting for a match. */
			double end = MPI_Wtime() + WATCH_US * 1e-6;
			do {
				int flag = 0;
				CHECK_MPI(MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st));
				CHECK_INT(flag, 1);
				CHECK_INT(st.MPI_SOURCE, src);
				CHECK_INT(st.MPI_TAG, tag);
				CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
				CHECK_INT(count, BYTES);
			} while (MPI_Wtime() < end);
			memset(buf, 0, BYTES);
			CHECK_MPI(MPI_Recv(buf, BYTES, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
			CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
			CHECK_INT(count, BYTES);
			for (int i = 0; i < BYTES; i++)
				CHECK_INT(buf[i], pattern(src, round, i));
		}
		free(next_round);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
