// C++ program of the build-system tests: MPI from C++ and output through the C++ project
// library; exit status 1 if a check fails. Like app.c it touches no data object of libc or
// libstdc++ itself (std::cout is printed by corexx), so a plain CMake build links it.
#include <cstdio>
#include <vector>
#include <mpi.h>

#include "core.h"
#include "corexx.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank = corexx_report("app_cxx");
	std::vector<int> v(4, rank);
	int size = 0;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int sum = core_world_sum(v[3]);
	std::printf("app_cxx rank %d sum %d\n", rank, sum);
	MPI_Finalize();
	return sum == size * (size - 1) / 2 ? 0 : 1;
}
