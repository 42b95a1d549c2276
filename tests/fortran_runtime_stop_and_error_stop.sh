#!/bin/bash
# fortran_runtime_stop_and_error_stop: ERROR STOP n in one rank ends the whole job with status n, whether the other ranks wait in MPI or have left it, after gfortran's "ERROR STOP n" line (unless QUIET) and a line "shoal: rank K: ERROR STOP n" (status 1 and the text for ERROR STOP 'text'), also run directly; STOP 5 ends only the ranks that reach it, with code 5 and its "STOP 5" line labelled with the rank, while the others end normally; a Fortran run-time error (-fcheck=bounds) ends its rank as exit(2) does, its message labelled; a rank's SIGSEGV in Fortran code (gfortran's default -fbacktrace) is the node's crash report naming the rank and the source line, not libgfortran's handler; at 1, 4 and 64 ranks.
# timeout: 400
. "$SHOAL_TESTS/lib/common.bash"
command -v gfortran >/dev/null || skip "gfortran is not installed (make deps)"
for p in stop:-g bounds:"-g -fcheck=bounds"; do
	build_fortran ${p%%:*} ${p#*:} -I"$SHOAL_TESTS/lib" \
		"$SHOAL_TESTS/lib/fortran_runtime_stop.f90" "$SHOAL_TESTS/lib/fortran_rank.c"
done
prog=$TEST_TMP/stop
mkdir -p "$TEST_TMP/d"

for n in 1 4 64; do
	k=$((n - 1))
	for mode in error_num error_late; do
		run -t 150 "$MPIEXEC" -n $n --tag-output "$prog" $mode "$TEST_TMP/d"
		expect_rc 3
		expect_err "^\[1,$k\]<stderr>:ERROR STOP 3\$"
		expect_err "^(\[1,$k\]<stderr>:)?shoal: rank $k: ERROR STOP 3\$"
		grep -q 'without calling MPI_Finalize\|exited with code' "$ERR" && { show; fail "$mode: the rank ended alone"; }
	done
	run -t 150 "$MPIEXEC" -n $n --tag-output "$prog" error_str "$TEST_TMP/d"
	expect_rc 1
	expect_err "^\[1,$k\]<stderr>:ERROR STOP bad input file\$"
	expect_err "^(\[1,$k\]<stderr>:)?shoal: rank $k: ERROR STOP bad input file\$"
	run -t 150 "$MPIEXEC" -n $n --tag-output "$prog" error_quiet "$TEST_TMP/d"
	expect_rc 4
	expect_err "shoal: rank $k: ERROR STOP 4\$"
	grep -q '<stderr>:ERROR STOP' "$ERR" && { show; fail "QUIET printed ERROR STOP"; }

	rm -f "$TEST_TMP"/d/stopping.*
	run -t 150 "$MPIEXEC" -n $n --tag-output "$prog" stop "$TEST_TMP/d"
	odd=$((n / 2))
	if [ $odd = 0 ]; then
		expect_rc 0
	else
		expect_rc 5
		expect_err '^shoal: rank [0-9]*[13579] exited with code 5$'
	fi
	[ "$(grep -Ec '^\[1,[0-9]*[13579]\]<stderr>:STOP 5$' "$ERR")" = $odd ] || { show; fail "not $odd labelled STOP 5 lines"; }
	expect_out_count '^\[1,[0-9]*[02468]\]<stdout>:rank [0-9]+ ends normally$' $((n - odd))
	grep -q 'ERROR STOP\|without calling' "$ERR" && { show; fail "STOP ended more than its rank"; }

	run -t 150 "$MPIEXEC" -n $n --tag-output "$TEST_TMP/bounds" bounds "$TEST_TMP/d"
	expect_rc 2
	expect_err "^\[1,$k\]<stderr>:Fortran runtime error: Index '11' of dimension 1 of array 'a' above upper bound of 10\$"
	expect_err "^shoal: rank $k exited with code 2\$"
	expect_out_count '^\[1,[0-9]+\]<stdout>:rank [0-9]+ reads [0-9]+$' $k

	run -t 150 "$MPIEXEC" -n $n --tag-output "$prog" segv "$TEST_TMP/d"
	expect_rc 139
	expect_err "shoal: rank $k: killed by signal SIGSEGV"
	expect_err 'MAIN__ at .*fortran_runtime_stop.f90:72( |$)'
	grep -q 'Program received signal' "$ERR" && { show; fail "libgfortran's own crash handler ran"; }
done

# Run directly: the same lines, unlabelled, and the same statuses.
run "$prog" error_num "$TEST_TMP/d"
expect_rc 3
expect_err '^ERROR STOP 3$'
expect_err '^shoal: rank 0: ERROR STOP 3$'
run "$prog" error_str "$TEST_TMP/d"
expect_rc 1
expect_err '^shoal: rank 0: ERROR STOP bad input file$'
exit 0
