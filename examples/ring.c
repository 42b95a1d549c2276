/* ring: pass a token around all ranks several times.  Each rank adds 1 before passing it
 * on, so after LAPS laps the token is LAPS * size.
 * Run: mpiexec -n 4 build/examples/ring [laps] */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, laps = 3, token = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1)
		laps = atoi(argv[1]);

	/* Neighbours in the ring: we receive from the left and send to the right.
	 * With one rank, both neighbours are ourselves. */
	int right = (rank + 1) % size;
	int left = (rank + size - 1) % size;

	for (int lap = 0; lap < laps; lap++) {
		if (rank == 0) {
			/* Rank 0 starts each lap, then waits for the token to come back. */
			token++;
			MPI_Send(&token, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
			MPI_Recv(&token, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			/* Everyone else waits for the token, adds 1 and passes it on. */
			MPI_Recv(&token, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			token++;
			MPI_Send(&token, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
		}
	}

	if (rank == 0)
		printf("ring: %d laps around %d ranks, token = %d (expected %d)\n", laps, size,
		       token, laps * size);

	MPI_Finalize();
	return token == laps * size || rank != 0 ? 0 : 1;
}
