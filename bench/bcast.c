/* bcast: OSU-style MPI_Bcast latency from rank 0 for each size, averaged over ranks.
 * Runs on rank threads of any MPI. Prints: RESULT bcast <bytes> <us> us */
#include "coll.h"

static void run(long size, char *s, char *r)
{
	MPI_Bcast(s, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rc = coll_sweep(argc, argv, "bcast", run, 1);
	MPI_Finalize();
	return rc;
}
