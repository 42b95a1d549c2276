#!/bin/bash
# wtime_is_global_only_when_the_job_is_on_one_node: MPI_WTIME_IS_GLOBAL is 1 on every rank of a job on one node, whose ranks share one node process's clock, and 0 on every rank of a job on two hosts (--launcher local -H a,b), where each node process counts MPI_Wtime from its own start; the same on MPI_COMM_WORLD and MPI_COMM_SELF.
. "$SHOAL_TESTS/lib/common.bash"

build wtime_global <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, flag_w = -1, flag_s = -1, *world = NULL, *self = NULL;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &world, &flag_w);
	MPI_Comm_get_attr(MPI_COMM_SELF, MPI_WTIME_IS_GLOBAL, &self, &flag_s);
	printf("rank %d: world flag %d value %d, self flag %d value %d\n", rank, flag_w,
	       flag_w ? *world : -1, flag_s, flag_s ? *self : -1);
	MPI_Finalize();
	return 0;
}
SRC

run -t 30 "$MPIEXEC" -n 2 "$TEST_TMP/wtime_global"
expect_rc 0
expect_out_count '^rank [01]: world flag 1 value 1, self flag 1 value 1$' 2

run -t 30 "$MPIEXEC" --launcher local -H a,b -n 2 "$TEST_TMP/wtime_global"
expect_rc 0
expect_out_count '^rank [01]: world flag 1 value 0, self flag 1 value 0$' 2

# Two ranks on host a, one on b: the job spans nodes, so no rank's clock is global.
run -t 30 "$MPIEXEC" --launcher local -H a:2,b -n 3 "$TEST_TMP/wtime_global"
expect_rc 0
expect_out_count '^rank [012]: world flag 1 value 0, self flag 1 value 0$' 3
exit 0
