#!/bin/bash
# atexit_handlers_run_per_rank: atexit handlers and destructors of each rank's copy run once when that rank ends, in that rank (seen from outside as output lines).
. "$SHOAL_TESTS/lib/common.bash"

build atexit <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
static int my_rank = -1;
static void at_end(void)
{
	printf("atexit rank %d\n", my_rank);
}
__attribute__((destructor)) static void dtor(void)
{
	printf("destructor rank %d\n", my_rank);
}
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
	atexit(at_end);
	MPI_Finalize();
	/* Rank 1 leaves through exit(), the others return from main. */
	if (my_rank == 1)
		exit(0);
	return 0;
}
SRC

run "$MPIEXEC" -n 4 "$TEST_TMP/atexit"
expect_rc 0
for r in 0 1 2 3; do
	expect_out_count "^atexit rank $r\$" 1
	expect_out_count "^destructor rank $r\$" 1
done
expect_out_count '^atexit rank' 4

# And a singleton runs its handler too.
run "$TEST_TMP/atexit"
expect_rc 0
expect_out_count '^atexit rank 0$' 1
exit 0
