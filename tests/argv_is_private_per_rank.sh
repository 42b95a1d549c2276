#!/bin/bash
# argv_is_private_per_rank: every rank gets the command-line arguments (spaces and all) in its own argv, which it can modify without affecting other ranks.
. "$SHOAL_TESTS/lib/common.bash"

build args <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
#include "check.h"
int main(int argc, char **argv)
{
	int rank, size;
	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_INT(argc, 4);
	CHECK(argv[argc] == NULL);
	CHECK(strstr(argv[0], "args") != NULL);
	CHECK_STR(argv[1], "alpha");
	CHECK_STR(argv[2], "two words");
	CHECK_STR(argv[3], "--flag=3");
	check_barrier(MPI_COMM_WORLD, 1);
	/* Overwrite our copy; no other rank may see it. */
	snprintf(argv[1], strlen(argv[1]) + 1, "r%d", rank % 1000);
	argv[3] = "replaced";
	check_barrier(MPI_COMM_WORLD, 2);
	char want[16];
	snprintf(want, sizeof want, "r%d", rank % 1000);
	CHECK_STR(argv[1], want);
	CHECK_STR(argv[2], "two words");
	CHECK_STR(argv[3], "replaced");
	printf("rank %d ok\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

for n in 1 4 32; do
	run "$MPIEXEC" -n $n "$TEST_TMP/args" alpha "two words" --flag=3
	expect_rc 0
	expect_out_count '^rank [0-9]+ ok$' $n
done
run "$TEST_TMP/args" alpha "two words" --flag=3
expect_rc 0
expect_out_count '^rank 0 ok$' 1
exit 0
