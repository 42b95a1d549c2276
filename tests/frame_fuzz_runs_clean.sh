#!/bin/bash
# frame_fuzz_runs_clean: the libFuzzer target for the off-node frame parser (io/fuzz_frame.c) runs 10 s (SHOAL_FUZZ_SECONDS) under AddressSanitizer and UBSan without a crash; skipped when no compiler with -fsanitize=fuzzer is installed.
# tier: fuzz
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"

root=$(cd "$SHOAL_TESTS/.." && pwd)
cc=${SHOAL_FUZZ_CC:-clang}
command -v "$cc" >/dev/null || skip "no fuzzing compiler: $cc not found (apt-get install clang)"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# Probe with an empty target first: a compiler without libFuzzer's runtime is a skip, a
# parser that does not compile is a failure.
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$TEST_TMP/probe.c"
"$cc" $flags -o "$TEST_TMP/probe" "$TEST_TMP/probe.c" >"$TEST_TMP/probe.log" 2>&1 ||
	skip "$cc cannot build libFuzzer targets: $(head -n 1 "$TEST_TMP/probe.log")"
"$cc" $flags -I"$root" -o "$TEST_TMP/fuzz_frame" "$root/io/fuzz_frame.c" "$root/io/frame.c" ||
	fail "the fuzz target does not compile"
mkdir -p "$TEST_TMP/corpus"
run -t 60 "$TEST_TMP/fuzz_frame" -max_total_time="${SHOAL_FUZZ_SECONDS:-10}" \
	-rss_limit_mb=1024 -artifact_prefix="$TEST_TMP/" "$TEST_TMP/corpus"
expect_rc 0
expect_err '^Done [0-9]+ runs'
grep '^Done' "$ERR"
exit 0
