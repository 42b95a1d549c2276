/* cxx_globals_iostream_exceptions: C++ programs work per rank: constructors of globals run
 * once per copy, iostream prints, exceptions are thrown and caught, thread_local is per rank. */
/* ranks: 1 2 4 16 */
/* asan: ASan finds no __cxa_throw to call when libstdc++ comes with the rank's program, after start (its CHECK real___cxa_throw != 0 fails): ASan's limit, not a finding */
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include "check.h"

static int constructed = 0;

struct Counter {
	int value;
	std::vector<int> items;
	Counter() : value(100) { constructed++; }
};

Counter counter;                  /* constructed once in each copy of the program */
std::string greeting = "ahoy";    /* a global with a non-trivial constructor */
thread_local int tl_value = 5;
thread_local std::string tl_name = "unset";

static int thrower(int rank)
{
	if (rank >= 0)
		throw std::runtime_error("rank " + std::to_string(rank));
	return 0;
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	CHECK_INT(constructed, 1);
	CHECK_INT(counter.value, 100);
	CHECK_STR(greeting.c_str(), "ahoy");
	CHECK_INT(tl_value, 5);
	CHECK_STR(tl_name.c_str(), "unset");
	check_barrier(MPI_COMM_WORLD, 1);

	counter.value = rank;
	counter.items.assign(rank + 1, rank);
	greeting += std::to_string(rank);
	tl_value = rank * 3;
	tl_name = "rank" + std::to_string(rank);
	check_barrier(MPI_COMM_WORLD, 2);

	CHECK_INT(counter.value, rank);
	CHECK_INT(counter.items.size(), rank + 1);
	CHECK_STR(greeting.c_str(), ("ahoy" + std::to_string(rank)).c_str());
	CHECK_INT(tl_value, rank * 3);
	CHECK_STR(tl_name.c_str(), ("rank" + std::to_string(rank)).c_str());

	/* Exceptions unwind through this copy's frames, concurrently in every rank. */
	int caught = 0;
	for (int i = 0; i < 1000; i++) {
		try {
			thrower(rank);
		} catch (const std::runtime_error &e) {
			CHECK_STR(e.what(), ("rank " + std::to_string(rank)).c_str());
			caught++;
		}
	}
	CHECK_INT(caught, 1000);

	std::ostringstream line;
	line << "iostream from rank " << rank << " of " << size;
	std::cout << line.str() << std::endl;
	CHECK(std::cout.good());

	check_barrier(MPI_COMM_WORLD, 3);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
