#!/bin/bash
# one_host_job_runs_through_a_node_proxy_without_a_port: a job on this host alone runs as a job of one host: mpiexec forks the node's proxy (shoal-node --connect fd:N, on a socketpair), which forks the node process; mpiexec listens on no TCP port and the node opens no mesh listener; SIGTERM to mpiexec ends all three with status 143.
. "$SHOAL_TESTS/lib/common.bash"

build stuck <<'SRC'
#include <mpi.h>
int main(int argc, char **argv)
{
	int v;
	MPI_Init(&argc, &argv);
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC
export SHOAL_DEADLOCK_S=0

"$MPIEXEC" -n 3 "$TEST_TMP/stuck" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
trap 'kill -KILL $mpx 2>/dev/null; wait' EXIT
proxy= node=
for _ in $(seq 600); do  # a minute at most, for a loaded machine
	proxy=$(pgrep -P "$mpx" shoal-node) && break
	sleep 0.1
done
[ -n "$proxy" ] || fail "mpiexec started no shoal-node"
tr '\0' ' ' <"/proc/$proxy/cmdline" | grep -Eq -- '--connect fd:[0-9]+ ' ||
	fail "mpiexec's child is not a node proxy on a socketpair: $(tr '\0' ' ' <"/proc/$proxy/cmdline")"
for _ in $(seq 600); do
	node=$(pgrep -P "$proxy" shoal-node) && break
	sleep 0.1
done
[ -n "$node" ] || fail "the proxy forked no node process"
# Wait until the ranks run (threads named "rank N") before looking at sockets.
for _ in $(seq 600); do
	[ "$(cat /proc/"$node"/task/*/comm 2>/dev/null | grep -c '^rank ')" -ge 3 ] && break
	sleep 0.1
done

# listening_sockets PID: how many of PID's sockets are TCP listeners (IPv4 or IPv6).
listening_sockets() {
	local inodes
	inodes=$(awk 'NR > 1 && $4 == "0A" { print $10 }' /proc/net/tcp /proc/net/tcp6)
	for fd in /proc/"$1"/fd/*; do
		readlink "$fd" 2>/dev/null
	done | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p' | grep -cxF -f <(echo "$inodes"; echo none) || true
}
for p in "$mpx" "$proxy" "$node"; do
	n=$(listening_sockets "$p")
	[ "$n" = 0 ] || fail "process $p ($(cat /proc/"$p"/comm)) listens on $n TCP port(s)"
done

kill -TERM "$mpx"
wait "$mpx"
RC=$?
trap - EXIT
expect_rc 143
for p in "$proxy" "$node"; do
	for _ in $(seq 300); do
		kill -0 "$p" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$p" 2>/dev/null && fail "process $p outlived mpiexec"
done
exit 0
