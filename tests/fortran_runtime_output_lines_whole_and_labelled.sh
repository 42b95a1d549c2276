#!/bin/bash
# fortran_runtime_output_lines_whole_and_labelled: what a Fortran rank writes to units 6 and 0 (libgfortran writes them with write(2) on descriptors 1 and 2) goes through the rank's line buffers as C output does: every line whole and labelled with its rank under --tag-output and -l (also a line built from non-advancing pieces), copied to the rank's own file under --output-filename, and shown as written (a rank's line reaches mpiexec's stdout, a file, while the rank still runs), at 1, 4 and 64 ranks.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
command -v gfortran >/dev/null || skip "gfortran is not installed (make deps)"
unset GFORTRAN_UNBUFFERED_PRECONNECTED GFORTRAN_UNBUFFERED_ALL
build_fortran output -g -I"$SHOAL_TESTS/lib" \
	"$SHOAL_TESTS/lib/fortran_runtime_output.f90" "$SHOAL_TESTS/lib/fortran_rank.c"
pad=abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij

# check N OUT_PREFIX ERR_PREFIX: every rank's lines, whole, each with its rank's prefix
# (R in the prefixes stands for the rank), and nothing else.
check() {
	local n=$1 r o e
	expect_rc 0
	for r in $(seq 0 $((n - 1))); do
		o=${2//R/$r}
		e=${3//R/$r}
		expect_out_count "^${o}rank $r line [0-9]+ $pad\$" 50
		expect_out_count "^${o}rank $r line 50 $pad\$" 1
		expect_out_count "^${o}rank $r built from pieces\$" 1
		expect_out_count "^${o} rank +$r list-directed\$" 1
		[ "$(grep -Ec "^${e}rank $r error [0-9]+\$" "$ERR")" = 50 ] ||
			{ show; fail "not 50 whole stderr lines of rank $r at $n ranks"; }
	done
	[ "$(wc -l <"$OUT")" = $((52 * n)) ] || { show; fail "other stdout lines at $n ranks"; }
	[ "$(wc -l <"$ERR")" = $((50 * n)) ] || { show; fail "other stderr lines at $n ranks"; }
}

for n in 1 4 64; do
	run -t 120 "$MPIEXEC" -n $n --tag-output "$TEST_TMP/output"
	check $n '\[1,R\]<stdout>:' '\[1,R\]<stderr>:'
done
run -t 120 "$MPIEXEC" -n 4 -l "$TEST_TMP/output"
check 4 '\[R\] ' '\[R\] '
run -t 120 "$MPIEXEC" -n 4 "$TEST_TMP/output"
check 4 '' ''

# --output-filename: each rank's lines in its own files, unlabelled, and on mpiexec's too.
run -t 120 "$MPIEXEC" -n 4 --output-filename "$TEST_TMP/copies" "$TEST_TMP/output"
check 4 '' ''
for r in 0 1 2 3; do
	f=$TEST_TMP/copies/1/rank.$r
	[ "$(grep -Ec "^rank $r line [0-9]+ $pad\$" "$f/stdout")" = 50 ] &&
		[ "$(grep -c "^rank $r built from pieces\$" "$f/stdout")" = 1 ] &&
		[ "$(wc -l <"$f/stdout")" = 52 ] && [ "$(grep -Ec "^rank $r error [0-9]+\$" "$f/stderr")" = 50 ] ||
		{ cat "$f/stdout" "$f/stderr"; fail "rank $r's copies"; }
done

# As written: rank 0's lines are in mpiexec's stdout (a file) while rank 0 waits.
for n in 1 64; do
	rm -f "$TEST_TMP/go"
	"$MPIEXEC" -n $n --tag-output "$TEST_TMP/output" "$TEST_TMP/go" >"$OUT" 2>"$ERR" </dev/null &
	mpx=$!
	trap 'kill -TERM $mpx 2>/dev/null; wait' EXIT
	await_out_count '^\[1,0\]<stdout>:rank 0 waits$' 1 ||
		{ touch "$TEST_TMP/go"; wait $mpx; RC=$?; show; fail "rank 0's line did not show while it waited at $n ranks"; }
	expect_out_count "^\[1,0\]<stdout>:rank 0 line 50 $pad\$" 1
	expect_out_count '^\[1,0\]<stdout>:rank 0 went on$' 0
	touch "$TEST_TMP/go"
	await_exit $mpx "the job of $n ranks did not end"
	expect_rc 0
	expect_out_count '^\[1,0\]<stdout>:rank 0 went on$' 1
done
trap - EXIT

# A program run directly writes as gfortran's does.
run "$TEST_TMP/output"
check 1 '' ''
exit 0
