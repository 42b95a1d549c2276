#!/bin/bash
# local_launcher_runs_one_node_per_host: with --launcher local, a job on hosts a and b runs one node process per host on this machine; ranks see their world rank, the world size and their host (SHOAL_HOST), and MPI_Abort on one host ends the ranks blocked on the other with the abort's code.
. "$SHOAL_TESTS/lib/common.bash"

build where <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	printf("rank %d of %d on %s pid %d\n", rank, size, getenv("SHOAL_HOST"), (int)getpid());
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "abort")) {
		if (rank == 1)
			MPI_Abort(MPI_COMM_WORLD, 7);
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
SRC

run -t 60 "$MPIEXEC" --launcher local -H a:2,b:3 "$TEST_TMP/where"
expect_rc 0
for r in 0 1; do expect_out_count "^rank $r of 5 on a pid" 1; done
for r in 2 3 4; do expect_out_count "^rank $r of 5 on b pid" 1; done
# Two node processes: ranks of a host share one pid, hosts do not.
[ "$(sed 's/.* pid //' "$OUT" | sort -u | wc -l)" = 2 ] || { show; fail "not one process per host"; }

# Ranks left blocked on b would hang until the deadlock check ended the job with 125.
run -t 60 "$MPIEXEC" --launcher local -H a,b:2 "$TEST_TMP/where" abort
expect_rc 7
expect_err 'rank 1'
exit 0
