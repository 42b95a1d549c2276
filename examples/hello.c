/* hello: every rank says hello.  The smallest complete MPI program.
 * Run: mpiexec -n 4 build/examples/hello */
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, len;
	char host[MPI_MAX_PROCESSOR_NAME];

	/* Every MPI program starts with MPI_Init and ends with MPI_Finalize. */
	MPI_Init(&argc, &argv);

	/* MPI_COMM_WORLD holds every rank of the job: ask who we are and how many we are. */
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Get_processor_name(host, &len);

	/* Lines from different ranks may come out in any order. */
	printf("Hello from rank %d of %d on %s\n", rank, size, host);

	MPI_Finalize();
	return 0;
}
