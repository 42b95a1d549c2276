#!/bin/bash
# rank_exit_code_wins_over_hosts_that_lose_it: when a rank on one host exits with code 7 without MPI_Finalize while the ranks of another host keep sending to it, the job's status is 7 and its message names the rank, every time; the host that lost its peer does not end the job first with its own status 1.
. "$SHOAL_TESTS/lib/common.bash"

build job <<'SRC'
#include <stdlib.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, x = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 2)
		exit(7);
	if (rank < 2)  /* host a: to rank 2 on host b, until the job is ended */
		for (;;)
			MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
	MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  /* never sent */
	MPI_Finalize();
	return 0;
}
SRC

# Without the wait of die_peer_gone, about one launch in ten ended with status 1.
for i in $(seq 20); do
	run "$MPIEXEC" --launcher local -H a:2,b:2 "$TEST_TMP/job"
	expect_rc 7
	expect_err 'rank 2 exited \(code 7\) without calling MPI_Finalize'
done
exit 0
