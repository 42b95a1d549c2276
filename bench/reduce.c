/* reduce: OSU-style MPI_Reduce latency to rank 0 (MPI_FLOAT, MPI_SUM as osu_reduce) for each
 * size, averaged over ranks. Runs on rank threads of any MPI.
 * Prints: RESULT reduce <bytes> <us> us */
#include "coll.h"

static void run(long size, char *s, char *r)
{
	MPI_Reduce(s, r, (int)(size / (long)sizeof(float)), MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rc = coll_sweep(argc, argv, "reduce", run, 1);
	MPI_Finalize();
	return rc;
}
