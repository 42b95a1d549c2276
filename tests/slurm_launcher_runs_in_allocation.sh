#!/bin/bash
# slurm_launcher_runs_in_allocation: inside a Slurm allocation (a real single-machine cluster the test starts: munged, slurmctld and two slurmd, nodes n1 and n2), mpiexec without hosts takes the allocation's nodes and starts one node process per node with srun; ranks see their world rank and their Slurm node; mpiexec's stdin reaches rank 0; --launcher slurm outside an allocation is refused clearly. Every daemon started is stopped.
# timeout: 150
. "$SHOAL_TESTS/lib/common.bash"

[ "$(id -u)" = 0 ] || skip "the test Slurm cluster runs its daemons as root"
for c in munged slurmctld slurmd salloc srun scontrol sinfo; do
	command -v $c >/dev/null || skip "no $c (apt-get install slurmd slurmctld slurm-client munge)"
done
# The daemons listen on ports of 127.0.0.1 chosen here: the test runs in a network namespace
# of its own, so no other test or program can hold them. An interface with an address (a
# veth pair) makes getaddrinfo's AI_ADDRCONFIG (the daemons' sockets) see IPv4 configured.
if [ -z "${SHOAL_SLURM_OWN_NET:-}" ]; then
	command -v unshare >/dev/null || skip "no unshare (util-linux)"
	SHOAL_SLURM_OWN_NET=1 exec unshare --net -- bash -c 'ip link set lo up &&
		ip link add v0 type veth peer name v1 && ip addr add 10.78.0.1/24 dev v0 &&
		ip link set v1 up && ip link set v0 up &&
		exec bash "$0"' "$0"
fi

# Outside an allocation --launcher slurm says why it cannot run.
build where <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size;
	char line[64] = "";
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0 && fgets(line, sizeof(line), stdin))
		line[strcspn(line, "\n")] = '\0';
	printf("rank %d of %d on %s slurm node %s stdin '%s'\n", rank, size, getenv("SHOAL_HOST"),
	       getenv("SLURMD_NODENAME") ? getenv("SLURMD_NODENAME") : "?", line);
	MPI_Finalize();
	return 0;
}
SRC
run env -u SLURM_JOB_ID "$MPIEXEC" --launcher slurm -n 2 "$TEST_TMP/where"
expect_rc 2
expect_err 'not inside a Slurm allocation'

# A cluster of its own: files in $TEST_TMP, 127.0.0.1 of its own network namespace.
D=$TEST_TMP/slurm
mkdir -p "$D/state" "$D/spool" "$D/log"
PIDS=()
stop_all() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
	done
	[ -f "$D/munged.pid" ] && kill "$(cat "$D/munged.pid")" 2>/dev/null
	return 0
}
trap stop_all EXIT
port=$((20000 + ($$ % 2000) * 4))
host=$(hostname -s)
dd if=/dev/urandom of="$D/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$D/munge.key"
munged -f --socket="$D/munge.sock" --key-file="$D/munge.key" --log-file="$D/munged.log" \
	--pid-file="$D/munged.pid" --seed-file="$D/munged.seed" 2>"$D/munged.err" ||
	skip "munged does not start: $(tail -n 1 "$D/munged.err")"
cat >"$D/slurm.conf" <<CONF
ClusterName=shoal$$
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
AuthType=auth/munge
AuthInfo=socket=$D/munge.sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd-%n.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=n1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$((port + 1)) CPUs=2 State=UNKNOWN
NodeName=n2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$((port + 2)) CPUs=2 State=UNKNOWN
PartitionName=test Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$D/slurm.conf

# Hosts and slots from the allocation's variables (scontrol expands the list; no daemon).
run env SLURM_JOB_ID=7 SLURM_JOB_NODELIST='x[1-3]' SLURM_TASKS_PER_NODE='2(x2),1' \
	"$MPIEXEC" --show-placement "$TEST_TMP/where"
expect_rc 0
[ "$(cat "$OUT")" = "$(printf 'x1: 0-1\nx2: 2-3\nx3: 4')" ] || { show; fail "placement from the allocation"; }
# An allocation of this host alone runs here, without srun (no daemon is up yet).
run env SLURM_JOB_ID=7 SLURM_JOB_NODELIST="$host" SLURM_TASKS_PER_NODE=3 "$MPIEXEC" "$TEST_TMP/where"
expect_rc 0
expect_out_count "^rank [0-2] of 3 on " 3
slurmctld -D -i >"$D/log/ctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N n1 >"$D/log/n1.out" 2>&1 &
PIDS+=($!)
slurmd -D -N n2 >"$D/log/n2.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
	[ "$(sinfo -h -o '%T' 2>/dev/null | sort -u)" = idle ] && break
	sleep 0.2
done
[ "$(sinfo -h -o '%T' 2>/dev/null | sort -u)" = idle ] ||
	skip "the test Slurm cluster did not come up: $(tail -n 2 "$D/log/ctld.out" "$D/log/n1.out" | tr '\n' ' ')"

# salloc -N 2: hosts n1 and n2 from the allocation, one node process each, by srun.
echo hello | timeout -k 5 90 salloc -N 2 "$MPIEXEC" --control-addr 127.0.0.1 -n 4 \
	"$TEST_TMP/where" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0
# One slot per node (SLURM_TASKS_PER_NODE=1(x2)): ranks 0, 2 on n1; 1, 3 on n2.
expect_out_count "^rank 0 of 4 on n1 slurm node n1 stdin 'hello'\$" 1
expect_out_count "^rank 2 of 4 on n1 slurm node n1 stdin ''\$" 1
expect_out_count "^rank 1 of 4 on n2 slurm node n2 stdin ''\$" 1
expect_out_count "^rank 3 of 4 on n2 slurm node n2 stdin ''\$" 1
# salloc -N 1 with the launcher named: all four ranks on n1 or n2, in one node process.
timeout -k 5 90 salloc -N 1 "$MPIEXEC" --launcher slurm --control-addr 127.0.0.1 -n 4 \
	"$TEST_TMP/where" >"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc 0
expect_out_count "^rank [0-3] of 4 on (n1|n2) slurm node (n1|n2) stdin ''\$" 4
[ "$(sed 's/.* on \(n.\) .*/\1/' "$OUT" | sort -u | wc -l)" = 1 ] || { show; fail "-N 1 used two nodes"; }
exit 0
