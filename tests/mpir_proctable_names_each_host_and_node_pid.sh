#!/bin/bash
# mpir_proctable_names_each_host_and_node_pid: on 2 hosts (network namespaces, -ppn 2), a debugger breaking on MPIR_Breakpoint in mpiexec reads MPIR_proctable with one entry per rank naming its host as given with -H, the program, and the pid of that host's node process (the live shoal-node in the host's namespace whose threads are its ranks): ranks of one host share it, the hosts' differ.
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
# The ranks sleep on purpose while gdb looks at the job: no deadlock check.
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"

# Each rank sleeps (up to 20 s) so its node process is alive while gdb holds mpiexec.
build idle <<'SRC'
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = 0; i < 200 && access(argv[1], F_OK) != 0; i++)
		usleep(100 * 1000);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
# Run by gdb at the breakpoint, with mpiexec stopped: for each host, every process in its
# namespace as "PID COMM RANK_THREADS", once both of its ranks run as threads (or 10 s).
cat >"$TEST_TMP/look" <<SH
#!/bin/bash
for ns in ${NS_HOSTS[*]}; do
	for i in \$(seq 100); do
		n=0
		for p in \$(ip netns pids \$ns); do
			n=\$((n + \$(cat /proc/\$p/task/*/comm 2>/dev/null | grep -c '^rank ')))
		done
		[ \$n -ge 2 ] && break
		sleep 0.1
	done
	for p in \$(ip netns pids \$ns); do
		echo "proc \$ns \$p \$(cat /proc/\$p/comm) \$(cat /proc/\$p/task/*/comm 2>/dev/null | grep -c '^rank ')"
	done
done
SH
chmod +x "$TEST_TMP/look"
cat >"$TEST_TMP/cmds" <<GDB
break MPIR_Breakpoint
run
printf "size=%d state=%d\n", MPIR_proctable_size, MPIR_debug_state
set \$i = 0
while \$i < MPIR_proctable_size
  printf "entry %d %s %s %d\n", \$i, MPIR_proctable[\$i].host_name, MPIR_proctable[\$i].executable_name, MPIR_proctable[\$i].pid
  set \$i = \$i + 1
end
shell $TEST_TMP/look
kill
GDB
run -t 70 ip netns exec "$NS_HEAD" gdb -batch -nx -x "$TEST_TMP/cmds" --args \
	"${NETNS_MPIEXEC[@]:4}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/idle" "$TEST_TMP/done"
expect_out '^size=4 state=1$'
h1=${NS_HOSTS[0]} h2=${NS_HOSTS[1]}
declare -A pid
for r in 0 1 2 3; do
	want=$([ $r -lt 2 ] && echo "$h1" || echo "$h2")
	line=$(grep -E "^entry $r " "$OUT")
	read -r _ _ host exe p <<<"$line"
	[ "$host" = "$want" ] && [ "$exe" = "$TEST_TMP/idle" ] ||
		{ show; fail "rank $r: host '$host' program '$exe' (want $want $TEST_TMP/idle)"; }
	grep -Eq "^proc $want $p shoal-node 2\$" "$OUT" ||
		{ show; fail "rank $r: pid '$p' is not the shoal-node running 2 ranks in $want"; }
	pid[$r]=$p
done
[ "${pid[0]}" = "${pid[1]}" ] && [ "${pid[2]}" = "${pid[3]}" ] && [ "${pid[0]}" != "${pid[2]}" ] ||
	{ show; fail "pids ${pid[*]}: want one per host, shared by its ranks"; }
exit 0
