#!/bin/bash
# bench_table_marks_results_of_unfinished_launches: a benchmark launch that prints its
# result and then runs into the harness's timeout counts as a timeout, and the summary table
# shows its value followed by "(timeout)" (the program did not finish), while a value that
# some launch finished is shown plain and a point with no value at all reads "timeout".
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
command -v python3 >/dev/null || skip "no python3"

build late <<'SRC'
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		printf("RESULT fake 2 %s us\n", argc > 2 ? argv[2] : "1");
		fflush(stdout);
	}
	if (argc > 1 && strcmp(argv[1], "hang") == 0)
		sleep(600);  /* past the test's limit: only the harness's timeout ends it */
	MPI_Finalize();
	return 0;
}
SRC

root=$(cd "$SHOAL_TESTS/.." && pwd)
cat >"$TEST_TMP/table.py" <<'PY'
import importlib.machinery, importlib.util, os, sys, time
loader = importlib.machinery.SourceFileLoader("bench_run", sys.argv[1])
m = importlib.util.module_from_spec(importlib.util.spec_from_loader("bench_run", loader))
loader.exec_module(m)
tmp = sys.argv[2]
exe = os.path.join(tmp, "late")
m.settle = lambda: None  # no earlier launches of ours to wait for

# The hung launch under BENCH_TIMEOUT (3 s); the finished one with a limit no loaded
# machine reaches.
st_hang, res_hang, _ = m.launch("shoal", exe, 2, ["hang", "7.5"], os.path.join(tmp, "hang.log"))
m.TIMEOUT = 60
st_ok, res_ok, _ = m.launch("shoal", exe, 2, ["done", "1.5"], os.path.join(tmp, "ok.log"))
print("hang", st_hang, res_hang)
print("ok", st_ok, res_ok)

samples = {("fake", "shoal", 2, 2): [(v, u, st_ok) for _, v, u in res_ok],
           ("fake", "openmpi", 2, 2): [(v, u, st_hang) for _, v, u in res_hang]}
status = {("fake", "shoal", 2): {st_ok}, ("fake", "openmpi", 2): {st_hang},
          ("fake", "mpich", 2): {"timeout"}}
rows = [{"name": "fake", "ranks": [2], "xlabel": "ranks", "better": "lower"}]
table = m.summarize(rows, m.IMPLS, samples, status)
print(m.render(table, m.IMPLS, markdown=True))
PY
run -t 150 env BUILD="$SHOAL_BUILD" BENCH_TIMEOUT=3 python3 "$TEST_TMP/table.py" "$root/bench/run" \
	"$TEST_TMP"
[ "$RC" = 0 ] || { show; fail "the harness's functions did not run"; }
grep -q "^hang timeout \[(2, 7.5, 'us')\]$" "$OUT" ||
	{ show; fail "a launch that printed its result and then hung is not a timeout with that result"; }
grep -q "^ok ok \[(2, 1.5, 'us')\]$" "$OUT" || { show; fail "a finished launch is not ok"; }
grep -qF "| 2 | 1.50 | 7.50 (timeout) | timeout | 0.2 | - |" "$OUT" ||
	{ show; fail "the table does not mark the unfinished launch's value"; }
exit 0
