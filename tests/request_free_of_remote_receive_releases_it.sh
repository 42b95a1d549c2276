#!/bin/bash
# request_free_of_remote_receive_releases_it: on 2 hosts (network namespaces), a receive of a rendezvous message (256 KiB) from the other host, freed with MPI_Request_free before the message is matched or while its data is on the way, still fills its buffer, and its request is released (the handles of 200 such receives are recycled, not 200 distinct ones).
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build rfree <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int fails;
#define CHECK(c, ...) do { if (!(c)) { fails++; fprintf(stderr, "rank %d line %d: ", rank, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

int main(int argc, char **argv)
{
	int rank, v = 0, flag;
	const int N = 256 * 1024, ITERS = 200;
	unsigned char *buf = malloc(N);
	MPI_Request seen[ITERS];
	int nseen = 0;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int it = 0; it < ITERS; it++) {
		int late = it % 2;  /* odd: freed after progress may have matched it */
		if (rank == 1) {
			MPI_Request rq;
			memset(buf, 0, N);
			MPI_Irecv(buf, N, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &rq);
			int known = 0;
			for (int i = 0; i < nseen; i++)
				known |= seen[i] == rq;
			if (!known && nseen < ITERS)
				seen[nseen++] = rq;
			if (!late)
				MPI_Request_free(&rq);
			MPI_Send(&it, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
			if (late) {
				MPI_Iprobe(0, 3, MPI_COMM_WORLD, &flag, &st);  /* progress */
				MPI_Request_free(&rq);
			}
			/* Sent after the data on the same connection: the data is in when it is. */
			MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &st);
			CHECK(buf[0] == (unsigned char)(it + 1) && buf[N - 1] == (unsigned char)(it + 1),
			      "iteration %d: buffer holds %d ... %d", it, buf[0], buf[N - 1]);
		} else {
			MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &st);
			memset(buf, it + 1, N);
			MPI_Send(buf, N, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
			MPI_Send(&it, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
		}
	}
	if (rank == 1) {
		fprintf(stderr, "%d distinct request handles in %d receives\n", nseen, ITERS);
		CHECK(nseen <= 4, "%d distinct request handles in %d freed receives: not released",
		      nseen, ITERS);
	}
	printf("rank %d: %s\n", rank, fails ? "FAILED" : "ok");
	free(buf);
	MPI_Finalize();
	return fails ? 1 : 0;
}
SRC

netns_up 2
run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" "$TEST_TMP/rfree"
expect_rc 0
expect_out_count '^rank [01]: ok$' 2
exit 0
