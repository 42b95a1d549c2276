#!/bin/bash
# peer_link_down_ends_job_naming_host: on 2 hosts (network namespaces) with SHOAL_PEER_TIMEOUT=5, a host that starts 8 s after the other does not end the job, 64 ranks (32 a host, on 2 cores) that compute for 12 s without communicating are not taken for gone; then, with messages running around a ring between the hosts, `ip link set eth0 down` in one host's namespace ends the job (well within 60 s: a bound of 5 s with a generous margin) with a non-zero status and a message naming the host that stopped answering and the host that noticed; the ranks' output is all there and no process of the job is left in any namespace.
# timeout: 240
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build ring <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size;
	static char out[1024], in[1024];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* Computing, with no message, for longer than the bound: 64 ranks on 2 cores keep
	 * them busy, so the answers to PING and the mesh's watch run on a loaded machine. */
	double t0 = MPI_Wtime();
	volatile unsigned long spin = 0;
	while (MPI_Wtime() - t0 < atoi(argv[1]))
		for (int k = 0; k < 100000; k++)
			spin++;
	printf("rank %d ready\n", rank);
	fflush(stdout);
	for (long i = 0;; i++) {
		MPI_Sendrecv(out, sizeof(out), MPI_CHAR, (rank + 1) % size, 0, in, sizeof(in),
			     MPI_CHAR, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		if (i == 100) {
			printf("rank %d rings\n", rank);
			fflush(stdout);
		}
		usleep(5000);
	}
}
SRC

netns_up 2
h2=${NS_HOSTS[1]}
export SHOAL_PEER_TIMEOUT=5

# The second host starts 8 s late (a slow ssh): the first, waiting for PEERS meanwhile, is
# neither pinged in the middle of its handshake nor taken for gone.
cat >"$TEST_TMP/agent" <<AGENT
#!/bin/sh
[ "\$1" = "$h2" ] && sleep 8
exec ip netns exec "\$@"
AGENT
chmod +x "$TEST_TMP/agent"
ip netns exec "$NS_HEAD" "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H "$(netns_hosts)" -ppn 32 \
	"$TEST_TMP/ring" 12 >"$OUT" 2>"$ERR" </dev/null &
job=$!
if ! await_out_count rings 64 120; then
	kill -KILL $job
	wait $job
	RC=$?
	show
	fail "the ring did not run on every rank (a rank computing past the bound taken for gone?)"
fi
kill -0 $job 2>/dev/null || { show; fail "job ended before the link went down"; }
down=$(date +%s)
ip -n "$h2" link set eth0 down
# A limit for a job that never ends, however loaded the machine.
for _ in $(seq 1200); do
	kill -0 $job 2>/dev/null || break
	sleep 0.1
done
kill -0 $job 2>/dev/null && { kill -KILL $job; show; fail "job still running 120 s after the link went down"; }
wait $job
RC=$?
took=$(($(date +%s) - down))
expect_nonzero
# mpiexec or the other host's node may notice first; either names both hosts (the node by
# its address: it knows no host names).
expect_err "shoal: host ($h2|$NS_NET\\.3) (\\(node 1\\) )?stopped answering \\(no reply for [0-9]+ s, SHOAL_PEER_TIMEOUT\\); noticed by host [^ ]+"
expect_out_count "ready" 64
expect_out_count "rings" 64
[ "$took" -lt 60 ] || { show; fail "the silence was noticed after $took s, with a bound of 5 s"; }
echo "link down noticed, job ended, $took s after:"
cat "$ERR"
netns_nothing_left
exit 0
