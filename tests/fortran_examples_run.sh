#!/bin/bash
# fortran_examples_run: the Fortran examples (examples/*.f90, `make examples` builds them as build/examples/NAME_f90) run and print correct results: hello (4 ranks), ring (1, 4, 64 ranks, laps from the command line), pi (1 and 8).
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
MPIFORT=$SHOAL_BUILD/bin/mpifort
ex=$SHOAL_BUILD/examples
for p in hello ring pi; do
	if [ ! -x "$ex/${p}_f90" ] || [ "$SHOAL_TESTS/../examples/$p.f90" -nt "$ex/${p}_f90" ]; then
		ex=$TEST_TMP/ex
		break
	fi
done
if [ "$ex" = "$TEST_TMP/ex" ]; then
	mkdir -p "$ex"
	for p in hello ring pi; do
		"$MPIFORT" -O2 -o "$ex/${p}_f90" "$SHOAL_TESTS/../examples/$p.f90" || fail "cannot build $p.f90"
	done
fi

run "$MPIEXEC" -n 4 "$ex/hello_f90"
expect_rc 0
expect_out_count '^Hello from rank [0-3] of 4 on .+$' 4
for r in 0 1 2 3; do expect_out_count "^Hello from rank $r of 4 on" 1; done

run "$ex/ring_f90"
expect_rc 0
expect_out 'token = 3 \(expected 3\)'
for n in 4 64; do
	run -t 60 "$MPIEXEC" -n $n "$ex/ring_f90" 5
	expect_rc 0
	expect_out "^ring: 5 laps around $n ranks, token = $((5 * n)) \\(expected $((5 * n))\\)\$"
done

for n in 1 8; do
	run -t 60 "$MPIEXEC" -n $n "$ex/pi_f90" 1000000
	expect_rc 0
	expect_out "^pi is approximately 3\\.14159265[0-9]*, error [0-9.E+-]+ \\(1000000 strips, $n ranks\\)\$"
	err=$(sed -n 's/.*error \([0-9.E+-]*\).*/\1/p' "$OUT")
	awk -v e="$err" 'BEGIN { exit !(e != "" && e + 0 < 1e-8) }' || { show; fail "pi error '$err' too large"; }
done
exit 0
