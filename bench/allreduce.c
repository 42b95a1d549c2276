/* allreduce: OSU-style MPI_Allreduce latency (MPI_FLOAT, MPI_SUM as osu_allreduce) for each
 * size, averaged over ranks. Runs on rank threads of any MPI.
 * Prints: RESULT allreduce <bytes> <us> us */
#include "coll.h"

static void run(long size, char *s, char *r)
{
	MPI_Allreduce(s, r, (int)(size / (long)sizeof(float)), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rc = coll_sweep(argc, argv, "allreduce", run, 1);
	MPI_Finalize();
	return rc;
}
