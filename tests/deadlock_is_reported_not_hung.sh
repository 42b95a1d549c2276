#!/bin/bash
# deadlock_is_reported_not_hung: when every rank stays blocked in MPI with nothing to receive (both ranks receive first; a rank waits in a barrier its peer skipped), the job ends with status 125 and a report of what each rank waits for; one rank calling MPI_Barrier while the others call MPI_Bcast is an error naming both, not a deadlock; a rank merely busy outside MPI is not mistaken for a deadlock.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"

build dead <<'SRC'
#include <string.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, v = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(argv[1], "recv")) {
		/* Everyone receives from its right neighbour before sending: a cycle. */
		MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD);
	} else if (!strcmp(argv[1], "barrier")) {
		if (rank != 0)
			MPI_Barrier(MPI_COMM_WORLD);
	} else if (!strcmp(argv[1], "mismatch")) {
		/* Erroneous: different collectives. Their fast paths cannot see each other. */
		if (rank == 0)
			MPI_Barrier(MPI_COMM_WORLD);
		else
			MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	} else {
		/* Not a deadlock: rank 0 waits while rank 1 computes (sleeps) for 3 s. */
		if (rank == 1) {
			sleep(3);
			MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		} else if (rank == 0) {
			MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
	MPI_Finalize();
	return 0;
}
SRC

export SHOAL_DEADLOCK_S=1
run -t 60 "$MPIEXEC" -n 4 "$TEST_TMP/dead" recv
expect_rc 125
expect_err 'likely deadlock'
expect_err 'rank 0: waits to receive from 1, tag 7, on MPI_COMM_WORLD'
expect_err 'rank 3: waits to receive from 0, tag 7, on MPI_COMM_WORLD'

run -t 60 "$MPIEXEC" -n 3 "$TEST_TMP/dead" barrier
expect_rc 125
expect_err 'likely deadlock'
expect_err 'rank 1: blocked in MPI'
expect_err 'rank 2: blocked in MPI'

# Not a deadlock any more: the ranks blocked in the Bcast find that rank 0's call at that
# point took another path and fail, naming both calls, long before the watchdog.
run -t 60 "$MPIEXEC" -n 3 "$TEST_TMP/dead" mismatch
[ "$RC" -ne 0 ] && [ "$RC" -ne 125 ] || { show; fail "mismatch: status $RC, expected an error"; }
expect_err 'MPI_ERR_NOT_SAME'
expect_err 'called MPI_Barrier'
expect_err 'called MPI_Bcast'
grep -q 'deadlock' "$ERR" && { show; fail "a mismatch was reported as a deadlock"; }

run -t 60 "$MPIEXEC" -n 2 "$TEST_TMP/dead" busy
expect_rc 0
grep -q 'deadlock' "$ERR" && { show; fail "a rank busy outside MPI was called a deadlock"; }
exit 0
