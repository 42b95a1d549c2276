#!/bin/bash
# fatal_message_gives_user_error_string: MPI_Comm_call_errhandler on MPI_COMM_WORLD with a user's error code (MPI_Add_error_code) or class (MPI_Add_error_class) under the default MPI_ERRORS_ARE_FATAL ends the job with a non-zero status and a message from the calling rank giving the text the user set with MPI_Add_error_string.
. "$SHOAL_TESTS/lib/common.bash"

build user_fatal <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, cls, code, x;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Add_error_class(&cls);
	MPI_Add_error_code(cls, &code);
	MPI_Add_error_string(cls, "coolant class: reactor too warm");
	MPI_Add_error_string(code, "coolant pump 7 stalled");
	if (rank == size - 1) {
		MPI_Comm_call_errhandler(MPI_COMM_WORLD, strcmp(argv[1], "class") ? code : cls);
		printf("rank %d survived the error\n", rank);
	}
	/* Everyone else waits for a message that never comes. */
	MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

for n in 1 2; do
	run -t 20 "$MPIEXEC" -n $n "$TEST_TMP/user_fatal" code
	expect_nonzero
	expect_err "rank $((n - 1))"
	expect_err 'coolant pump 7 stalled'
	grep -q 'survived' "$OUT" && fail "the rank continued after a fatal error"
done

run -t 20 "$MPIEXEC" -n 2 "$TEST_TMP/user_fatal" class
expect_nonzero
expect_err 'rank 1'
expect_err 'coolant class: reactor too warm'
grep -q 'survived' "$OUT" && fail "the rank continued after a fatal error"
exit 0
