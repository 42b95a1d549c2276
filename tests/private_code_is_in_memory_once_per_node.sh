#!/bin/bash
# private_code_is_in_memory_once_per_node: a program with ~2 MB of code and ~0.2 MB of data
# (bench/bigprog.py; every rank runs all its code and writes all its data) run at 16 and 256
# ranks costs per rank only what it writes: at 256 ranks the job directory holds less than
# twice the program file, and the node's Pss grows by less than 0.5 MB per rank from 16 to
# 256 ranks (measured by the program at a barrier with every rank alive).
# timeout: 900
# serial: runs 256 ranks and measures the node process's memory
# asan: the sanitizer's shadow memory and quarantine are node memory per rank
# tsan: the sanitizer's shadow memory is node memory per rank
set -u
. "$SHOAL_TESTS/lib/common.bash"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

command -v python3 >/dev/null || skip "no python3 to write the program"
[ -r /proc/self/smaps_rollup ] || skip "no /proc/self/smaps_rollup"

# The program's parts, compiled side by side.
src=$TEST_TMP/src
python3 "$root/bench/bigprog.py" --code-mb 2 --data-mb 0.2 "$src" || fail "bigprog.py failed"
for f in "$src"/*.c; do
	"$MPICC" -O1 -c "$f" -o "${f%.c}.o" >"${f%.c}.build" 2>&1 &
done
wait
for f in "$src"/*.c; do
	[ -f "${f%.c}.o" ] || { cat "${f%.c}.build"; fail "mpicc could not compile $f"; }
done
prog=$TEST_TMP/bigprog
"$MPICC" -O1 -o "$prog" "$src"/*.o >"$TEST_TMP/link.build" 2>&1 ||
	{ cat "$TEST_TMP/link.build"; fail "mpicc could not link the program"; }
size=$(stat -c %s "$prog")
echo "program: $size bytes; $(size "$prog" | tail -n 1 | awk '{ print "text " $1 ", data " $2 ", bss " $3 }')"

# measure N: run at N ranks; sets pss (bytes) and jobdir (bytes) from the MEMORY line.
measure() {
	run -t 300 "$MPIEXEC" -n "$1" "$prog"
	expect_rc 0
	local line
	line=$(grep -m1 '^MEMORY ' "$OUT") || { show; fail "no MEMORY line at $1 ranks"; }
	echo "$line"
	local kb
	kb=$(printf '%s\n' "$line" | sed -n 's/.* pss_kb=\([0-9][0-9]*\) .*/\1/p')
	jobdir=$(printf '%s\n' "$line" | sed -n 's/.* jobdir_bytes=\([0-9][0-9]*\) .*/\1/p')
	if [ -z "$kb" ] || [ -z "$jobdir" ]; then
		fail "malformed MEMORY line (no pss_kb or jobdir_bytes): $line"
	fi
	pss=$((kb * 1024))
}

measure 16
pss16=$pss
measure 256
pss256=$pss jobdir256=$jobdir

growth=$(((pss256 - pss16) / 240))
echo "job directory at 256 ranks: $jobdir256 bytes ($(awk -v j="$jobdir256" -v s="$size" 'BEGIN { printf "%.2f", j / s }') x the program)"
echo "node Pss: $pss16 bytes at 16 ranks, $pss256 at 256; growth per rank $growth bytes"
status=0
if [ "$jobdir256" -ge $((2 * size)) ]; then
	echo "FAIL: the job directory holds $jobdir256 bytes at 256 ranks, not less than 2 x $size"
	status=1
fi
if [ "$growth" -ge 500000 ]; then
	echo "FAIL: the node's Pss grows by $growth bytes per rank, not less than 0.5 MB"
	status=1
fi
exit $status
