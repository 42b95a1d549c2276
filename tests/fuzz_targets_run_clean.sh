#!/bin/bash
# fuzz_targets_run_clean: each libFuzzer target (io/fuzz_*.c: the frame parser, the protocol's state machine after the handshake against any peer and between two honest nodes, the mesh greeting, the control channel's records) runs 10 s (SHOAL_FUZZ_SECONDS) under AddressSanitizer and UBSan without a crash; skipped when no compiler with -fsanitize=fuzzer is installed.
# tier: fuzz
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"

root=$(cd "$SHOAL_TESTS/.." && pwd)
cc=${SHOAL_FUZZ_CC:-clang}
command -v "$cc" >/dev/null || skip "no fuzzing compiler: $cc not found (apt-get install clang)"
flags="-g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# Probe with an empty target first: a compiler without libFuzzer's runtime is a skip, a
# target that does not compile is a failure.
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$TEST_TMP/probe.c"
"$cc" $flags -o "$TEST_TMP/probe" "$TEST_TMP/probe.c" >"$TEST_TMP/probe.log" 2>&1 ||
	skip "$cc cannot build libFuzzer targets: $(head -n 1 "$TEST_TMP/probe.log")"
# What each links besides its own file (as the Makefile's FUZZ_LINK_*).
declare -A link=([frame]="io/frame.c" [proto]="io/fuzz_arena.c io/frame.c"
	[pair]="io/fuzz_arena.c io/fuzz_pair_a.c io/fuzz_pair_b.c io/frame.c" [greet]="io/auth.c io/ctl.c -lcrypto"
	[ctl]="io/ctl.c")
for t in frame proto pair greet ctl; do
	# shellcheck disable=SC2086
	(cd "$root" && "$cc" $flags -I. -o "$TEST_TMP/fuzz_$t" "io/fuzz_$t.c" ${link[$t]}) ||
		fail "the fuzz target io/fuzz_$t.c does not compile"
	mkdir -p "$TEST_TMP/$t"
	run -t 120 "$TEST_TMP/fuzz_$t" -max_total_time="${SHOAL_FUZZ_SECONDS:-10}" \
		-rss_limit_mb=2048 -artifact_prefix="$TEST_TMP/$t/" "$TEST_TMP/$t"
	expect_rc 0
	expect_err '^Done [0-9]+ runs'
	echo "fuzz_$t: $(grep -E '^#[0-9]+.*DONE' "$ERR")"
done
exit 0
