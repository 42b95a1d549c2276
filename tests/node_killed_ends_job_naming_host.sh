#!/bin/bash
# node_killed_ends_job_naming_host: in a job on 2 hosts (network namespaces), SIGKILL to one host's node process ends the whole job, with status 137 and a message naming the host and its ranks; no process of the job is left in any namespace; killing a node proxy instead ends the job as a lost node, and its job directory is removed by the next job on that host.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build forever <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d waiting\n", rank);
	fflush(stdout);
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
h2=${NS_HOSTS[1]}

# start_job: the job in the background, $job its pid, once all 4 ranks wait.
start_job() {
	: >"$OUT"  # not the last job's lines: the redirection below may come after the first look
	"${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/forever" >"$OUT" 2>"$ERR" </dev/null &
	job=$!
	await_out_count waiting 4 && return 0
	kill -KILL $job
	show
	fail "job did not start"
}

# node_pids NS: shoal-node processes in NS as "pid ppid" lines.
node_pids() {
	local p
	for p in $(ip netns pids "$1"); do
		ps -o pid=,ppid= -p "$p"
	done
}

# wait_end MAX_S: the job must end, within MAX_S seconds (a limit for a job that never
# ends, however loaded the machine); sets RC.
wait_end() {
	local i
	for i in $(seq $(($1 * 10))); do
		kill -0 $job 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $job 2>/dev/null; then
		kill -KILL $job
		show
		fail "job still running $1 s after the kill"
	fi
	wait $job
	RC=$?
}

# The node process proper is the child of the proxy, both in h2.
start_job
pids=$(node_pids "$h2")
node=$(echo "$pids" | awk 'NR == FNR { p[$1] = 1; next } ($2 in p) { print $1 }' - <(echo "$pids"))
[ -n "$node" ] || { echo "$pids"; fail "no node process found in $h2"; }
kill -KILL $node
wait_end 60
expect_rc 137
expect_err "node process on host $h2 \\(ranks 2-3\\) killed by signal KILL"
netns_nothing_left

# The proxy (the launcher's process) dies: the node is lost.
start_job
# One listing, read twice: two `ip netns pids` at once can each miss the other's ps and fail.
pids=$(node_pids "$h2")
proxy=$(echo "$pids" | awk 'NR == FNR { p[$1] = 1; next } !($2 in p) { print $1 }' - <(echo "$pids"))
kill -KILL $proxy
wait_end 60
expect_nonzero
expect_err "lost node process on host $h2 \\(ranks 2-3\\)"
netns_nothing_left

# The killed proxy could not remove its job directory; the next job on that host does. Any
# proxy starting on this machine sweeps it: one of another test may get there first.
left=$(ls -d /dev/shm/shoal-node-$proxy-* /tmp/shoal-node-$proxy-* 2>/dev/null)
[ -n "$left" ] || echo "another job's proxy removed the killed proxy's job directory first"
build quick <<'SRC'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }
SRC
run -t 60 "${NETNS_MPIEXEC[@]}" -H "$h2" "$TEST_TMP/quick"
expect_rc 0
for d in $left; do [ -e "$d" ] && fail "stale job directory $d not removed"; done
exit 0
