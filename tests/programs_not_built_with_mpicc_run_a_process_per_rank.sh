#!/bin/bash
# programs_not_built_with_mpicc_run_a_process_per_rank: a system command (hostname, echo through sh), a #! script, python3, a plain gcc program and a static one run under mpiexec as one process per rank, each with its rank and size in SHOAL_RANK, SHOAL_SIZE, SHOAL_LOCAL_RANK, SHOAL_LOCAL_SIZE, OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK/LOCAL_SIZE, PMI_RANK and PMI_SIZE, the variables of -x, and their output labelled by --tag-output and -l as thread ranks' is; on 1, 3 and 64 ranks (oversubscribed) and on nodes started by --launcher local, where the local rank counts from 0 on each node.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"

run "$MPIEXEC" -n 3 hostname
expect_rc 0
expect_out_count "^$(hostname)\$" 3

# The script prints its variables and its own pid: distinct pids are distinct processes.
cat >vars.sh <<'SH'
#!/bin/sh
echo "rank $SHOAL_RANK of $SHOAL_SIZE local $SHOAL_LOCAL_RANK of $SHOAL_LOCAL_SIZE" \
	"ompi $OMPI_COMM_WORLD_RANK $OMPI_COMM_WORLD_SIZE $OMPI_COMM_WORLD_LOCAL_RANK" \
	"$OMPI_COMM_WORLD_LOCAL_SIZE pmi $PMI_RANK $PMI_SIZE x ${SHL_X:-unset} pid $$"
echo "err of $SHOAL_RANK" >&2
SH
chmod +x vars.sh

# check N WHAT [NODE-SIZES...]: each rank printed its line once, from a process of its own;
# NODE-SIZES: the ranks per node in placement order (default all N on one).
check() {
	local n=$1 what=$2 r=0 node size local
	shift 2
	[ $# -gt 0 ] || set -- "$n"
	expect_rc 0
	for size in "$@"; do
		for local in $(seq 0 $((size - 1))); do
			expect_out_count "^rank $r of $n local $local of $size ompi $r $n $local $size pmi $r $n x one pid [0-9]+\$" 1
			r=$((r + 1))
		done
	done
	[ "$(grep -c . "$OUT")" = "$n" ] || { show; fail "$what: expected $n lines"; }
	[ "$(awk '{print $NF}' "$OUT" | sort -u | wc -l)" = "$n" ] || { show; fail "$what: ranks share a process"; }
	[ "$(grep -c '^err of [0-9]*$' "$ERR")" = "$n" ] || { show; fail "$what: stderr lines"; }
}

for n in 1 3 64; do
	run "$MPIEXEC" -n $n -x SHL_X=one ./vars.sh
	check $n "$n ranks"
done
run "$MPIEXEC" --launcher local -H a:2,b:3 -x SHL_X=one ./vars.sh
check 5 "local launcher" 2 3

# Labels, as for thread ranks.
run "$MPIEXEC" --tag-output -n 2 -x SHL_X=one ./vars.sh
expect_rc 0
expect_out_count '^\[1,1\]<stdout>:rank 1 of 2 ' 1
grep -q '^\[1,0\]<stderr>:err of 0$' "$ERR" || { show; fail "--tag-output: stderr label"; }
run "$MPIEXEC" -l -n 2 sh -c 'echo "r$SHOAL_RANK"; printf "no newline $SHOAL_RANK"'
expect_rc 0
expect_out_count '^\[1\] r1$' 1
expect_out_count '^\[0\] no newline 0$' 1

# A plain gcc program and a static one.
cat >plain.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	printf("plain %s arg %s\n", getenv("OMPI_COMM_WORLD_RANK"), argc > 1 ? argv[1] : "-");
	return 0;
}
SRC
gcc -o plain plain.c || fail "gcc could not build plain.c"
run "$MPIEXEC" -n 2 ./plain word
expect_rc 0
expect_out_count '^plain [01] arg word$' 2
if gcc -static -o static plain.c 2>/dev/null; then
	run "$MPIEXEC" -n 2 ./static
	expect_rc 0
	expect_out_count '^plain [01] arg -$' 2
fi

if command -v python3 >/dev/null; then
	run "$MPIEXEC" -n 3 python3 -c 'import os; print("python rank", os.environ["PMI_RANK"], "of", os.environ["PMI_SIZE"])'
	expect_rc 0
	for r in 0 1 2; do expect_out_count "^python rank $r of 3\$" 1; done
fi
exit 0
