// C++ program of the build-system tests: MPI from C++, std::cout used directly and through
// the C++ project library, exceptions of libstdc++ and of the project library thrown here and
// caught; prints "app_cxx rank R sum S caught 2", exit status 1 if a check fails. A plain
// CMake build compiles it -fPIE (docs/process-model.md, "Programs linked as executables").
#include <iostream>
#include <stdexcept>
#include <vector>
#include <mpi.h>

#include "core.h"
#include "corexx.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank = corexx_report("app_cxx");
	std::vector<int> v(4, rank);
	int size = 0, caught = 0;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int sum = core_world_sum(v[3]);
	try {
		throw corexx_error(rank);
	} catch (const std::runtime_error &e) {
		caught += dynamic_cast<const corexx_error &>(e).rank == rank;
	}
	try {
		throw std::out_of_range("app_cxx");
	} catch (const std::logic_error &e) {
		caught++;
	}
	std::cout << "app_cxx rank " << rank << " sum " << sum << " caught " << caught << std::endl;
	MPI_Finalize();
	return sum == size * (size - 1) / 2 && caught == 2 ? 0 : 1;
}
