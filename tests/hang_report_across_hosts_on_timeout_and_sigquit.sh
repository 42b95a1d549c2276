#!/bin/bash
# hang_report_across_hosts_on_timeout_and_sigquit: on 2 hosts (network namespaces), mpiexec --timeout prints from every host its ranks and the MPI call each waits in, then ends the job with 124; kill -QUIT on mpiexec prints the same from every host while a rank waits for a message sent later, and the job still finishes with 0.
# timeout: 150
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
command -v gdb >/dev/null || skip "gdb is not installed"

build late <<'SRC'
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, v[3] = { 0 };
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(argv[1], "never")) {
		/* Everyone receives first: only --timeout ends this. */
		MPI_Recv(v, 3, MPI_INT, (rank + 1) % size, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			printf("ready\n");
			fflush(stdout);
			while (access(argv[2], F_OK) != 0)  /* until the test has its report */
				usleep(10000);
			for (int r = 1; r < size; r++)
				MPI_Send(v, 3, MPI_INT, r, 5, MPI_COMM_WORLD);
		} else {
			MPI_Recv(v, 3, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
h1=${NS_HOSTS[0]} h2=${NS_HOSTS[1]}

# --timeout: a report from every host, then 124. No deadlock check: this job is one. The
# ranks block at once: 4 s leaves a loaded machine time to bring them there.
SHOAL_DEADLOCK_S=0 timeout -k 5 60 "${NETNS_MPIEXEC[@]}" --timeout 4 -H "$(netns_hosts)" \
	-ppn 2 --map-by node "$TEST_TMP/late" never >"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc 124
expect_err 'hang report \(--timeout 4 s expired\)'
expect_err "host $h1 \\(node 0, ranks 0,2\\)"
expect_err "host $h2 \\(node 1, ranks 1,3\\)"
for r in 0 1 2 3; do
	expect_err "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=$(((r + 1) % 4)), tag=4, comm=MPI_COMM_WORLD, count=3\\)"
done
expect_err 'job ended by --timeout after 4 s'

# SIGQUIT: a report from every host while ranks 1-3 wait for rank 0, which sends once the
# test has seen the report (or given up on it, after a minute); the job goes on.
go=$TEST_TMP/go
timeout -k 5 120 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 --map-by node \
	"$TEST_TMP/late" later "$go" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
for _ in $(seq 600); do
	grep -q ready "$OUT" && break
	sleep 0.1
done
grep -q ready "$OUT" || { kill -KILL "$mpx"; RC=none; show; fail "the job did not start"; }
# `timeout` runs `ip netns exec`, which became mpiexec.
kill -QUIT "$(pgrep -P "$mpx")"
for _ in $(seq 600); do
	[ "$(grep -Ec '^[ *] [123] +[0-9]+ +in MPI_Recv\(source=0, tag=5' "$ERR")" -ge 3 ] && break
	sleep 0.1
done
touch "$go"
wait "$mpx"
RC=$?
expect_rc 0
expect_err 'hang report \(SIGQUIT\)'
expect_err "host $h1 \\(node 0, ranks 0,2\\)"
expect_err "host $h2 \\(node 1, ranks 1,3\\)"
for r in 1 2 3; do
	expect_err "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=0, tag=5, comm=MPI_COMM_WORLD, count=3\\)"
done
exit 0
