#!/bin/bash
# fortran_every_function_is_bound_or_listed: every function runtime/mpi.h declares has a
# Fortran fate in the binding description (runtime/fortran/bindgen.py list): bound, and then
# libmpifort.so exports its mpif.h/`mpi` entry points mpi_<name>_ and pmpi_<name>_; or
# listed as C-only, hand-written (manual) or large-count (mpi_f08 only), each with a
# reason where the description asks one. A binding that disappears from the library, a
# function of mpi.h the description leaves out, or a fate without a reason fails.
. "$SHOAL_TESTS/lib/common.bash"
root=$(cd "$SHOAL_TESTS/.." && pwd)
command -v python3 >/dev/null && command -v nm >/dev/null || skip "no python3 or nm"
lib=$SHOAL_BUILD/lib/libmpifort.so
[ -f "$lib" ] || fail "no $lib: make all builds it"

python3 "$root/runtime/fortran/bindgen.py" list >"$TEST_TMP/fates" 2>"$TEST_TMP/err" ||
	{ cat "$TEST_TMP/err"; fail "the binding description does not load"; }
nm -D --defined-only "$lib" | awk '{ print $NF }' | sort -u >"$TEST_TMP/exported"

# Every SHL_DECLARE of mpi.h, read here apart from the generator.
perl -0777 -ne 's{/\*.*?\*/}{}gs; while (/\bSHL_DECLARE\s*\(\s*[^,]+?,\s*(\w+)\s*,/g) { print "MPI_$1\n" unless $1 eq "name" }' \
	"$root/runtime/mpi.h" | sort -u >"$TEST_TMP/declared"
[ "$(wc -l <"$TEST_TMP/declared")" -gt 300 ] || fail "read too few declarations from mpi.h"

# One pass (awk): the declared names, the fates, the exported symbols.
# The hand-written bindings (runtime/fortran/callbacks.c, once it exists) are exported
# too, but for the large-count _c ones, which only mpi_f08 has.
manual_check=0
[ -f "$root/runtime/fortran/callbacks.c" ] && manual_check=1
awk -v lib="$lib" -v manual_check=$manual_check '
	FILENAME ~ /exported$/ { ex[$1] = 1; next }
	FILENAME ~ /fates$/ { n = $1; fate[n] = $2; $1 = ""; $2 = ""; gsub(/^ +/, ""); why[n] = $0; next }
	{
		fn = $1; lower = tolower(substr(fn, 5))
		if (!(fn in fate)) { print fn ": no fate in the description"; next }
		f = fate[fn]
		if (f == "bound") {
			if (!(("mpi_" lower "_") in ex)) print fn ": bound, but " lib " does not export mpi_" lower "_"
			if (!(("pmpi_" lower "_") in ex)) print fn ": bound, but " lib " does not export pmpi_" lower "_"
		} else if (f == "c-only" || f == "manual") {
			if (why[fn] == "") print fn ": " f " without a reason"
			if (f == "manual" && manual_check && fn !~ /_c$/ && !(("mpi_" lower "_") in ex))
				print fn ": manual, but " lib " does not export mpi_" lower "_"
		} else if (f == "large-count") {
			if (fn !~ /_c$/) print fn ": large-count, but not a _c twin"
		} else
			print fn ": unknown fate " f
	}' "$TEST_TMP/exported" "$TEST_TMP/fates" "$TEST_TMP/declared" >"$TEST_TMP/bad" ||
	fail "awk failed"
bad=()
while read -r line; do
	[ -n "$line" ] && bad+=("$line")
done <"$TEST_TMP/bad"

# The Fortran-only functions the bindings add.
grep -qx "mpi_f_sync_reg_" "$TEST_TMP/exported" || bad+=("MPI_F_SYNC_REG: not exported")

if [ ${#bad[@]} -gt 0 ]; then
	printf '%s\n' "${bad[@]}"
	fail "${#bad[@]} functions without their Fortran binding or reason"
fi
n=$(grep -c ' bound' "$TEST_TMP/fates")
echo "$(wc -l <"$TEST_TMP/declared") functions of mpi.h: $n bound, the others listed with a reason"
