/* alltoall: OSU-style MPI_Alltoall latency, `bytes` to each rank, averaged over ranks.
 * Runs on rank threads of any MPI. Prints: RESULT alltoall <bytes> <us> us */
#include "coll.h"

static void run(long size, char *s, char *r)
{
	MPI_Alltoall(s, (int)size, MPI_BYTE, r, (int)size, MPI_BYTE, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rc = coll_sweep(argc, argv, "alltoall", run, bench_size());
	MPI_Finalize();
	return rc;
}
