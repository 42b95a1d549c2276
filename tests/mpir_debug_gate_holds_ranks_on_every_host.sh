#!/bin/bash
# mpir_debug_gate_holds_ranks_on_every_host: on 2 hosts (network namespaces, -ppn 2), when a debugger sets MPIR_being_debugged in mpiexec before the launch, no rank on either host enters main until MPIR_debug_gate is set in each node process named by MPIR_proctable; then all 4 run and the job ends normally.
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"

# First thing in main: leave a file in the directory argv[1] (the ranks' own count).
build marked < "$SHOAL_TESTS/lib/mpir_marked.c"

netns_up 2
mkdir "$TEST_TMP/marks"
# Open the gate of the node process of rank 0 (host 1) and of rank 2 (host 2) (mpir_gate_script).
mpir_gate_script "$TEST_TMP/marks" 0 2
run -t 70 ip netns exec "$NS_HEAD" gdb -batch -nx -x "$TEST_TMP/cmds" --args \
	"${NETNS_MPIEXEC[@]:4}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/marked" "$TEST_TMP/marks"
expect_out '^size=4 state=1$'
expect_out '^before=0$'
expect_out_count '^rank [0-3] ran$' 4
expect_out 'exited normally'
n=$(ls "$TEST_TMP/marks" | wc -l)
[ "$n" = 4 ] || { show; fail "$n ranks entered main after the gates opened (want 4)"; }
exit 0
