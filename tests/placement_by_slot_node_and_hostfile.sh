#!/bin/bash
# placement_by_slot_node_and_hostfile: mpiexec --show-placement maps world ranks on hosts from --host/-H lists and hostfiles (slots=N, host:N, comments), -ppn and --map-by slot|node, wrapping past the slots; bad lists are refused; a job without hosts stays on this host.
. "$SHOAL_TESTS/lib/common.bash"

build p <<'SRC'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }
SRC
P=$TEST_TMP/p

# placement ARGS... EXPECTED-LINES: the exact placement printed, lines joined by ';'.
placement() {
	local want=${!#}
	run "$MPIEXEC" --show-placement "${@:1:$#-1}" "$P"
	expect_rc 0
	got=$(paste -sd';' "$OUT")
	[ "$got" = "$want" ] || { show; fail "mpiexec $*: placement '$got', want '$want'"; }
}

placement -H a:4,b:4 'a: 0-3;b: 4-7'
placement -H a:4,b:4 -n 10 'a: 0-3,8-9;b: 4-7'
placement --host a,b,a -n 5 --map-by node 'a: 0,2-3;b: 1,4'
placement --host a,b,c -ppn 2 --map-by node 'a: 0,3;b: 1,4;c: 2,5'
placement --host a,b,c -ppn 2 'a: 0-1;b: 2-3;c: 4-5'
placement -H a:4,b:4 -n 3 'a: 0-2'
cat >"$TEST_TMP/hosts" <<'EOF2'
# the cluster
n1 slots=2
n2:3   # two words of comment

n3 max_slots=8
EOF2
placement --hostfile "$TEST_TMP/hosts" 'n1: 0-1;n2: 2-4;n3: 5'
placement --hostfile "$TEST_TMP/hosts" --map-by node -n 7 'n1: 0,3,6;n2: 1,4-5;n3: 2'

# Without hosts every rank stays on this machine.
run "$MPIEXEC" --show-placement -n 3 "$P"
expect_rc 0
expect_out_count "^$(hostname): 0-2\$" 1

# Bad input is refused before anything starts.
run "$MPIEXEC" -H a:x "$P"
expect_rc 2
expect_err "bad slot count in 'a:x'"
run "$MPIEXEC" -H a,,b "$P"
expect_rc 2
echo 'n1 slots=zero' >"$TEST_TMP/bad"
run "$MPIEXEC" --hostfile "$TEST_TMP/bad" "$P"
expect_rc 2
expect_err 'bad:1: bad slot count'
run "$MPIEXEC" --hostfile "$TEST_TMP/nonexistent" "$P"
expect_rc 2
expect_err 'cannot read hostfile'
run "$MPIEXEC" --map-by diagonal -H a "$P"
expect_rc 2

# A single host that is this machine keeps the single-node path; --display-map (Open
# MPI's) prints the map on stderr and still runs the job.
run "$MPIEXEC" --display-map -H localhost:2 "$P"
expect_rc 0
expect_err '^localhost: 0-1$'
exit 0
