/* C program of the build-system tests: each rank checks a sum through the project library and
 * prints "app_c rank R of N sum S" on stdout and "app_c rank R stderr" on stderr, both
 * streams used as data objects (a plain CMake build compiles it -fPIE: docs/process-model.md,
 * "Programs linked as executables"); exit status 1 if the sum is wrong. Its own globals and
 * getopt's optind must be per rank. */
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>

#include "core.h"

static int calls; /* per rank: each copy of the program has its own */

int main(int argc, char **argv)
{
	int rank, size, sum, opt, verbose = 0;
	char version[MPI_MAX_LIBRARY_VERSION_STRING];
	int len;

	while ((opt = getopt(argc, argv, "v")) != -1)
		if (opt == 'v')
			verbose++;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	calls++;
	sum = core_world_sum(rank + calls);
	MPI_Get_library_version(version, &len);
	printf("app_c rank %d of %d sum %d calls %d optind %d verbose %d\n", rank, size, sum,
	       calls, optind, verbose);
	if (rank == 0)
		printf("app_c library %.5s\n", version);
	fprintf(stderr, "app_c rank %d stderr\n", rank);
	MPI_Finalize();
	return sum == size * (size - 1) / 2 + size && calls == 1 ? 0 : 1;
}
