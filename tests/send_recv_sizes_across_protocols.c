/* send_recv_sizes_across_protocols: messages of 0 B, 1 B, 64 B, 1 KiB, 64 KiB, 1 MiB and
 * 16 MiB arrive intact (every byte checked) in both directions, with the right count. */
/* ranks: 2 4 64 */
#include "check.h"

static unsigned char pattern(int src, size_t len, size_t i)
{
	return (unsigned char)(i * 131 + len * 7 + src * 29 + (i >> 8));
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 0, 1, 64, 1024, 64 * 1024, 1024 * 1024, 16 * 1024 * 1024 };
	int rank, size, partner;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		size_t len = sizes[s];
		/* Keep memory bounded at 64 ranks: only the first pairs move 16 MiB. */
		if (len > 1024 * 1024 && rank >= 4)
			break;
		unsigned char *out = malloc(len + 1), *in = malloc(len + 16);
		CHECK(out && in);
		for (size_t i = 0; i < len; i++)
			out[i] = pattern(rank, len, i);
		memset(in, 0xEE, len + 16);

		MPI_Status st;
		for (int dir = 0; dir < 2; dir++) {
			if ((rank < partner) == (dir == 0)) {
				CHECK_MPI(MPI_Send(out, (int)len, MPI_BYTE, partner, (int)s,
						   MPI_COMM_WORLD));
			} else {
				/* Receive into a larger buffer: only len bytes may be written. */
				CHECK_MPI(MPI_Recv(in, (int)len + 16, MPI_BYTE, partner, (int)s,
						   MPI_COMM_WORLD, &st));
				int count = -1;
				CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
				CHECK_INT(count, len);
				CHECK_INT(st.MPI_SOURCE, partner);
				CHECK_INT(st.MPI_TAG, s);
				for (size_t i = 0; i < len; i++)
					if (in[i] != pattern(partner, len, i)) {
						fprintf(stderr, "size %zu: byte %zu is %d, want %d\n",
							len, i, in[i], pattern(partner, len, i));
						CHECK(!"payload corrupted");
					}
				for (size_t i = len; i < len + 16; i++)
					CHECK_INT(in[i], 0xEE);
			}
		}
		free(out);
		free(in);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
