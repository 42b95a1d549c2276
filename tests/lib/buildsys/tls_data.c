/* A program with a thread-local variable of its own. Linked as an executable (a build system's
 * link flags), its copies cannot have it: mpiexec refuses it with a message; built by mpicc
 * (CC=mpicc) it runs, each rank with its own. Prints "tls_data rank R own R". */
#include <stdio.h>
#include <mpi.h>

static __thread int own = -1;

int main(int argc, char **argv)
{
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	own = rank;
	MPI_Barrier(MPI_COMM_WORLD);
	printf("tls_data rank %d own %d\n", rank, own);
	MPI_Finalize();
	return 0;
}
