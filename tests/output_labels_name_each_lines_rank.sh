#!/bin/bash
# output_labels_name_each_lines_rank: with --tag-output every line of stdout and stderr starts with [1,RANK]<stdout>: or [1,RANK]<stderr>:, with -prepend-rank (and -l) with [RANK] ; lines written in pieces by ranks at the same time stay whole and never mix, labelled or not, a last line without a newline still comes out, a thread a rank created is labelled as that rank, setvbuf on stdout changes none of this, and a rank that crashes keeps the lines it wrote; on one node, on nodes started by --launcher local, and across network namespaces.
# timeout: 150
. "$SHOAL_TESTS/lib/common.bash"

build talk <<'SRC'
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
static void *helper(void *arg)
{
	printf("thread of %d\n", *(int *)arg);  /* a thread the rank made counts as the rank */
	return NULL;
}
int main(int argc, char **argv)
{
	int rank;
	pthread_t t;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	static char buf[4096];  /* one program copy per rank: one buffer each */
	if (argc > 1 && !strcmp(argv[1], "linebuf"))
		setvbuf(stdout, buf, _IOLBF, sizeof(buf));  /* must not give stdout a buffer */
	pthread_create(&t, NULL, helper, &rank);
	pthread_join(t, NULL);
	/* Every rank starts its line, waits while the others start theirs, then ends it. */
	printf("hello ");  /* no fflush: a buffer shared by the ranks would mix these */
	usleep(200 * 1000);
	printf("from %d\n", rank);
	fprintf(stderr, "err %d\n", rank);
	if (argc > 1 && !strcmp(argv[1], "crash") && rank == 1) {
		puts("before crash");
		*(volatile int *)0 = 1;
	}
	printf("tail %d", rank);  /* no newline */
	MPI_Finalize();
	return 0;
}
SRC

# check STYLE NRANKS WHAT
check() {
	local r pre_out pre_err
	expect_rc 0
	for r in $(seq 0 $(($2 - 1))); do
		if [ "$1" = tag ]; then pre_out="[1,$r]<stdout>:" pre_err="[1,$r]<stderr>:"
		else pre_out="[$r] " pre_err="[$r] "; fi
		[ "$(grep -Fxc "${pre_out}hello from $r" "$OUT")" = 1 ] || { show; fail "$3: no '${pre_out}hello from $r'"; }
		[ "$(grep -Fxc "${pre_out}tail $r" "$OUT")" = 1 ] || { show; fail "$3: no '${pre_out}tail $r'"; }
		[ "$(grep -Fxc "${pre_out}thread of $r" "$OUT")" = 1 ] || { show; fail "$3: no '${pre_out}thread of $r'"; }
		[ "$(grep -Fxc "${pre_err}err $r" "$ERR")" = 1 ] || { show; fail "$3: no '${pre_err}err $r'"; }
	done
	[ "$(wc -l <"$OUT")" = $((3 * $2)) ] || { show; fail "$3: lines mixed or extra"; }
}

run "$MPIEXEC" -n 4 --tag-output "$TEST_TMP/talk"
check tag 4 "one node"
run "$MPIEXEC" -n 4 -prepend-rank "$TEST_TMP/talk"
check rank 4 "one node"
run "$MPIEXEC" -l -n 3 "$TEST_TMP/talk"
check rank 3 "one node, -l"
run "$MPIEXEC" -n 4 --tag-output "$TEST_TMP/talk" linebuf
check tag 4 "one node, setvbuf(stdout, buf, _IOLBF)"
run "$MPIEXEC" --launcher local -H a:2,b:2 --tag-output "$TEST_TMP/talk"
check tag 4 "local launcher"
run "$MPIEXEC" --launcher local -H a:2,b:2 -prepend-rank "$TEST_TMP/talk"
check rank 4 "local launcher"
# Without a label option nothing is labelled, and the ranks' pieces of lines still do not
# mix, though the ranks of a node share glibc's stdout. (A last line without a newline runs
# on into whatever comes next, as from separate processes.)
run "$MPIEXEC" -n 4 "$TEST_TMP/talk"
expect_rc 0
grep -q '\[' "$OUT" "$ERR" && { show; fail "labels without a label option"; }
for r in 0 1 2 3; do
	[ "$(grep -o "hello from $r" "$OUT" | wc -l)" = 1 ] || { show; fail "unlabelled: no 'hello from $r'"; }
	[ "$(grep -Fxc "err $r" "$ERR")" = 1 ] || { show; fail "unlabelled: no 'err $r'"; }
done
[ "$(grep -o hello "$OUT" | wc -l)" = 4 ] || { show; fail "unlabelled: pieces of lines mixed"; }

# A crash: the crashing rank's lines written before it are there, labelled.
run "$MPIEXEC" -n 3 --tag-output "$TEST_TMP/talk" crash
expect_nonzero
expect_out_count '^\[1,1\]<stdout>:before crash$' 1
expect_out_count '^\[1,1\]<stdout>:hello from 1$' 1
run "$MPIEXEC" --launcher local -H a,b:2 -prepend-rank "$TEST_TMP/talk" crash
expect_nonzero
expect_out_count '^\[1\] before crash$' 1

if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
	. "$SHOAL_TESTS/lib/netns.bash"
	netns_up 2
	run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 --tag-output "$TEST_TMP/talk"
	check tag 4 "namespaces"
	run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 -prepend-rank "$TEST_TMP/talk"
	check rank 4 "namespaces"
fi
exit 0
