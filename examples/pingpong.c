/* pingpong: measure the time for a message to go from rank 0 to rank 1 and back, for a few
 * message sizes, and print the one-way latency in microseconds.
 * Run: mpiexec -n 2 build/examples/pingpong */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	static const int sizes[] = { 0, 8, 1024, 64 * 1024, 1024 * 1024 };
	const int nsizes = sizeof sizes / sizeof sizes[0];
	int rank, size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		if (rank == 0)
			fprintf(stderr, "pingpong needs 2 ranks: mpiexec -n 2 %s\n", argv[0]);
		MPI_Finalize();
		return 1;
	}

	char *buf = malloc(sizes[nsizes - 1]);
	memset(buf, 'x', sizes[nsizes - 1]);
	if (rank == 0)
		printf("%10s %12s\n", "bytes", "latency(us)");

	for (int s = 0; s < nsizes; s++) {
		int n = sizes[s];
		int iters = n >= 64 * 1024 ? 100 : 1000;

		/* Only ranks 0 and 1 play; any other ranks just wait at the end. */
		if (rank > 1)
			break;
		/* A few warm-up rounds, then the timed ones. */
		double start = 0;
		for (int i = -10; i < iters; i++) {
			if (i == 0)
				start = MPI_Wtime();
			if (rank == 0) {
				MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
				MPI_Recv(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
			}
		}
		/* A round trip is two messages: half of it is the one-way latency. */
		double us = (MPI_Wtime() - start) / iters / 2 * 1e6;
		if (rank == 0)
			printf("%10d %12.2f\n", n, us);
	}

	free(buf);
	MPI_Finalize();
	return 0;
}
