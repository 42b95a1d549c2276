/* halo2d.h: the halo exchange of a 2-D 5-point stencil, shared by halo2d_neighbor.c
 * (MPI_Neighbor_alltoall) and halo2d_isend.c (MPI_Irecv, MPI_Isend, MPI_Waitall): the ranks
 * form a periodic 2-D Cartesian grid (MPI_Dims_create, MPI_Cart_create) and every
 * iteration each rank exchanges a halo of -m..-M bytes with each of its 4 neighbours.
 * Timed as coll.h's loop: the mean over ranks of each rank's mean time per exchange, in µs.
 * Entered by each rank's main thread; standard MPI only. Runs at any rank count (a
 * dimension of size 1 or 2 makes a rank its own neighbour or the same neighbour twice).
 *
 * Block layout (MPI 4.1, 8.6: the order of a Cartesian neighbourhood): send and receive
 * buffers hold 4 blocks of the halo size, for dimension 0 at -1 and +1, then dimension 1
 * at -1 and +1. Send block i goes to the neighbour in its direction; the data arrives in
 * the receiver's block for the opposite direction (i ^ 1). */
#ifndef SHOAL_BENCH_HALO2D_H
#define SHOAL_BENCH_HALO2D_H

#include "coll.h"

static MPI_Comm halo2d_comm;
/* The 4 neighbours, in block order. */
static int halo2d_peer[4];

/* Set up the grid, then run coll.h's sweep of `fn` printing RESULT <name> ... */
static inline int halo2d_main(int argc, char **argv, const char *name, coll_fn *fn)
{
	int dims[2] = { 0, 0 }, periods[2] = { 1, 1 }, rc;

	MPI_Init(&argc, &argv);
	MPI_Dims_create(bench_size(), 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &halo2d_comm);
	MPI_Cart_shift(halo2d_comm, 0, 1, &halo2d_peer[0], &halo2d_peer[1]);
	MPI_Cart_shift(halo2d_comm, 1, 1, &halo2d_peer[2], &halo2d_peer[3]);
	rc = coll_sweep(argc, argv, name, fn, 4);
	MPI_Comm_free(&halo2d_comm);
	MPI_Finalize();
	return rc;
}

#endif /* SHOAL_BENCH_HALO2D_H */
