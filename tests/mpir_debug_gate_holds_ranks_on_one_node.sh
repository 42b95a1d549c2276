#!/bin/bash
# mpir_debug_gate_holds_ranks_on_one_node: when a debugger sets MPIR_being_debugged in mpiexec before the launch, no rank of a one-node job (-n 3) enters main until MPIR_debug_gate is set in the node process named by MPIR_proctable; then all 3 run and the job ends normally.
. "$SHOAL_TESTS/lib/common.bash"
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"

# First thing in main: leave a file in the directory argv[1] (the ranks' own count).
build marked < "$SHOAL_TESTS/lib/mpir_marked.c"

mkdir "$TEST_TMP/marks"
# Open the gate of the node process of rank 0 (mpir_gate_script).
mpir_gate_script "$TEST_TMP/marks" 0
run -t 50 gdb -batch -nx -x "$TEST_TMP/cmds" --args "$MPIEXEC" -n 3 "$TEST_TMP/marked" "$TEST_TMP/marks"
expect_out '^size=3 state=1$'
expect_out '^before=0$'
expect_out_count '^rank [0-2] ran$' 3
expect_out 'exited normally'
n=$(ls "$TEST_TMP/marks" | wc -l)
[ "$n" = 3 ] || { show; fail "$n ranks entered main after the gate opened (want 3)"; }
exit 0
