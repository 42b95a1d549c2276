/* non_overtaking_order: messages from one sender with the same tag arrive in the order sent,
 * also when small, medium and large messages are mixed, and with wildcard receives. */
/* ranks: 2 4 64 */
#include "check.h"

#define COUNT 300

/* Message k's length in ints: cycles through protocol sizes (4 B .. 256 KiB). */
static int len_of(int k)
{
	static const int lens[] = { 1, 16, 1, 4096, 2, 65536, 1, 300, 1 };
	return lens[k % 9];
}

int main(int argc, char **argv)
{
	int rank, size, partner;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}
	int rounds = size > 8 ? 1 : 3;
	int *buf = malloc(65536 * sizeof(int));

	for (int round = 0; round < rounds; round++) {
		if (rank < partner) {
			/* Same tag, sequence numbers 0..COUNT-1: first blocking, then nonblocking. */
			for (int k = 0; k < COUNT; k++) {
				int n = len_of(k);
				for (int j = 0; j < n; j++)
					buf[j] = k;
				CHECK_MPI(MPI_Send(buf, n, MPI_INT, partner, 7, MPI_COMM_WORLD));
			}
			int **bufs = malloc(COUNT * sizeof(int *));
			MPI_Request *reqs = malloc(COUNT * sizeof(MPI_Request));
			for (int k = 0; k < COUNT; k++) {
				int n = len_of(k);
				bufs[k] = malloc(n * sizeof(int));
				for (int j = 0; j < n; j++)
					bufs[k][j] = COUNT + k;
				CHECK_MPI(MPI_Isend(bufs[k], n, MPI_INT, partner, 7, MPI_COMM_WORLD,
						    &reqs[k]));
			}
			CHECK_MPI(MPI_Waitall(COUNT, reqs, MPI_STATUSES_IGNORE));
			for (int k = 0; k < COUNT; k++)
				free(bufs[k]);
			free(bufs);
			free(reqs);
		} else {
			/* Blocking receives with a specific source, then wildcard receives. */
			for (int k = 0; k < 2 * COUNT; k++) {
				MPI_Status st;
				int count = -1;
				int src = k < COUNT ? partner : MPI_ANY_SOURCE;
				int tag = k % 2 ? MPI_ANY_TAG : 7;
				CHECK_MPI(MPI_Recv(buf, 65536, MPI_INT, src, tag, MPI_COMM_WORLD, &st));
				CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
				CHECK_INT(buf[0], k);
				CHECK_INT(count, len_of(k % COUNT));
				CHECK_INT(buf[count - 1], k);
				CHECK_INT(st.MPI_SOURCE, partner);
			}
		}
	}

	/* Receives posted before the sends (Irecv) also complete in order. */
	if (rank < partner) {
		int go;
		CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, partner, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		for (int k = 0; k < 50; k++) {
			int n = len_of(k);
			for (int j = 0; j < n; j++)
				buf[j] = k;
			CHECK_MPI(MPI_Send(buf, n, MPI_INT, partner, 9, MPI_COMM_WORLD));
		}
	} else {
		int **in = malloc(50 * sizeof(int *));
		MPI_Request reqs[50];
		for (int k = 0; k < 50; k++) {
			in[k] = malloc(65536 * sizeof(int));
			CHECK_MPI(MPI_Irecv(in[k], 65536, MPI_INT, partner, 9, MPI_COMM_WORLD, &reqs[k]));
		}
		int go = 1;
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, partner, 8, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Waitall(50, reqs, MPI_STATUSES_IGNORE));
		for (int k = 0; k < 50; k++) {
			CHECK_INT(in[k][0], k);
			CHECK_INT(in[k][len_of(k) - 1], k);
			free(in[k]);
		}
		free(in);
	}
	free(buf);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
