#!/bin/bash
# comm_free_across_hosts_keeps_node_memory_flat: 4 ranks on 2 hosts (network namespaces) make and free communicators across hosts in a loop (MPI_Comm_dup, MPI_Comm_split, MPI_Comm_free of both) for 100000 rounds after 2000 rounds of warm-up; the resident memory of the node process of each host grows by less than 1 MiB over the 100000 rounds (a communicator's state kept after its free, ~125 bytes a round, would grow it by 12 MiB).
# timeout: 1200
# serial: 100000 rounds of round trips between hosts; beside other tests on a loaded machine they take many times the 50 s they take alone
# asan: ASan's quarantine holds freed memory back, which is what this test measures
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

ROUNDS=${SHOAL_TEST_ROUNDS:-100000}
BOUND_KB=1024

build rounds <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <mpi.h>
static void rounds(long n)
{
	for (long i = 0; i < n; i++) {
		MPI_Comm d, s;
		int rank;
		MPI_Comm_dup(MPI_COMM_WORLD, &d);
		MPI_Comm_rank(d, &rank);
		MPI_Comm_split(d, rank % 2, -rank, &s);
		MPI_Comm_free(&s);
		MPI_Comm_free(&d);
	}
}
static void wait_for(const char *dir, const char *name)
{
	char f[4096];
	snprintf(f, sizeof(f), "%s/%s", dir, name);
	while (access(f, F_OK) != 0)
		usleep(20000);
}
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	rounds(atol(argv[2]));
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d warm\n", rank);
	fflush(stdout);
	wait_for(argv[1], "go1");
	rounds(atol(argv[3]));
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d done\n", rank);
	fflush(stdout);
	wait_for(argv[1], "go2");
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
: >"$OUT"
"${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/rounds" "$TEST_TMP" 2000 "$ROUNDS" \
	>"$OUT" 2>"$ERR" </dev/null &
job=$!
trap 'touch "$TEST_TMP/go1" "$TEST_TMP/go2"; kill $job 2>/dev/null; netns_down' EXIT

# node_rss HOST: the resident KiB of the node process (the shoal-node a shoal-node forked).
node_rss() {
	local p
	for p in $(ip netns pids "$1"); do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = shoal-node ] || continue
		[ "$(cat /proc/$(awk '{ print $4 }' /proc/$p/stat)/comm 2>/dev/null)" = shoal-node ] || continue
		awk '/^VmRSS:/ { print $2 }' /proc/$p/status
		return
	done
}

await_out_count '^rank [0-3] warm$' 4 120 || { show; fail "the warm-up rounds did not end"; }
before=()
for h in "${NS_HOSTS[@]}"; do before+=("$(node_rss "$h")"); done
touch "$TEST_TMP/go1"
await_out_count '^rank [0-3] done$' 4 240 || { show; fail "$ROUNDS rounds did not end"; }
i=0
for h in "${NS_HOSTS[@]}"; do
	after=$(node_rss "$h")
	[ -n "${before[$i]}" ] && [ -n "$after" ] || fail "no node process on $h"
	grew=$((after - before[i]))
	echo "node on $h: $((before[i])) KiB -> $after KiB (+$grew KiB over $ROUNDS rounds)"
	[ "$grew" -lt "$BOUND_KB" ] ||
		fail "the node on $h grew by $grew KiB over $ROUNDS rounds (bound $BOUND_KB KiB)"
	i=$((i + 1))
done
touch "$TEST_TMP/go2"
await_exit $job "the job did not end"
expect_rc 0
exit 0
