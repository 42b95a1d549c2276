#!/bin/bash
# p2p_error_messages_name_the_argument: under the default MPI_ERRORS_ARE_FATAL, point-to-point errors end the job (non-zero status) with a message naming the argument as the standard spells it (recvcount, sendtag, MPI_ANY_SOURCE rather than -1, the index of the failed request in MPI_Waitall), both sizes of a truncated receive, and "no buffer" for a buffered send without one.
. "$SHOAL_TESTS/lib/common.bash"

build p2p_fatal <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, x[8] = { 0 }, small[4];
	MPI_Request r[2];
	const char *what = argv[1];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0 && strcmp(what, "waitall") == 0) {
		MPI_Send(x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
		MPI_Send(x, 8, MPI_INT, 1, 2, MPI_COMM_WORLD);
	} else if (rank == 0 && strcmp(what, "truncate") == 0) {
		MPI_Send(x, 8, MPI_INT, 1, 2, MPI_COMM_WORLD);
	} else if (rank == 1) {
		if (strcmp(what, "recvcount") == 0)
			MPI_Sendrecv(x, 1, MPI_INT, 0, 1, small, -1, MPI_INT, 0, 1, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
		else if (strcmp(what, "sendtag") == 0)
			MPI_Sendrecv(x, 1, MPI_INT, 0, -4, small, 1, MPI_INT, 0, 1, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
		else if (strcmp(what, "any_source") == 0)
			MPI_Send(x, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD);
		else if (strcmp(what, "waitall") == 0) {
			/* Request 0 fits its 1-int message; request 1 gets 8 ints into room for 4. */
			MPI_Irecv(small, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[0]);
			MPI_Irecv(small, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, &r[1]);
			MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
		} else if (strcmp(what, "truncate") == 0)
			MPI_Recv(small, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		else if (strcmp(what, "bsend") == 0)
			MPI_Bsend(x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		printf("rank 1 survived the error\n");
	}
	/* Everyone else waits for a message that never comes. */
	MPI_Recv(x, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

# check_fatal CASE FUNCTION REGEX...: the case ends the job with a non-zero status and a
# message from rank 1 naming FUNCTION and matching every REGEX (case-insensitive).
check_fatal() {
	local what=$1 fn=$2 re
	shift 2
	run -t 20 "$MPIEXEC" -n 2 "$TEST_TMP/p2p_fatal" "$what"
	expect_nonzero
	expect_err "$fn"
	expect_err 'rank 1'
	for re in "$@"; do
		grep -Eqi -- "$re" "$ERR" || { show; fail "$what: the message lacks /$re/"; }
	done
	grep -q 'survived' "$OUT" && fail "$what: the rank continued after a fatal error"
	return 0
}

check_fatal recvcount MPI_Sendrecv 'recvcount'
check_fatal sendtag MPI_Sendrecv 'sendtag'
check_fatal any_source MPI_Send 'MPI_ANY_SOURCE'
grep -Eq 'dest -1\b' "$ERR" && { show; fail "any_source: the message shows MPI_ANY_SOURCE as -1"; }
check_fatal waitall MPI_Waitall 'array_of_requests\[1\]' 'MPI_ERR_TRUNCATE|truncat'
# 8 ints sent, room for 4: both sizes in bytes.
check_fatal truncate MPI_Recv '\(32 bytes\)' '16 bytes'
check_fatal bsend MPI_Bsend 'no buffer'
exit 0
