#!/bin/bash
# peer_stopped_node_proxy_or_mpiexec_ends_job: on 2 hosts (network namespaces) with SHOAL_PEER_TIMEOUT=5 and messages running around a ring between them, SIGSTOP of one host's node process, or of its node proxy, ends the job with a non-zero status and a message naming that host as stopped answering and the host that noticed (the ranks' unfinished lines written out); SIGSTOP of mpiexec itself makes every host end its node process and proxy (none left in any host's namespace while mpiexec stays stopped, each saying mpiexec stopped answering), and mpiexec, continued, ends non-zero saying why; nothing is left behind.
# timeout: 300
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
			     MPI_CHAR, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		if (i == 100) {
			printf("rank %d rings\n", rank);
			printf("rank %d unfinished", rank);  /* written out when the node ends */
			fflush(stdout);
		}
		usleep(5000);
	}
}
SRC

netns_up 2
h1=${NS_HOSTS[0]} h2=${NS_HOSTS[1]}
export SHOAL_PEER_TIMEOUT=5

# start_ring: the job in the background, $job its pid (mpiexec's: ip netns exec execs it),
# once every rank has run messages around the ring.
start_ring() {
	: >"$OUT"
	"${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/ring" >"$OUT" 2>"$ERR" </dev/null &
	job=$!
	await_out_count rings 4 120 && return 0
	kill -KILL $job
	show
	fail "the ring did not start"
}

# await_end WHAT: the job must end (120 s: a limit for a job that never ends, however loaded
# the machine); sets RC.
await_end() {
	for _ in $(seq 1200); do
		kill -0 $job 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $job 2>/dev/null; then
		kill -CONT $job
		kill -KILL $job
		show
		fail "job still running 120 s after $1"
	fi
	wait $job
	RC=$?
}

# The node process proper is the child of the proxy, both in h2.
start_ring
pids=$(for p in $(ip netns pids "$h2"); do ps -o pid=,ppid= -p "$p"; done)
node=$(echo "$pids" | awk 'NR == FNR { p[$1] = 1; next } ($2 in p) { print $1 }' - <(echo "$pids"))
[ -n "$node" ] || { echo "$pids"; fail "no node process found in $h2"; }
kill -STOP $node
await_end "SIGSTOP of the node process on $h2"
expect_nonzero
# Its proxy, or the other host's node (naming it by address), notices.
expect_err "shoal: host ($h2|$NS_NET\\.3) .*stopped answering.*SHOAL_PEER_TIMEOUT\\); noticed by host [^ ]+"
expect_out_count rings 4
# Every node, the stopped one too (continued to end), wrote out its ranks' unfinished lines.
n=$(grep -o "rank [0-9] unfinished" "$OUT" | wc -l)
[ "$n" = 4 ] || { show; fail "expected the 4 ranks' unfinished lines, got $n"; }
cat "$ERR"
netns_nothing_left "after SIGSTOP of a node process"

# The proxy stopped (its node runs on): mpiexec hears nothing from that host.
start_ring
pids=$(for p in $(ip netns pids "$h2"); do ps -o pid=,ppid= -p "$p"; done)
proxy=$(echo "$pids" | awk 'NR == FNR { p[$1] = 1; next } !($2 in p) { print $1 }' - <(echo "$pids"))
[ -n "$proxy" ] || { echo "$pids"; fail "no node proxy found in $h2"; }
kill -STOP $proxy
await_end "SIGSTOP of the node proxy on $h2"
expect_nonzero
expect_err "shoal: host $h2 stopped answering \\(no reply for [0-9]+ s, SHOAL_PEER_TIMEOUT\\); noticed by host [^ ]+ \\(mpiexec\\)"
expect_out_count rings 4
cat "$ERR"
netns_nothing_left "after SIGSTOP of a node proxy"

# mpiexec stopped: every host ends its part of the job by itself.
start_ring
kill -STOP $job
for _ in $(seq 1200); do
	[ -z "$(ip netns pids "$h1")$(ip netns pids "$h2")" ] && break
	sleep 0.1
done
left=$(ip netns pids "$h1")$(ip netns pids "$h2")
if [ -n "$left" ]; then
	kill -CONT $job
	kill -KILL $job
	ps -o pid,args -p "$(echo $left | tr ' ' ',')"
	fail "processes left on the hosts 120 s after mpiexec was stopped"
fi
for h in "$h1" "$h2"; do
	expect_err "shoal: mpiexec \\(host $NS_NET\\.1\\) stopped answering \\(no reply for [0-9]+ s, SHOAL_PEER_TIMEOUT\\); noticed by host $h "
done
kill -CONT $job
await_end "mpiexec was continued"
expect_nonzero
# Continued, it finds the hosts gone (or, after a stop of the whole bound, knows they are).
expect_err "shoal: .*mpiexec \\(host [^ ]+\\) did not run for [0-9]+ s"
cat "$ERR"
netns_nothing_left "after SIGSTOP of mpiexec"
exit 0
