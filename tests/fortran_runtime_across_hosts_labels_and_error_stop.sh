#!/bin/bash
# fortran_runtime_across_hosts_labels_and_error_stop: on 2 hosts (network namespaces), at 4 and 64 ranks, every rank's Fortran WRITE lines (units 6 and 0) reach mpiexec whole and labelled with the rank, whichever host it runs on, and an ERROR STOP 3 in the last rank (on the second host) ends the whole job with status 3 and a line naming the rank, while the other ranks wait, in MPI or after leaving it.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
command -v gfortran >/dev/null || skip "gfortran is not installed (make deps)"
for p in output stop; do
	build_fortran $p -g -I"$SHOAL_TESTS/lib" \
		"$SHOAL_TESTS/lib/fortran_runtime_$p.f90" "$SHOAL_TESTS/lib/fortran_rank.c"
done
pad=abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij
mkdir -p "$TEST_TMP/d"

netns_up 2
for n in 4 64; do
	half=$((n / 2))
	hosts="${NS_HOSTS[0]}:$half,${NS_HOSTS[1]}:$half"
	run -t 120 "${NETNS_MPIEXEC[@]}" -n $n -H "$hosts" --tag-output "$TEST_TMP/output"
	expect_rc 0
	for r in $(seq 0 $((n - 1))); do
		expect_out_count "^\[1,$r\]<stdout>:rank $r line [0-9]+ $pad\$" 50
		expect_out_count "^\[1,$r\]<stdout>:rank $r built from pieces\$" 1
		[ "$(grep -Ec "^\[1,$r\]<stderr>:rank $r error [0-9]+\$" "$ERR")" = 50 ] ||
			{ show; fail "not 50 whole stderr lines of rank $r at $n ranks"; }
	done
	[ "$(wc -l <"$OUT")" = $((52 * n)) ] || { show; fail "other stdout lines at $n ranks"; }
	[ "$(wc -l <"$ERR")" = $((50 * n)) ] || { show; fail "other stderr lines at $n ranks"; }

	k=$((n - 1))
	for mode in error_num error_late; do
		run -t 150 "${NETNS_MPIEXEC[@]}" -n $n -H "$hosts" --tag-output "$TEST_TMP/stop" $mode "$TEST_TMP/d"
		expect_rc 3
		expect_err "^\[1,$k\]<stderr>:ERROR STOP 3\$"
		expect_err "shoal: rank $k: ERROR STOP 3\$"
		grep -q 'without calling MPI_Finalize\|exited with code' "$ERR" && { show; fail "$mode: the rank ended alone"; }
	done
done
netns_nothing_left
exit 0
