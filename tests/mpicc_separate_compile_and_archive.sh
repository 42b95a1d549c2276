#!/bin/bash
# mpicc_separate_compile_and_archive: mpicc -c of several files, an ar static archive, and a final link produce a program that runs directly and under mpiexec; mpicxx builds and links C++ with C objects.
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"

cat >main.c <<'SRC'
#include <stdio.h>
#include <mpi.h>
int twice(int);
int thrice(int);
int counter;               /* defined here, used from lib.c */
void bump(void);
int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	bump(); bump();
	printf("rank %d/%d: %d %d counter=%d\n", rank, size, twice(rank), thrice(rank), counter);
	MPI_Finalize();
	return 0;
}
SRC
cat >a.c <<'SRC'
int twice(int x) { return 2 * x; }
SRC
cat >b.c <<'SRC'
int thrice(int x) { return 3 * x; }
SRC
cat >lib.c <<'SRC'
extern int counter;
void bump(void) { counter++; }
SRC

"$MPICC" -O2 -Wall -c main.c a.c || fail "mpicc -c main.c a.c"
"$MPICC" -c b.c -o b.o || fail "mpicc -c b.c"
"$MPICC" -c lib.c || fail "mpicc -c lib.c"
for o in main.o a.o b.o lib.o; do [ -f $o ] || fail "$o not produced"; done
ar rcs libstuff.a b.o lib.o || fail "ar"
"$MPICC" -o prog main.o a.o libstuff.a || fail "link with archive"
"$MPICC" -o prog2 main.o a.o -L. -lstuff || fail "link with -L. -lstuff"

run ./prog
expect_rc 0
expect_out '^rank 0/1: 0 0 counter=2$'
run "$MPIEXEC" -n 3 ./prog
expect_rc 0
expect_out '^rank 2/3: 4 6 counter=2$'
expect_out_count 'counter=2$' 3
run "$MPIEXEC" -n 2 ./prog2
expect_rc 0
expect_out '^rank 1/2: 2 3 counter=2$'

# One-step compile and link of several sources.
"$MPICC" -o prog3 main.c a.c b.c lib.c || fail "one-step build"
run "$MPIEXEC" -n 2 ./prog3
expect_rc 0
expect_out_count 'counter=2$' 2

# C++: mpicxx compiles C++ and links the C objects.
[ -x "$MPICXX" ] || fail "mpicxx missing"
cat >cxx.cpp <<'SRC'
#include <iostream>
#include <mpi.h>
extern "C" int twice(int);
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	std::cout << "cxx rank " << rank << " " << twice(rank) << std::endl;
	MPI_Finalize();
	return 0;
}
SRC
"$MPICXX" -c cxx.cpp || fail "mpicxx -c"
"$MPICXX" -o cxxprog cxx.o a.o || fail "mpicxx link"
run "$MPIEXEC" -n 2 ./cxxprog
expect_rc 0
expect_out '^cxx rank 1 2$'
exit 0
