#!/bin/bash
# ring_1024_ranks: the ring example completes with 1024 ranks on one node and prints the right token.
# timeout: 300
# tsan: 1024 ranks under TSan did not finish within the 280 s limit of its run on a loaded 2-core machine (no report): slow or hung, not judged yet
. "$SHOAL_TESTS/lib/common.bash"
ring=$SHOAL_BUILD/examples/ring
if [ ! -x "$ring" ]; then
	"$MPICC" -O2 -o "$TEST_TMP/ring" "$SHOAL_TESTS/../examples/ring.c" || fail "cannot build ring"
	ring=$TEST_TMP/ring
fi
run -t 280 "$MPIEXEC" -n 1024 "$ring"
expect_rc 0
expect_out '^ring: 3 laps around 1024 ranks, token = 3072 \(expected 3072\)$'
exit 0
