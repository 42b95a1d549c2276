#!/bin/bash
# mpiexec_binds_maps_and_copies_output: Open MPI's placement and output options on one host. --bind-to hwthread puts rank k on the k-th usable CPU (modulo their count) and threads a rank makes inherit it; --bind-to core gives each rank one core's CPUs, covering every CPU; --bind-to none leaves every CPU to every rank; by default ranks that do not outnumber the cores each get a core and the threads they create every CPU, more ranks keep every CPU; --report-bindings says so per rank; --map-by ppr:2:node with -H host:4 runs 2 ranks; -print-rank-map prints the map; --output-filename DIR also writes each rank's stdout and stderr, unlabelled, to DIR/1/rank.N/; ranks that are processes (python3) are bound as threads are; an unsupported binding warns, a bogus one is refused. 1, 3 and 5 ranks.
. "$SHOAL_TESTS/lib/common.bash"

build aff -pthread <<'SRC'
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <mpi.h>

static void cpus(char *buf, size_t len)
{
	cpu_set_t s;
	size_t n = 0;

	buf[0] = '\0';
	sched_getaffinity(0, sizeof(s), &s);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &s))
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
}

static void *worker(void *arg)
{
	cpus(arg, 512);
	return NULL;
}

int main(int argc, char **argv)
{
	char mine[512], theirs[512];
	pthread_t t;
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	cpus(mine, sizeof(mine));
	pthread_create(&t, NULL, worker, theirs);
	pthread_join(t, NULL);
	printf("rank %d cpus %s thread %s\n", rank, mine, theirs);
	fprintf(stderr, "rank %d says hello on stderr\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

mapfile -t usable < <(python3 -c 'import os; print("\n".join(str(c) for c in sorted(os.sched_getaffinity(0))))')
all=$(IFS=,; echo "${usable[*]}")
nu=${#usable[@]}

for n in 1 3 5; do
	run "$MPIEXEC" -n $n --bind-to hwthread --report-bindings "$TEST_TMP/aff"
	expect_rc 0
	for ((k = 0; k < n; k++)); do
		want=${usable[k % nu]}
		expect_out "^rank $k cpus $want thread $want\$"
		expect_err "rank $k bound to hwthread $((k % nu)) \\(cpus $want\\)"
	done

	run "$MPIEXEC" -n $n --bind-to core "$TEST_TMP/aff"
	expect_rc 0
	expect_out_count '^rank [0-9]+ cpus ([0-9,]+) thread \1$' $n
	covered=$(sed -n 's/^rank [0-9]* cpus \([0-9,]*\) thread.*/\1/p' "$OUT" | tr , '\n' | sort -un | paste -sd,)
	if [ "$n" -ge "$nu" ]; then
		[ "$covered" = "$(printf '%s\n' "${usable[@]}" | sort -n | paste -sd,)" ] ||
			{ show; fail "cores bound with $n ranks cover CPUs $covered, not all of $all"; }
	fi
	[ "$(grep -c "cpus $all thread" "$OUT")" -lt "$n" ] || [ "$nu" = 1 ] ||
		{ show; fail "--bind-to core left every rank on every CPU"; }

	run "$MPIEXEC" -n $n --bind-to none --report-bindings "$TEST_TMP/aff"
	expect_rc 0
	expect_out_count "^rank [0-9]+ cpus $all thread $all\$" $n
	[ "$(grep -c 'not bound' "$ERR")" = $n ] || { show; fail "--report-bindings without binding"; }

	# By default, ranks that do not outnumber the cores each get a core of their own and
	# the threads they create every CPU; more ranks than cores are not bound.
	run "$MPIEXEC" -n $n --report-bindings "$TEST_TMP/aff"
	expect_rc 0
	if [ "$n" -le "$nu" ] && [ "$nu" -ge 2 ]; then
		expect_out_count "^rank [0-9]+ cpus [0-9,]+ thread $all\$" $n
		expect_out_count "^rank [0-9]+ cpus $all thread" 0
		[ "$(grep -c 'bound to core' "$ERR")" = $n ] || { show; fail "default binding not reported"; }
	else
		expect_out_count "^rank [0-9]+ cpus $all thread $all\$" $n
		[ "$(grep -c 'not bound' "$ERR")" = $n ] || { show; fail "--report-bindings, ranks outnumber cores"; }
	fi
done

# Ranks that are processes (a program mpicc did not build) are bound the same way.
run "$MPIEXEC" -n 3 --bind-to hwthread python3 -c \
	'import os; print("rank", os.environ["SHOAL_RANK"], "cpus", ",".join(map(str, sorted(os.sched_getaffinity(0)))))'
expect_rc 0
for k in 0 1 2; do
	expect_out "^rank $k cpus ${usable[k % nu]}\$"
done

run "$MPIEXEC" -H "$(hostname):4" --map-by ppr:2:node -print-rank-map "$TEST_TMP/aff"
expect_rc 0
expect_out_count '^rank [01] cpus' 2
expect_err "^$(hostname): 0-1\$"

cd "$TEST_TMP" || fail "no $TEST_TMP"
run "$MPIEXEC" -n 3 -l --output-filename outdir "$TEST_TMP/aff"
expect_rc 0
expect_out_count '^\[[0-2]\] rank [0-2] cpus' 3
for k in 0 1 2; do
	f=outdir/1/rank.$k
	[ "$(cat "$f/stdout")" = "$(sed -n "s/^\[$k\] //p" "$OUT")" ] ||
		{ show; ls -R outdir; fail "$f/stdout is not rank $k's output: $(cat "$f/stdout")"; }
	[ "$(cat "$f/stderr")" = "rank $k says hello on stderr" ] ||
		{ show; fail "$f/stderr: $(cat "$f/stderr")"; }
done
[ ! -e outdir/1/rank.3 ] || fail "a file for a rank that does not exist"

run "$MPIEXEC" -n 2 --bind-to socket "$TEST_TMP/aff"
expect_rc 0
expect_err 'warning: --bind-to socket is not supported'
run "$MPIEXEC" -n 2 --bind-to sideways "$TEST_TMP/aff"
expect_rc 2
expect_err 'bind-to sideways: want none, core or hwthread'
exit 0
