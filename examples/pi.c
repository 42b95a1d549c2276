/* pi: compute pi as the integral of 4/(1+x^2) from 0 to 1 with the midpoint rule.  Each rank
 * sums every size-th strip; rank 0 collects the partial sums with point-to-point messages.
 * Run: mpiexec -n 8 build/examples/pi [strips] */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	const double PI25 = 3.141592653589793238462643;
	long strips = 10000000;
	int rank, size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1)
		strips = atol(argv[1]);

	/* Each rank takes strips rank, rank + size, rank + 2*size, ... */
	double h = 1.0 / strips, sum = 0.0;
	for (long i = rank; i < strips; i += size) {
		double x = h * (i + 0.5);
		sum += 4.0 / (1.0 + x * x);
	}
	double part = h * sum;

	if (rank != 0) {
		/* Workers send their partial sum to rank 0. */
		MPI_Send(&part, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
	} else {
		/* Rank 0 adds up its own part and one message from every other rank,
		 * in whatever order they arrive. */
		double pi = part;
		for (int i = 1; i < size; i++) {
			double other;
			MPI_Recv(&other, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			pi += other;
		}
		double err = pi > PI25 ? pi - PI25 : PI25 - pi;
		printf("pi is approximately %.16f, error %.3e (%ld strips, %d ranks)\n", pi,
		       err, strips, size);
	}

	MPI_Finalize();
	return 0;
}
