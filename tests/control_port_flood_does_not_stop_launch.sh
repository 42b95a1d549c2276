#!/bin/bash
# control_port_flood_does_not_stop_launch: 1000 idle TCP connections to mpiexec's control port, made as soon as it listens and held open, with the launchers of 2 hosts (network namespaces) started only once they are: the node processes still connect and prove the secret, the job ends normally with every rank's line, mpiexec says it dropped connections for newer ones, and it does not spin meanwhile (under 0.8 s of CPU time over 4 quiet seconds, where a quiet mpiexec takes a few ms).
# timeout: 180
# serial: measures mpiexec's CPU time over a quiet period
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
command -v python3 >/dev/null || skip "no python3"

build hello <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, sum = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d sum %d\n", rank, sum);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
# A launcher agent that starts a node only once the flood is held.
cat >"$TEST_TMP/agent" <<AGENT
#!/bin/bash
while [ ! -e "$TEST_TMP/flooded" ]; do sleep 0.1; done
exec ip netns exec "\$@"
AGENT
chmod +x "$TEST_TMP/agent"

: >"$OUT"
ip netns exec "$NS_HEAD" "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" -H "$(netns_hosts)" -ppn 2 \
	"$TEST_TMP/hello" >"$OUT" 2>"$ERR" </dev/null &
job=$!
flood=
trap 'touch "$TEST_TMP/flooded"; kill $flood $job 2>/dev/null; netns_down' EXIT
addr=
for _ in $(seq 600); do
	addr=$(ip netns exec "$NS_HEAD" ss -Hltn 2>/dev/null | awk '{ print $4 }' | head -n 1)
	[ -n "$addr" ] && break
	sleep 0.1
done
[ -n "$addr" ] || { show; fail "mpiexec never listened"; }

mkfifo "$TEST_TMP/hold"
ip netns exec "$NS_HEAD" python3 "$SHOAL_TESTS/lib/idle_connections.py" "${addr%:*}" "${addr##*:}" \
	1000 <"$TEST_TMP/hold" >"$TEST_TMP/flood" 2>&1 &
flood=$!
exec 3>"$TEST_TMP/hold"
for _ in $(seq 900); do
	grep -q '^held' "$TEST_TMP/flood" && break
	kill -0 $flood 2>/dev/null || break
	sleep 0.1
done
grep -q '^held' "$TEST_TMP/flood" || { cat "$TEST_TMP/flood"; fail "the idle connections were not made"; }
cat "$TEST_TMP/flood"

cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
mpx=$job  # ip netns exec execs mpiexec
ticks=$(getconf CLK_TCK)
t0=$(cpu "$mpx")
sleep 4
t1=$(cpu "$mpx")
used=$(( (t1 - t0) * 1000 / ticks ))
echo "mpiexec: ${used} ms of CPU time over 4 s with the connections held"
[ "$used" -lt 800 ] || fail "mpiexec spins: $used ms of CPU time in 4 quiet seconds"

touch "$TEST_TMP/flooded"
await_exit $job "the job did not end with the connections held"
exec 3>&-
expect_rc 0
expect_out_count '^rank [0-3] sum 6$' 4
expect_err '^mpiexec: dropped [0-9]+ control connections that had not proved the job secret, the oldest first'
exit 0
