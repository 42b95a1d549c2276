#!/bin/bash
# process_ranks_stdin_goes_to_rank_0: ranks that are processes (sh, cat) get mpiexec's stdin in rank 0 alone, whole and to its end-of-file, and end-of-file at once in every other rank; a megabyte arrives whole; on one node and on nodes started by --launcher local; and when stdin is a terminal rank 0 reads it (it is not stopped for reading a terminal from a process group of its own).
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"

cat >count.sh <<'SH'
#!/bin/sh
echo "rank $SHOAL_RANK read $(wc -l) lines"
SH
chmod +x count.sh

for where in "-n 3" "--launcher local -H a:1,b:2" "--launcher local -H a:2,b:1"; do
	feed "printf 'a\nb\n'" "$MPIEXEC" $where ./count.sh
	expect_rc 0
	expect_out_count '^rank 0 read 2 lines$' 1
	expect_out_count '^rank [12] read 0 lines$' 2
	feed "seq 1 200000" "$MPIEXEC" $where ./count.sh
	expect_rc 0
	expect_out_count '^rank 0 read 200000 lines$' 1
done
feed "seq 1 200000" "$MPIEXEC" -n 2 sh -c 'if [ $SHOAL_RANK = 0 ]; then cat; fi'
expect_rc 0
seq 1 200000 | cmp - "$OUT" || fail "rank 0's copy of stdin differs"
# A rank 0 that never reads: the job ends anyway, fed for ever.
feed "yes" "$MPIEXEC" -n 2 true
expect_rc 0

# stdin a terminal (script(1) makes one): rank 0 reads a line from it.
if command -v script >/dev/null; then
	timeout -k 5 60 script -qec "$MPIEXEC -n 2 sh -c 'read x; echo got\$SHOAL_RANK=\$x.'" \
		/dev/null <<<"typed" >"$OUT" 2>"$ERR"
	RC=$?
	[ "$RC" = 124 ] && { show; fail "terminal: timed out"; }
	expect_rc 0
	expect_out '^got0=typed\.'
	expect_out '^got1=\.'
fi
exit 0
