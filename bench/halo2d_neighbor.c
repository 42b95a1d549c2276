/* halo2d_neighbor: the 2-D halo exchange of halo2d.h by one MPI_Neighbor_alltoall per
 * iteration. Prints: RESULT halo2d_neighbor <bytes> <us> us */
#include "halo2d.h"

static void exchange(long size, char *sbuf, char *rbuf)
{
	MPI_Neighbor_alltoall(sbuf, (int)size, MPI_BYTE, rbuf, (int)size, MPI_BYTE, halo2d_comm);
}

int main(int argc, char **argv)
{
	return halo2d_main(argc, argv, "halo2d_neighbor", exchange);
}
