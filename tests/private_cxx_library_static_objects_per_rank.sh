#!/bin/bash
# private_cxx_library_static_objects_per_rank: a C++ library built with Shoal's mpicxx -shared is loaded once per rank, at 4 and 16 ranks: its global object (whose constructor calls nothing of MPI) is constructed and destroyed once per rank, its std::string and std::map globals and a function-local static object hold each rank's own values, and each destructor runs once, in its own rank. The library finds the plain library it needs as the dynamic linker does, through the program's RUNPATH.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP" || fail "no scratch directory"

# libtally: a plain library (no MPI), shared by the node's ranks: counts constructor runs.
gcc -shared -fPIC -Wl,-soname,libtally.so -o libtally.so "$SHOAL_TESTS/lib/tally.c" ||
	fail "cannot build libtally"

cat >objects.cpp <<'SRC'
#include <cstdio>
#include <map>
#include <string>
#include <mpi.h>
extern "C" int tally_add(void);
namespace {
struct Tracker {
	int rank = -1;
	int built = 0;
	Tracker() { built = 1; tally_add(); }   // nothing of MPI: it runs before MPI_Init
	~Tracker() { std::printf("global destructor: library rank %d built %d\n", rank, built); }
};
struct Calls {
	int rank = -1;
	int n = 0;
	Calls() { tally_add(); }
	~Calls() { std::printf("local static destructor: library rank %d calls %d\n", rank, n); }
};
Tracker tracker;
std::string name = "unset";
std::map<std::string, int> table;
Calls &calls()
{
	static Calls c;   // constructed on the first call, in each rank's copy
	return c;
}
}
extern "C" void objects_init(void)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &tracker.rank);
	name = "rank " + std::to_string(tracker.rank);
	table[name] = tracker.rank;
	calls().rank = tracker.rank;
}
extern "C" void objects_call(void) { calls().n++; }
extern "C" void objects_print(int rank)
{
	std::printf("rank %d: object %d built %d name '%s' table size %zu value %d calls %d\n",
		    rank, tracker.rank, tracker.built, name.c_str(), table.size(),
		    table.count(name) ? table[name] : -1, calls().n);
}
SRC
# libobjects has no RUNPATH: its libtally is the one the program's RUNPATH found (the
# dynamic linker takes a library already loaded under that soname), under mpiexec too.
"$MPICXX" -g -shared -o libobjects.so objects.cpp -L"$TEST_TMP" -ltally ||
	fail "mpicxx -shared cannot build libobjects"

cat >objprog.cpp <<'SRC'
#include <cstdio>
#include <mpi.h>
extern "C" {
void objects_init(void);
void objects_call(void);
void objects_print(int rank);
int tally_total(void);
}
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	objects_init();
	for (int i = 0; i <= rank; i++)
		objects_call();
	MPI_Barrier(MPI_COMM_WORLD);   // every rank has set its objects before any reads them
	objects_print(rank);
	// Two constructors per rank: the global object's and the function-local static's.
	std::printf("rank %d: constructors on the node %d\n", rank, tally_total());
	MPI_Finalize();
	return 0;
}
SRC
"$MPICXX" -g -o objprog objprog.cpp -L"$TEST_TMP" -lobjects -ltally -Wl,-rpath,"$TEST_TMP" ||
	fail "mpicxx cannot build the program"

run ./objprog
expect_rc 0
expect_out "^rank 0: object 0 built 1 name 'rank 0' table size 1 value 0 calls 1\$"

for n in 4 16; do
	run -t 120 "$MPIEXEC" -n $n ./objprog
	expect_rc 0
	for r in $(seq 0 $((n - 1))); do
		expect_out_count "^rank $r: object $r built 1 name 'rank $r' table size 1 value $r calls $((r + 1))\$" 1
		expect_out_count "^rank $r: constructors on the node $((2 * n))\$" 1
		expect_out_count "^global destructor: library rank $r built 1\$" 1
		expect_out_count "^local static destructor: library rank $r calls $((r + 1))\$" 1
	done
	expect_out_count '^global destructor:' $n
	expect_out_count '^local static destructor:' $n
done
exit 0
