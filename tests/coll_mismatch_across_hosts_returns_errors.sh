#!/bin/bash
# coll_mismatch_across_hosts_returns_errors: on 2 hosts (network namespaces), with MPI_ERRORS_RETURN, a Bcast whose roots differ returns MPI_ERR_ROOT and a Barrier met by an Allreduce returns MPI_ERR_NOT_SAME on every rank of both hosts, and the job goes on (a barrier after, exit 0).
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build mm <<'SRC'
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x = 5, s = 1, t, e1, e2, c1, c2;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	e1 = MPI_Bcast(&x, 1, MPI_INT, rank == 0 ? 0 : 1, MPI_COMM_WORLD);
	if (rank % 2)
		e2 = MPI_Barrier(MPI_COMM_WORLD);
	else
		e2 = MPI_Allreduce(&s, &t, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Error_class(e1, &c1);
	MPI_Error_class(e2, &c2);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d: %s %s\n", rank, c1 == MPI_ERR_ROOT ? "root" : "ROOT?",
	       c2 == MPI_ERR_NOT_SAME ? "not_same" : "NOT_SAME?");
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 --map-by node "$TEST_TMP/mm"
expect_rc 0
expect_out_count '^rank [0-3]: root not_same$' 4
exit 0
