/* Helper program of the tests/mpir_debug_gate_* tests (compiled by them, not a test of its
 * own): the first thing in main leaves a file in the directory argv[1], so a test can count
 * the ranks that entered main; then every rank says it ran. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	char path[4096];
	int rank;

	/* mkstemp replaces the Xs: a file of its own for each rank that starts. */
	snprintf(path, sizeof(path), "%s/started.XXXXXX", argv[1]);
	close(mkstemp(path));
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d ran\n", rank);
	MPI_Finalize();
	return 0;
}
