// A C++ program using std::cout itself, in every recipe (plain cmake, CXX=mpicxx,
// -DCMAKE_CXX_FLAGS=-fPIC, Meson). Prints "cout_data rank R".
#include <iostream>
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	std::cout << "cout_data rank " << rank << std::endl;
	MPI_Finalize();
	return 0;
}
