#!/bin/bash
# mesh_port_flood_leaves_ranks_their_descriptors: 4 ranks on 2 hosts (network namespaces, connections made on first use, a soft limit of 1024 descriptors as many systems give): while 1000 idle TCP connections to the mesh port of the second host's node are held open from another host, and 20 more made once the ranks have opened their files, that node does not spin (under 0.8 s of CPU time over 4 quiet seconds, where a quiet node takes a few tens of ms), each rank's own 200 fopen calls all succeed, and the hosts' nodes then connect to each other and the job ends with the right values.
# timeout: 180
# serial: measures a node's CPU time over a quiet period
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
command -v python3 >/dev/null || skip "no python3"

build files <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
#define FILES 200
static void wait_for(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	while (access(path, F_OK) != 0)
		usleep(20000);
}
int main(int argc, char **argv)
{
	int rank, size, got = -1, sum = 0, failed = 0;
	char path[4096];
	FILE *f[FILES];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	printf("rank %d up\n", rank);
	fflush(stdout);
	wait_for(argv[1], "go1");
	for (int i = 0; i < FILES; i++) {
		snprintf(path, sizeof(path), "%s/f.%d.%d", argv[1], rank, i);
		if ((f[i] = fopen(path, "w")) == NULL)
			failed++;
	}
	printf("rank %d opened\n", rank);
	fflush(stdout);
	wait_for(argv[1], "go2");
	for (int i = 0; i < FILES; i++)
		if (f[i] != NULL)
			fclose(f[i]);
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
		     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d fopen failures %d got %d sum %d\n", rank, failed, got, sum);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
: >"$OUT"
(ulimit -Sn 1024; SHOAL_CONNECT=lazy exec "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 \
	"$TEST_TMP/files" "$TEST_TMP") >"$OUT" 2>"$ERR" </dev/null &
job=$!
trap 'touch "$TEST_TMP/go1" "$TEST_TMP/go2"; kill $flood $late $job 2>/dev/null; netns_down' EXIT
flood= late=
await_out_count '^rank [0-3] up$' 4 || { show; fail "the job did not start"; }
h2=${NS_HOSTS[1]}
# The node process of h2: the shoal-node whose parent is a shoal-node (its proxy).
node=
for p in $(ip netns pids "$h2"); do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = shoal-node ] || continue
	[ "$(cat /proc/$(awk '{ print $4 }' /proc/$p/stat)/comm 2>/dev/null)" = shoal-node ] && node=$p
done
[ -n "$node" ] || fail "no node process on $h2"
port=$(ip netns exec "$h2" ss -Hltn | awk '{ n = split($4, a, ":"); print a[n] }' | head -n 1)
[ -n "$port" ] || fail "no mesh listener on $h2"

mkfifo "$TEST_TMP/hold"
ip netns exec "$NS_HEAD" python3 "$SHOAL_TESTS/lib/idle_connections.py" "$NS_NET.3" "$port" 1000 \
	<"$TEST_TMP/hold" >"$TEST_TMP/flood" 2>&1 &
flood=$!
exec 3>"$TEST_TMP/hold"
for _ in $(seq 900); do
	grep -q '^connecting' "$TEST_TMP/flood" && break
	kill -0 $flood 2>/dev/null || break
	sleep 0.1
done
grep -q '^connecting' "$TEST_TMP/flood" || { cat "$TEST_TMP/flood"; fail "the idle connections were not made"; }

# The ranks open their files while the connections come (each has 10 s to greet), and hold
# them: the node's descriptors are the ranks' files, the idle connections it keeps and the
# ones waiting on its listener.
sleep 2
touch "$TEST_TMP/go1"
await_out_count '^rank [0-3] opened$' 4 || { show; fail "the ranks did not open their files"; }

# 20 more: on a node out of descriptors they would wait on its listener, readable for good.
ip netns exec "$NS_HEAD" python3 "$SHOAL_TESTS/lib/idle_connections.py" "$NS_NET.3" "$port" 20 \
	<"$TEST_TMP/hold" >"$TEST_TMP/late" 2>&1 &
late=$!
for _ in $(seq 900); do
	grep -q '^held' "$TEST_TMP/late" && break
	kill -0 $late 2>/dev/null || break
	sleep 0.1
done

# A quiet period: the ranks sleep waiting for go2, the connections stay idle.
cpu() { awk '{ print $14 + $15 }' "/proc/$node/stat"; }
ticks=$(getconf CLK_TCK)
sleep 1
t0=$(cpu)
sleep 4
t1=$(cpu)
used=$(( (t1 - t0) * 1000 / ticks ))
echo "node on $h2: ${used} ms of CPU time over 4 s, $(ls "/proc/$node/fd" | wc -l) descriptors open"
cat "$TEST_TMP/flood" "$TEST_TMP/late"
[ "$used" -lt 800 ] || fail "the node on $h2 spins: $used ms of CPU time in 4 quiet seconds"

touch "$TEST_TMP/go2"
await_exit $job "the job did not end with the connections held"
exec 3>&-
expect_rc 0
expect_out_count '^rank [0-3] fopen failures 0 got [0-3] sum 6$' 4
expect_err 'node 1 \(host [^)]*\): dropped [0-9]+ mesh connections that had not greeted, the oldest first' 
for r in 0 1 2 3; do
	expect_out "^rank $r fopen failures 0 got $(( (r + 3) % 4 )) sum 6$"
done
exit 0
