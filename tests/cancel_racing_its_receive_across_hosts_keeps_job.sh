#!/bin/bash
# cancel_racing_its_receive_across_hosts_keeps_job: on 2 hosts (network namespaces), a synchronous send cancelled after delays swept from 0 to 5 ms, against a receive posted first on the other host, 600 times: no CANCEL, whether it reaches the receiver's node before or after the receive matched, is taken for a corrupt frame; cancel and receive always agree and the job ends normally. (The narrow case of a CANCEL arriving after the CTS left is forged deterministically in mesh_corrupt_frames_after_handshake_end_job, legal-cancel.)
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build race <<'SRC'
#include <stdio.h>
#include <time.h>
#include <mpi.h>

static int fails;
#define CHECK(c, ...) do { if (!(c)) { fails++; fprintf(stderr, "rank %d line %d: ", rank, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static void spin_ns(long ns)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec < ns);
}

int main(int argc, char **argv)
{
	int rank, flag, v, cancelled = 0, rounds = 600;
	MPI_Request rq;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int it = 0; it < rounds; it++) {
		if (rank == 1) {
			MPI_Irecv(&v, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, &rq);
			MPI_Send(&it, 1, MPI_INT, 0, 21, MPI_COMM_WORLD);
			MPI_Recv(&flag, 1, MPI_INT, 0, 22, MPI_COMM_WORLD, &st);
			if (flag) {
				int done;
				MPI_Test(&rq, &done, &st);
				CHECK(!done, "round %d: a cancelled send was received", it);
				MPI_Send(&it, 1, MPI_INT, 0, 23, MPI_COMM_WORLD);
			}
			MPI_Wait(&rq, &st);
			CHECK(v == (flag ? -it : it), "round %d: got %d", it, v);
		} else {
			MPI_Recv(&v, 1, MPI_INT, 1, 21, MPI_COMM_WORLD, &st);
			v = it;
			MPI_Issend(&v, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &rq);
			spin_ns((it % 100) * 50000L);  /* sweep the CANCEL across the receive's match */
			MPI_Cancel(&rq);
			MPI_Wait(&rq, &st);
			MPI_Test_cancelled(&st, &flag);
			cancelled += flag;
			MPI_Send(&flag, 1, MPI_INT, 1, 22, MPI_COMM_WORLD);
			if (flag) {
				MPI_Recv(&v, 1, MPI_INT, 1, 23, MPI_COMM_WORLD, &st);
				v = -it;
				MPI_Send(&v, 1, MPI_INT, 1, 20, MPI_COMM_WORLD);
			}
		}
	}
	if (rank == 0)
		fprintf(stderr, "%d of %d cancelled\n", cancelled, rounds);
	printf("rank %d: %s\n", rank, fails ? "FAILED" : "ok");
	MPI_Finalize();
	return fails ? 1 : 0;
}
SRC

netns_up 2
run -t 100 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" "$TEST_TMP/race"
expect_rc 0
expect_out_count '^rank [01]: ok$' 2
grep -q 'corrupt' "$ERR" && { show; fail "a CANCEL that lost its race was taken for corrupt"; }
grep -E 'cancelled$' "$ERR"
exit 0
