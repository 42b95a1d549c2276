#!/bin/bash
# examples_run: the examples run and print correct results: hello (4 ranks), ring (1, 4, 256 ranks), pingpong (2), pi (1 and 8).
# timeout: 180
# tsan: its ring of 256 ranks outlasts the 60 s limit of its run under TSan's slowdown
. "$SHOAL_TESTS/lib/common.bash"
ex=$SHOAL_BUILD/examples
for p in hello ring pingpong pi; do
	if [ ! -x "$ex/$p" ]; then
		mkdir -p "$TEST_TMP/ex"
		"$MPICC" -O2 -o "$TEST_TMP/ex/$p" "$SHOAL_TESTS/../examples/$p.c" || fail "cannot build $p"
	fi
done
[ -x "$ex/hello" ] && [ -x "$ex/ring" ] && [ -x "$ex/pingpong" ] && [ -x "$ex/pi" ] || ex=$TEST_TMP/ex

run "$MPIEXEC" -n 4 "$ex/hello"
expect_rc 0
expect_out_count '^Hello from rank [0-3] of 4 on .+$' 4
for r in 0 1 2 3; do expect_out_count "^Hello from rank $r of 4" 1; done

run "$ex/ring"
expect_rc 0
expect_out 'token = 3 \(expected 3\)'
for n in 4 256; do
	run -t 60 "$MPIEXEC" -n $n "$ex/ring" 5
	expect_rc 0
	expect_out "^ring: 5 laps around $n ranks, token = $((5 * n)) \\(expected $((5 * n))\\)\$"
done

run -t 60 "$MPIEXEC" -n 2 "$ex/pingpong"
expect_rc 0
for s in 0 8 1024 65536 1048576; do expect_out "^ +$s +[0-9]+\\.[0-9]+\$"; done

for n in 1 8; do
	run -t 60 "$MPIEXEC" -n $n "$ex/pi" 1000000
	expect_rc 0
	expect_out '^pi is approximately 3\.14159265'
	err=$(sed -n 's/.*error \([0-9.e+-]*\).*/\1/p' "$OUT")
	awk -v e="$err" 'BEGIN { exit !(e != "" && e + 0 < 1e-8) }' || { show; fail "pi error '$err' too large"; }
done
exit 0
