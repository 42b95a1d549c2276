/* blocking_sends_head_to_head_keep_memory_bounded: thousands of blocking sends of a few KiB
 * that both sides of a pair start before their receives (each send stops waiting and
 * buffers its message) keep the node's memory bounded: the buffers are reused, not one
 * more per message, and every message arrives intact. */
/* ranks: 2 4 */
/* tsan: reads the node's resident memory, which TSan's shadow memory inflates */
#include "check.h"

enum { ROUNDS = 5000, BYTES = 4000 };

int main(int argc, char **argv)
{
	int rank;
	static unsigned char out[BYTES], in[BYTES];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	int peer = rank ^ 1;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	long before = check_rss_kib();
	for (int round = 0; round < ROUNDS; round++) {
		for (int i = 0; i < BYTES; i++)
			out[i] = (unsigned char)(rank + round + i);
		CHECK_MPI(MPI_Send(out, BYTES, MPI_BYTE, peer, round, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Recv(in, BYTES, MPI_BYTE, peer, round, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_INT(in[0], (unsigned char)(peer + round));
		CHECK_INT(in[BYTES - 1], (unsigned char)(peer + round + BYTES - 1));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* One 16 KiB buffer per message would be 5000 x 16 KiB = 78 MiB per rank. */
	if (rank == 0)
		CHECK_CMP(check_rss_kib() - before, <, 32 * 1024);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
