/* large_copies_shared_with_waiting_sender: messages from 128 KiB up, whose copy a waiting
 * sender shares with the receiver in chunks, arrive intact whether the sender waits in
 * MPI_Send, MPI_Wait, MPI_Waitall or an MPI_Test loop, at odd sizes, and when truncated. */
/* ranks: 2 4 64 */
#include "check.h"

/* Sizes around the split threshold and chunk size (128 KiB, 64 KiB chunks), odd ones too. */
static const size_t sizes[] = { 131072, 131073, 196607, 1048576 + 17, 3 * 1048576 + 5 };
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define MAXBYTES (3 * 1048576 + 5)

static unsigned char pattern(size_t i, int seed)
{
	return (unsigned char)(i * 131 + (size_t)seed * 7 + (i >> 16));
}

static void fill(unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = pattern(i, seed);
}

static int verify(const unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != pattern(i, seed)) {
			printf("byte %zu: got %d, expected %d\n", i, b[i], pattern(i, seed));
			return 0;
		}
	return 1;
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int partner = rank ^ 1;
	unsigned char *a = malloc(MAXBYTES), *b = malloc(MAXBYTES);
	if (partner < size) {
		int sender = rank < partner;
		for (size_t s = 0; s < NSIZES; s++) {
			int n = (int)sizes[s];
			for (int how = 0; how < 4; how++) {
				int seed = (int)s * 4 + how;
				if (sender) {
					MPI_Request req[2];
					int flag = 0;
					fill(a, n, seed);
					fill(b, n, seed + 100);
					switch (how) {
					case 0:
						CHECK_MPI(MPI_Send(a, n, MPI_BYTE, partner, how, MPI_COMM_WORLD));
						break;
					case 1:
						CHECK_MPI(MPI_Isend(a, n, MPI_BYTE, partner, how, MPI_COMM_WORLD, &req[0]));
						CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
						break;
					case 2:
						CHECK_MPI(MPI_Isend(a, n, MPI_BYTE, partner, how, MPI_COMM_WORLD, &req[0]));
						CHECK_MPI(MPI_Isend(b, n, MPI_BYTE, partner, how, MPI_COMM_WORLD, &req[1]));
						CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
						break;
					case 3:
						CHECK_MPI(MPI_Isend(a, n, MPI_BYTE, partner, how, MPI_COMM_WORLD, &req[0]));
						while (!flag)
							CHECK_MPI(MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE));
						break;
					}
				} else {
					MPI_Status st;
					int count;
					memset(a, 0, n);
					CHECK_MPI(MPI_Recv(a, n, MPI_BYTE, partner, how, MPI_COMM_WORLD, &st));
					CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
					CHECK_INT(count, n);
					CHECK(verify(a, n, seed));
					if (how == 2) {
						CHECK_MPI(MPI_Recv(b, n, MPI_BYTE, partner, how, MPI_COMM_WORLD, &st));
						CHECK(verify(b, n, seed + 100));
					}
				}
			}
		}
		/* Truncation: a 1 MiB message into a 300000-byte buffer fills it, nothing more. */
		if (sender) {
			fill(a, 1048576, 9);
			CHECK_MPI(MPI_Send(a, 1048576, MPI_BYTE, partner, 99, MPI_COMM_WORLD));
		} else {
			MPI_Status st;
			memset(b, 0xEE, 300001);
			MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
			CHECK_CLASS(MPI_Recv(b, 300000, MPI_BYTE, partner, 99, MPI_COMM_WORLD, &st),
				    MPI_ERR_TRUNCATE);
			CHECK(verify(b, 300000, 9));
			CHECK_INT(b[300000], 0xEE);
		}
	}
	free(a);
	free(b);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
