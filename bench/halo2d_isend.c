/* halo2d_isend: the 2-D halo exchange of halo2d.h by 4 MPI_Irecv, 4 MPI_Isend and one
 * MPI_Waitall per iteration, the same blocks as halo2d_neighbor moves (tag: the send
 * block's direction, so a neighbour met twice in a dimension of size 2 pairs the blocks
 * as MPI_Neighbor_alltoall does). Prints: RESULT halo2d_isend <bytes> <us> us */
#include "halo2d.h"

static void exchange(long size, char *sbuf, char *rbuf)
{
	MPI_Request rq[8];

	for (int j = 0; j < 4; j++)
		MPI_Irecv(rbuf + j * size, (int)size, MPI_BYTE, halo2d_peer[j], j ^ 1, halo2d_comm,
			  &rq[j]);
	for (int i = 0; i < 4; i++)
		MPI_Isend(sbuf + i * size, (int)size, MPI_BYTE, halo2d_peer[i], i, halo2d_comm,
			  &rq[4 + i]);
	MPI_Waitall(8, rq, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
	return halo2d_main(argc, argv, "halo2d_isend", exchange);
}
