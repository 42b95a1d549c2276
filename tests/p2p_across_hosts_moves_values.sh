#!/bin/bash
# p2p_across_hosts_moves_values: on 2 and 4 hosts (network namespaces), point-to-point between ranks of different nodes: ping-pong of 0 B, 1 KiB and 60 KiB, a ring, MPI_ANY_SOURCE taking a local and a remote sender in each one's order, 10000 small messages in order, a vector datatype, rendezvous messages of 64 KiB + 1 to 9 MiB, both ways at once, a synchronous send found by a probe; values checked.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build p2p <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int fails;
#define CHECK(c, ...) do { if (!(c)) { fails++; fprintf(stderr, "rank %d line %d: ", rank, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static unsigned char pat(int seed, int i) { return (unsigned char)(seed * 31 + i * 7 + 1); }

int main(int argc, char **argv)
{
	int rank, size, nhosts = atoi(argv[1]);
	static unsigned char buf[60 * 1024];
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* --map-by node: rank r is on host r % nhosts, so 0 and 1 are on different hosts and
	 * 0 and nhosts on the same one. */
	/* Rendezvous: 64 KiB + 1, 1 MiB and 9 MiB (three DATA chunks) there and back,
	 * the reply into a receive 1 KiB larger than the message. */
	size_t bigs[] = { 64 * 1024 + 1, 1 << 20, 9 << 20 };
	unsigned char *big = malloc((9 << 20) + 1024);
	for (int s = 0; s < 3 && rank < 2; s++) {
		int n = (int)bigs[s], got;
		if (rank == 0) {
			for (int i = 0; i < n; i++)
				big[i] = pat(s, i);
			MPI_Send(big, n, MPI_BYTE, 1, 50 + s, MPI_COMM_WORLD);
			memset(big, 0, (size_t)n);
			MPI_Recv(big, n + 1024, MPI_BYTE, 1, 60 + s, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_BYTE, &got);
			CHECK(got == n, "large reply: count %d, want %d", got, n);
			for (int i = 0; i < n; i++)
				if (big[i] != pat(s + 7, i)) {
					CHECK(0, "large reply %d B: byte %d is %d", n, i, big[i]);
					break;
				}
		} else {
			MPI_Recv(big, n, MPI_BYTE, 0, 50 + s, MPI_COMM_WORLD, &st);
			for (int i = 0; i < n; i++)
				if (big[i] != pat(s, i)) {
					CHECK(0, "large %d B: byte %d is %d", n, i, big[i]);
					break;
				}
			for (int i = 0; i < n; i++)
				big[i] = pat(s + 7, i);
			MPI_Send(big, n, MPI_BYTE, 0, 60 + s, MPI_COMM_WORLD);
		}
	}
	/* Both ways at once, nonblocking: 2 MiB each, received in the other order. */
	if (rank < 2) {
		int n = 2 << 20, peer = 1 - rank;
		MPI_Request rq[2];
		memset(big + n, 0, (size_t)n);
		for (int i = 0; i < n; i++)
			big[i] = pat(rank + 20, i);
		MPI_Isend(big, n, MPI_BYTE, peer, 80, MPI_COMM_WORLD, &rq[0]);
		MPI_Irecv(big + n, n, MPI_BYTE, peer, 80, MPI_COMM_WORLD, &rq[1]);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		for (int i = 0; i < n; i++)
			if (big[n + i] != pat(peer + 20, i)) {
				CHECK(0, "exchange: byte %d is %d", i, big[n + i]);
				break;
			}
	}
	free(big);
	/* A synchronous send across (a rendezvous of 4 bytes), received after a probe. */
	if (rank == 1) {
		int v = 77;
		MPI_Ssend(&v, 1, MPI_INT, 0, 70, MPI_COMM_WORLD);
	} else if (rank == 0) {
		int v = 0, got;
		MPI_Probe(1, 70, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &got);
		CHECK(got == 1, "probe of the synchronous send: count %d", got);
		MPI_Recv(&v, 1, MPI_INT, 1, 70, MPI_COMM_WORLD, &st);
		CHECK(v == 77, "synchronous send: got %d", v);
	}

	/* Ping-pong. */
	int sizes[] = { 0, 1024, 60 * 1024 };
	for (int s = 0; s < 3 && rank < 2; s++) {
		int n = sizes[s];
		for (int it = 0; it < 10; it++) {
			if (rank == 0) {
				for (int i = 0; i < n; i++)
					buf[i] = pat(it, i);
				MPI_Send(buf, n, MPI_BYTE, 1, it, MPI_COMM_WORLD);
				memset(buf, 0, sizeof(buf));
				MPI_Recv(buf, sizeof(buf), MPI_BYTE, 1, it, MPI_COMM_WORLD, &st);
				int got;
				MPI_Get_count(&st, MPI_BYTE, &got);
				CHECK(got == n && st.MPI_SOURCE == 1 && st.MPI_TAG == it,
				      "pong: count %d (want %d) source %d tag %d", got, n, st.MPI_SOURCE, st.MPI_TAG);
				for (int i = 0; i < n; i++)
					if (buf[i] != pat(it + 1000, i)) {
						CHECK(0, "pong %d B: byte %d is %d, want %d", n, i, buf[i], pat(it + 1000, i));
						break;
					}
			} else {
				MPI_Recv(buf, sizeof(buf), MPI_BYTE, 0, it, MPI_COMM_WORLD, &st);
				int got;
				MPI_Get_count(&st, MPI_BYTE, &got);
				CHECK(got == n && st.MPI_SOURCE == 0, "ping: count %d (want %d) source %d", got, n,
				      st.MPI_SOURCE);
				for (int i = 0; i < n; i++)
					if (buf[i] != pat(it, i)) {
						CHECK(0, "ping %d B: byte %d is %d, want %d", n, i, buf[i], pat(it, i));
						break;
					}
				for (int i = 0; i < n; i++)
					buf[i] = pat(it + 1000, i);
				MPI_Send(buf, n, MPI_BYTE, 0, it, MPI_COMM_WORLD);
			}
		}
	}

	/* A ring, 20 laps: each rank passes its left neighbour's value on. */
	for (int lap = 0; lap < 20; lap++) {
		int out = rank * 1000 + lap, in = -1, left = (rank + size - 1) % size;
		MPI_Request rq[2];
		MPI_Irecv(&in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &rq[0]);
		MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &rq[1]);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		CHECK(in == left * 1000 + lap, "ring lap %d: got %d from %d", lap, in, left);
	}

	/* MPI_ANY_SOURCE: rank 0 takes 200 messages from rank 1 (remote) and rank nhosts
	 * (local), each sender's in its order. */
	const int N = 200;
	if (rank == 0) {
		int next[2] = { 0, 0 }, v;
		for (int k = 0; k < 2 * N; k++) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
			int who = st.MPI_SOURCE == 1 ? 0 : st.MPI_SOURCE == nhosts ? 1 : -1;
			CHECK(who >= 0, "any source: message from rank %d", st.MPI_SOURCE);
			if (who < 0)
				break;
			CHECK(v == st.MPI_SOURCE * 100000 + next[who], "any source: from %d got %d, want %d",
			      st.MPI_SOURCE, v, st.MPI_SOURCE * 100000 + next[who]);
			next[who]++;
		}
		CHECK(next[0] == N && next[1] == N, "any source: %d from the remote, %d from the local",
		      next[0], next[1]);
	} else if (rank == 1 || rank == nhosts) {
		for (int k = 0; k < N; k++) {
			int v = rank * 100000 + k;
			MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
		}
	}

	/* 10000 small messages from rank 1 to rank 0, sent nonblocking in bursts of 100,
	 * received in order with MPI_ANY_TAG. */
	if (rank == 1) {
		int vals[100];
		MPI_Request rq[100];
		for (int b = 0; b < 100; b++) {
			for (int i = 0; i < 100; i++) {
				vals[i] = b * 100 + i;
				MPI_Isend(&vals[i], 1, MPI_INT, 0, 100 + vals[i] % 32, MPI_COMM_WORLD, &rq[i]);
			}
			MPI_Waitall(100, rq, MPI_STATUSES_IGNORE);
		}
	} else if (rank == 0) {
		for (int i = 0; i < 10000; i++) {
			int v = -1;
			MPI_Recv(&v, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (v != i || st.MPI_TAG != 100 + i % 32) {
				CHECK(0, "in order: message %d is %d with tag %d", i, v, st.MPI_TAG);
				break;
			}
		}
	}

	/* A vector datatype across (packed by the sender, dense at the receiver). */
	if (rank < 2) {
		int m[20], d[10];
		MPI_Datatype vec;
		MPI_Type_vector(10, 1, 2, MPI_INT, &vec);
		MPI_Type_commit(&vec);
		if (rank == 1) {
			for (int i = 0; i < 20; i++)
				m[i] = i;
			MPI_Send(m, 1, vec, 0, 9, MPI_COMM_WORLD);
		} else {
			MPI_Recv(d, 10, MPI_INT, 1, 9, MPI_COMM_WORLD, &st);
			for (int i = 0; i < 10; i++)
				CHECK(d[i] == 2 * i, "vector: element %d is %d", i, d[i]);
		}
		MPI_Type_free(&vec);
	}

	/* Done: rank 0 tells everyone, so no node ends while others still send to it. */
	int one = 1;
	if (rank == 0)
		for (int r = 1; r < size; r++)
			MPI_Send(&one, 1, MPI_INT, r, 99, MPI_COMM_WORLD);
	else
		MPI_Recv(&one, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &st);
	printf("rank %d of %d: %s\n", rank, size, fails ? "FAILED" : "ok");
	MPI_Finalize();
	return fails ? 1 : 0;
}
SRC

netns_up 4
for n in 2 4; do
	hosts=$(IFS=,; echo "${NS_HOSTS[*]:0:$n}")
	run -t 60 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 2 --map-by node "$TEST_TMP/p2p" $n
	expect_rc 0
	expect_out_count '^rank [0-9]+ of [0-9]+: ok$' $((2 * n))
done
exit 0
