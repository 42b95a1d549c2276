/* fortran_rank: MPI_Init, the rank and size of MPI_COMM_WORLD, a barrier and MPI_Finalize
 * for the Fortran programs of tests/fortran_runtime_*.sh, which reach them through BIND(C)
 * interfaces (tests/lib/fortran_rank.inc) and so test the Fortran run-time alone, without
 * Shoal's Fortran bindings. Built into each program by mpifort; entered by rank threads. */
#include <mpi.h>

int frt_init(int *size);
void frt_barrier(void);
void frt_finalize(void);

int frt_init(int *size)
{
	int rank;

	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, size);
	return rank;
}

void frt_barrier(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
}

void frt_finalize(void)
{
	MPI_Finalize();
}
