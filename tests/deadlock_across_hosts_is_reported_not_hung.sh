#!/bin/bash
# deadlock_across_hosts_is_reported_not_hung: on 2 hosts (network namespaces), a job whose every rank waits in MPI_Recv for a rank of the other host that never sends ends with status 125, naming "likely deadlock" and showing, per host, its ranks and the MPI_Recv each waits in; a job where one rank computes (sleeps) 4 s outside MPI while the others wait for it across hosts completes with 0 and no deadlock report; nor is a job a deadlock while every rank waits but a message is still on its way (its receiving node stopped for 4 s).
# timeout: 150
# asan: the hang report reads MPI_Recv's arguments with gdb, and in the ASan build `source` is optimized out of the frame (the line shows tag and comm only): the check of the line fails, not the report
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build dead <<'SRC'
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, v = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(argv[1], "inflight")) {
		/* Rank 0 sends once the test has stopped rank 1's node process, then waits for
		 * the answer: both wait in MPI while the message sits unread on rank 1's host. */
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			printf("ready\n");
			fflush(stdout);
			while (access(argv[2], F_OK) != 0)
				usleep(20 * 1000);
			MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
			MPI_Recv(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
		}
	} else if (!strcmp(argv[1], "recv")) {
		/* --map-by node: rank + 1 is on the other host. Nobody ever sends. */
		MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 0) {
		/* Slow, not deadlocked: rank 0 computes before it sends. */
		sleep(4);
		for (int r = 1; r < size; r++)
			MPI_Send(&v, 1, MPI_INT, r, 3, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
h1=${NS_HOSTS[0]} h2=${NS_HOSTS[1]}
export SHOAL_DEADLOCK_S=2
run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 --map-by node "$TEST_TMP/dead" recv
expect_rc 125
expect_err 'likely deadlock'
expect_err "$h1.*$h2|$h2.*$h1"
expect_err "host $h1 \\(node 0, ranks 0,2\\)"
expect_err "host $h2 \\(node 1, ranks 1,3\\)"
for r in 0 1 2 3; do
	expect_err "rank $r: waits to receive from $(((r + 1) % 4)), tag 7, on MPI_COMM_WORLD"
done
if command -v gdb >/dev/null; then
	for r in 0 1 2 3; do
		expect_err "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=$(((r + 1) % 4)), tag=7, comm=MPI_COMM_WORLD, count=1\\)"
	done
fi
expect_err 'job ended as a likely deadlock'

run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 --map-by node "$TEST_TMP/dead" slow
expect_rc 0
grep -q 'deadlock' "$ERR" && { show; fail "a rank busy outside MPI was called a deadlock"; }

# In flight: stop host 2's node process (the child of its proxy), let rank 0 send and wait
# for 4 s, twice SHOAL_DEADLOCK_S, then let it go on.
export SHOAL_DEADLOCK_S=1
timeout -k 5 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" "$TEST_TMP/dead" inflight \
	"$TEST_TMP/go" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
for _ in $(seq 300); do
	grep -q ready "$OUT" && break
	sleep 0.1
done
pids=$(ip netns pids "$h2")
node=
for p in $pids; do
	pp=$(ps -o ppid= -p "$p" | tr -d ' ')
	grep -qw -- "$pp" <<<"$pids" && node=$p
done
[ -n "$node" ] || { kill -KILL "$mpx"; RC=none; show; fail "no node process on $h2"; }
sleep 1  # rank 1 waits in MPI_Recv, and its node's watchdog has said so
kill -STOP "$node"
touch "$TEST_TMP/go"
sleep 4
kill -CONT "$node"
wait "$mpx"
RC=$?
expect_rc 0
grep -q 'deadlock' "$ERR" && { show; fail "a message in flight was called a deadlock"; }
exit 0
