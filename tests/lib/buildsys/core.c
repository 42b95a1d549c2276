/* Project library of the build-system tests (tests/cmake_*, tests/meson_*): a shared library
 * linked to MPI the way the build system links it; its code is -fPIC and may use any data of
 * other libraries. Entered by each rank's main thread. */
#include <stdio.h>
#include <mpi.h>

#include "core.h"

int core_world_sum(int value)
{
	int sum = -1;

	if (MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
		fprintf(stderr, "core: MPI_Allreduce failed\n");
	return sum;
}
