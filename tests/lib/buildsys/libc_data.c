/* A program that uses libc's data objects (stderr, environ) directly. Compiled -fPIE (a plain
 * CMake build) its copies could only have a snapshot of environ: mpiexec refuses it with a
 * message; compiled -fPIC (CC=mpicc, -DCMAKE_C_FLAGS=-fPIC, Meson) it runs
 * (docs/process-model.md). Prints "libc_data rank R" on stdout and on stderr. */
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>

extern char **environ;

int main(int argc, char **argv)
{
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	fprintf(stdout, "libc_data rank %d env %d\n", rank, environ && environ[0] ? 1 : 0);
	fprintf(stderr, "libc_data rank %d\n", rank);
	MPI_Finalize();
	return 0;
}
