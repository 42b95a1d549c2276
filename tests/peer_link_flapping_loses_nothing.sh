#!/bin/bash
# peer_link_flapping_loses_nothing: on 2 hosts (network namespaces) with the default SHOAL_PEER_TIMEOUT (30 s), a link that goes down for half a second every second, 20 times, while 64 MiB go from one host to the other and back, round after round, is survived with every byte right (outages shorter than the bound lose nothing and end nothing); once the link stays down, the job ends with a non-zero status naming the host that stopped answering, and no process of the job is left in any namespace.
# timeout: 400
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build bounce <<'SRC'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <mpi.h>
#define N (64 << 20)
/* 64 MiB from rank 0 to rank 1 and back, checked on both, round after round until the file
 * argv[1] exists; then a message back and forth every 10 ms, for ever. */
int main(int argc, char **argv)
{
	int rank, go = 1, v = 0;
	uint32_t *buf = malloc(N);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int round = 1; go; round++) {
		if (rank == 0) {
			go = access(argv[1], F_OK) != 0;
			for (size_t i = 0; i < N / 4; i++)
				buf[i] = (uint32_t)(i * 2654435761u + round);
		}
		MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (!go)
			break;
		if (rank == 0) {
			MPI_Send(buf, N, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
			for (size_t i = 0; i < N / 4; i++)
				buf[i] = 0;
			MPI_Recv(buf, N, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, N, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		for (size_t i = 0; i < N / 4; i++)
			if (buf[i] != (uint32_t)(i * 2654435761u + round)) {
				printf("rank %d round %d: word %zu wrong\n", rank, round, i);
				return 1;
			}
		if (rank == 1)
			MPI_Send(buf, N, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
		printf("rank %d round %d verified\n", rank, round);
		fflush(stdout);
	}
	printf("rank %d bounces\n", rank);
	fflush(stdout);
	for (;;) {
		if (rank == 0) {
			MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		}
		usleep(10000);
	}
}
SRC

netns_up 2
h2=${NS_HOSTS[1]}
# The default bound. Each outage is half a second, but on a loaded machine the `ip` commands
# stretch it, and TCP's retransmissions back off (0.2 s, 0.4, 0.8...): the longest silence
# is seconds, not the outage.
unset SHOAL_PEER_TIMEOUT

"${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 1 "$TEST_TMP/bounce" "$TEST_TMP/stop" >"$OUT" 2>"$ERR" </dev/null &
job=$!
await_out_count "rank 0 round 1 verified" 1 120 || { kill -KILL $job; show; fail "the transfers did not start"; }
# Down half a second every second, 20 times, while the 64 MiB go back and forth.
before=$(grep -c "rank 0 round" "$OUT")
for _ in $(seq 20); do
	kill -0 $job 2>/dev/null || break
	ip -n "$h2" link set eth0 down
	sleep 0.5
	ip -n "$h2" link set eth0 up
	sleep 0.5
done
kill -0 $job 2>/dev/null || { wait $job; RC=$?; show; fail "the job ended while the link flapped"; }
during=$(($(grep -c "rank 0 round" "$OUT") - before))
touch "$TEST_TMP/stop"
# The round under way ends, then the small messages run (a limit for a transfer that never
# ends, however loaded the machine).
await_out_count "bounces" 2 120 || { kill -KILL $job; show; fail "the transfers did not end after the link flapped"; }
expect_out_count "wrong" 0
[ "$during" -ge 1 ] || { show; fail "no transfer of 64 MiB completed while the link flapped"; }
echo "$during rounds of 64 MiB there and back verified while the link flapped 20 times"
sleep 2
kill -0 $job 2>/dev/null || { wait $job; RC=$?; show; fail "the job ended after the link flapped"; }

ip -n "$h2" link set eth0 down
for _ in $(seq 1200); do
	kill -0 $job 2>/dev/null || break
	sleep 0.1
done
kill -0 $job 2>/dev/null && { kill -KILL $job; show; fail "job still running 120 s after the link went down for good"; }
wait $job
RC=$?
expect_nonzero
expect_err "shoal: host ($h2|$NS_NET\\.3) (\\(node 1\\) )?stopped answering \\(no reply for [0-9]+ s, SHOAL_PEER_TIMEOUT\\); noticed by host [^ ]+"
netns_nothing_left
exit 0
