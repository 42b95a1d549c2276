#!/bin/bash
# cancel_send_to_other_host: on 2 hosts (network namespaces), MPI_Cancel of a rendezvous send (1 MiB, and a synchronous 4-byte one) to a rank of the other host that has not matched it succeeds: MPI_Test_cancelled is true and the receiver never sees the message (a later one with the same tag arrives instead); when the receive was already posted, cancel and receive agree (cancelled and not received, or received and not cancelled), 20 times.
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build cancel <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int fails;
#define CHECK(c, ...) do { if (!(c)) { fails++; fprintf(stderr, "rank %d line %d: ", rank, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

int main(int argc, char **argv)
{
	int rank, flag, v;
	const int N = 1 << 20;
	unsigned char *big = malloc(N);
	MPI_Request rq;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* Unmatched: a 1 MiB standard send and a 4-byte synchronous one, both cancelled. */
	for (int kind = 0; kind < 2; kind++) {
		int tag = 10 + kind;
		if (rank == 0) {
			memset(big, 0xAA, N);
			v = 1;
			if (kind == 0)
				MPI_Isend(big, N, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &rq);
			else
				MPI_Issend(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &rq);
			MPI_Cancel(&rq);
			MPI_Wait(&rq, &st);
			MPI_Test_cancelled(&st, &flag);
			CHECK(flag, "send %d to another host, unmatched: not cancelled", kind);
			/* Then the message the receiver must get instead, and a go. */
			v = 2;
			MPI_Send(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
			MPI_Send(&v, 1, MPI_INT, 1, 99, MPI_COMM_WORLD);
		} else {
			MPI_Recv(&v, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &st);
			int count = -1;
			v = 0;
			MPI_Recv(big, N, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_BYTE, &count);
			memcpy(&v, big, sizeof(v));
			CHECK(count == 4 && v == 2, "after cancel %d: got %d bytes, value %d (want the later 4-byte 2)",
			      kind, count, v);
			MPI_Iprobe(0, tag, MPI_COMM_WORLD, &flag, &st);
			CHECK(!flag, "after cancel %d: another message with the tag is there", kind);
		}
	}
	/* Posted first: whatever cancel says, the receive agrees. */
	int cancelled = 0;
	for (int it = 0; it < 20; it++) {
		if (rank == 1) {
			MPI_Irecv(big, N, MPI_BYTE, 0, 20, MPI_COMM_WORLD, &rq);
			MPI_Send(&it, 1, MPI_INT, 0, 21, MPI_COMM_WORLD);
			MPI_Recv(&flag, 1, MPI_INT, 0, 22, MPI_COMM_WORLD, &st);
			int done;
			if (flag) {
				/* Cancelled: the receive must still be waiting; give it a stand-in. */
				MPI_Test(&rq, &done, &st);
				CHECK(!done, "iteration %d: a cancelled send was received", it);
				MPI_Send(&it, 1, MPI_INT, 0, 23, MPI_COMM_WORLD);
				MPI_Wait(&rq, &st);
				MPI_Get_count(&st, MPI_BYTE, &done);
				CHECK(done == 4, "iteration %d: stand-in has %d bytes", it, done);
			} else {
				MPI_Wait(&rq, &st);
				MPI_Get_count(&st, MPI_BYTE, &done);
				CHECK(done == N && big[N - 1] == (unsigned char)it,
				      "iteration %d: got %d bytes, last %d", it, done, big[N - 1]);
			}
		} else {
			MPI_Recv(&v, 1, MPI_INT, 1, 21, MPI_COMM_WORLD, &st);
			memset(big, it, N);
			MPI_Isend(big, N, MPI_BYTE, 1, 20, MPI_COMM_WORLD, &rq);
			int done = 0;
			if (it % 2 == 0)
				MPI_Test(&rq, &done, &st);  /* vary the timing */
			flag = 0;
			if (!done) {  /* a completed send is not cancelled */
				MPI_Cancel(&rq);
				MPI_Wait(&rq, &st);
				MPI_Test_cancelled(&st, &flag);
			}
			cancelled += flag;
			MPI_Send(&flag, 1, MPI_INT, 1, 22, MPI_COMM_WORLD);
			if (flag) {
				MPI_Recv(&v, 1, MPI_INT, 1, 23, MPI_COMM_WORLD, &st);
				MPI_Send(&v, 1, MPI_INT, 1, 20, MPI_COMM_WORLD);
			}
		}
	}
	if (rank == 0)
		fprintf(stderr, "posted first: %d of 20 cancelled\n", cancelled);
	int one = 1;
	if (rank == 0)
		MPI_Recv(&one, 1, MPI_INT, 1, 98, MPI_COMM_WORLD, &st);
	else
		MPI_Send(&one, 1, MPI_INT, 0, 98, MPI_COMM_WORLD);
	printf("rank %d: %s\n", rank, fails ? "FAILED" : "ok");
	free(big);
	MPI_Finalize();
	return fails ? 1 : 0;
}
SRC

netns_up 2
run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" "$TEST_TMP/cancel"
expect_rc 0
expect_out_count '^rank [01]: ok$' 2
exit 0
