// C++ project library of the build-system tests: std::cout and MPI from a shared library.
// Entered by each rank's main thread.
#include <iostream>
#include <mpi.h>

#include "corexx.h"

int corexx_report(const char *who)
{
	int rank = -1, size = 0;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	std::cout << who << " rank " << rank << " of " << size << std::endl;
	return rank;
}

corexx_error::corexx_error(int r) : std::runtime_error("corexx_error"), rank(r) {}
corexx_error::~corexx_error() = default;
