#!/bin/bash
# deadlock_is_reported_not_hung: when every rank stays blocked in MPI with nothing to receive (both ranks receive first; a rank waits in a barrier its peer skipped; one rank calls MPI_Barrier while the others call MPI_Bcast), the job ends with status 125 and a report of what each rank waits for; a rank merely busy outside MPI is not mistaken for a deadlock.
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
start=$(date +%s)
run -t 40 "$MPIEXEC" -n 4 "$TEST_TMP/dead" recv
expect_rc 125
expect_err 'likely deadlock'
expect_err 'rank 0: waits to receive from 1, tag 7, on MPI_COMM_WORLD'
expect_err 'rank 3: waits to receive from 0, tag 7, on MPI_COMM_WORLD'
[ $(( $(date +%s) - start )) -le 30 ] || fail "took more than 30 s to report"

run -t 40 "$MPIEXEC" -n 3 "$TEST_TMP/dead" barrier
expect_rc 125
expect_err 'likely deadlock'
expect_err 'rank 1: blocked in MPI'
expect_err 'rank 2: blocked in MPI'

run -t 40 "$MPIEXEC" -n 3 "$TEST_TMP/dead" mismatch
expect_rc 125
expect_err 'likely deadlock'
grep -q 'in MPI_Bcast' "$OUT" "$ERR" || { show; fail "the hang report does not name MPI_Bcast"; }

run -t 40 "$MPIEXEC" -n 2 "$TEST_TMP/dead" busy
expect_rc 0
grep -q 'deadlock' "$ERR" && { show; fail "a rank busy outside MPI was called a deadlock"; }
exit 0
