/* blocking_sends_head_to_head_are_buffered: two ranks that both MPI_Send first (up to the
 * 16 KiB eager limit) and receive second do not deadlock, and the data arrives intact. */
/* ranks: 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	static const int sizes[] = { 1, 232, 233, 1024, 8192, 16384 };
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int partner = rank ^ 1;
	if (partner < size) {
		char *out = malloc(16384), *in = malloc(16384);
		for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
			int n = sizes[s];
			for (int round = 0; round < 20; round++) {
				memset(out, 'a' + (rank + round) % 26, n);
				memset(in, 0, n);
				CHECK_MPI(MPI_Send(out, n, MPI_CHAR, partner, s, MPI_COMM_WORLD));
				CHECK_MPI(MPI_Recv(in, n, MPI_CHAR, partner, s, MPI_COMM_WORLD,
						   MPI_STATUS_IGNORE));
				CHECK_INT(in[0], 'a' + (partner + round) % 26);
				CHECK_INT(in[n - 1], 'a' + (partner + round) % 26);
			}
		}
		free(out);
		free(in);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
