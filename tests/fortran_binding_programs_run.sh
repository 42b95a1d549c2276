#!/bin/bash
# fortran_binding_programs_run: the binding tests written in Fortran, built with mpifort and
# run at 1, 4 and 64 ranks: mpif.h from fixed and free form, and `use mpi`
# (tests/fortran_mpif_h_fixed_form.f, tests/fortran_mpif_h_free_form.f90,
# tests/fortran_mpi_module_conversions.f90; each program's opening says what it checks).
# Each prints one "... ok" line from rank 0 and exits 0.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
MPIFORT=$SHOAL_BUILD/bin/mpifort
[ -x "$MPIFORT" ] || fail "no $MPIFORT: make all builds it"
command -v gfortran >/dev/null || skip "no gfortran"
# Once tests/run builds and runs Fortran programs itself, they run there, not twice.
grep -q 'tests/\*\.f90' "$SHOAL_TESTS/run" && skip "tests/run runs these Fortran programs itself"

for src in fortran_mpif_h_fixed_form.f fortran_mpif_h_free_form.f90 \
	fortran_mpi_module_conversions.f90; do
	name=${src%.*}
	mkdir -p "$TEST_TMP/mod_$name"
	"$MPIFORT" -O1 -g -J "$TEST_TMP/mod_$name" -o "$TEST_TMP/$name" "$SHOAL_TESTS/$src" \
		>"$TEST_TMP/$name.build" 2>&1 || { cat "$TEST_TMP/$name.build"; fail "mpifort could not build $src"; }
	for n in 1 4 64; do
		run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/$name"
		expect_rc 0
		expect_out_count ' ok$' 1
		grep -q FAILED "$OUT" && { show; fail "$name at $n ranks"; }
	done
	echo "$name: ok at 1, 4 and 64 ranks"
done
