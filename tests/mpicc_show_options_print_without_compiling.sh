#!/bin/bash
# mpicc_show_options_print_without_compiling: -show, -showme, -showme:compile, -showme:link, -showme:version, -compile-info and -link-info print the underlying command or flags and compile nothing.
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"
printf 'int main(void) { return 0; }\n' >x.c

for w in "$MPICC" "$MPICXX"; do
	run "$w" -show -o prog x.c
	expect_rc 0
	[ -e prog ] && fail "$w -show compiled"
	expect_out 'x\.c'
	expect_out '(gcc|cc|g\+\+|c\+\+|clang)'
	expect_out '\-I'
	expect_out '\-lmpi|libmpi'

	run "$w" -showme -o prog x.c
	expect_rc 0
	[ -e prog ] && fail "$w -showme compiled"
	expect_out 'x\.c'

	run "$w" -showme:compile
	expect_rc 0
	expect_out "\\-I"
	grep -q -- '-lmpi' "$OUT" && fail "$w -showme:compile prints link flags"

	run "$w" -showme:link
	expect_rc 0
	expect_out '\-lmpi|libmpi'

	run "$w" -compile-info
	expect_rc 0
	expect_out '\-I'

	run "$w" -link-info
	expect_rc 0
	expect_out '\-lmpi|libmpi'

	run "$w" -showme:version
	expect_rc 0
	expect_out '[0-9]+\.[0-9]+'
	expect_out '(Shoal|shoal)'
done
ls prog x.o a.out 2>/dev/null && fail "a show option produced output files"
exit 0
