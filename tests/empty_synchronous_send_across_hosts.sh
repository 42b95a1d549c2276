#!/bin/bash
# empty_synchronous_send_across_hosts: on 2 hosts (network namespaces), a synchronous send of no bytes to a rank of the other host (MPI_Ssend, and MPI_Issend each way at once) completes once matched, and its receive completes with a count of 0, the sender's rank and tag; a message sent after it on the same pair still arrives.
# timeout: 60
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build empty <<'SRC'
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, n = -1, v = 0, fails = 0;
	MPI_Status st;
	MPI_Request rq;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	int peer = 1 - rank;
	if (rank == 0) {
		MPI_Ssend(&v, 0, MPI_INT, 1, 7, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&v, 0, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &n);
		fails += n != 0 || st.MPI_SOURCE != 0 || st.MPI_TAG != 7;
	}
	MPI_Issend(&v, 0, MPI_INT, peer, 8, MPI_COMM_WORLD, &rq);
	MPI_Recv(&v, 0, MPI_INT, peer, 8, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	fails += n != 0 || st.MPI_SOURCE != peer;
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	v = 40 + rank;
	MPI_Sendrecv_replace(&v, 1, MPI_INT, peer, 9, peer, 9, MPI_COMM_WORLD, &st);
	fails += v != 40 + peer;
	printf("rank %d: %s\n", rank, fails ? "FAILED" : "ok");
	MPI_Finalize();
	return fails != 0;
}
SRC

netns_up 2
run -t 30 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" "$TEST_TMP/empty"
expect_rc 0
expect_out_count '^rank [01]: ok$' 2
exit 0
