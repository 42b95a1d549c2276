#!/bin/bash
# peer_mesh_route_cut_is_noticed_by_a_node: on 2 hosts (network namespaces) with SHOAL_PEER_TIMEOUT=5 and messages running around a ring between them, a blackhole route in one host to the other (the mesh between them cut, each host's control channel to mpiexec intact, so mpiexec hears every host) ends the job with a non-zero status and a message from a node naming the host whose node stopped answering and its own; nothing is left in any namespace.
# timeout: 200
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
build ring <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size;
	static char out[1024], in[1024];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (long i = 0;; i++) {
		MPI_Sendrecv(out, sizeof(out), MPI_CHAR, (rank + 1) % size, 0, in, sizeof(in),
			     MPI_CHAR, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (i == 100) { printf("rank %d rings\n", rank); fflush(stdout); }
		usleep(5000);
	}
}
SRC
netns_up 2
h1=${NS_HOSTS[0]} h2=${NS_HOSTS[1]}
export SHOAL_PEER_TIMEOUT=5
"${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/ring" >"$OUT" 2>"$ERR" </dev/null &
job=$!
await_out_count rings 4 120 || { kill -KILL $job; show; fail "the ring did not start"; }
# h1's packets to h2 are dropped: h2's frames to h1 are never acknowledged, nor h1's sent.
ip -n "$h1" route add blackhole "$NS_NET.3/32"
# A limit for a job that never ends, however loaded the machine.
for _ in $(seq 1200); do
	kill -0 $job 2>/dev/null || break
	sleep 0.1
done
kill -0 $job 2>/dev/null && { kill -KILL $job; show; fail "job still running 120 s after the mesh was cut"; }
wait $job
RC=$?
expect_nonzero
expect_err "shoal: host $NS_NET\\.[23] \\(node [01]\\) stopped answering \\(no reply for [0-9]+ s, SHOAL_PEER_TIMEOUT\\); noticed by host ($h1|$h2) \\(node [01]\\)"
expect_out_count rings 4
cat "$ERR"
netns_nothing_left
exit 0
