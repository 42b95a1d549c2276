#!/bin/bash
# meson_dependency_mpi_fortran_finds_shoal_first_on_path: Meson's dependency('mpi', language: 'fortran') finds Shoal when Shoal's bin/ is first on PATH even though an Open MPI's ompi-fort.pc is on pkg-config's path (Shoal's ompi-fort.pc; also with FC=mpifort, and through the mpifort wrapper when pkg-config is unusable), finds that Open MPI when Shoal is not on PATH, and the project's Fortran shared library (mpi_f08, mpi and mpif.h) and program build and run directly and under mpiexec at 1, 4 and 64 ranks.
# timeout: 900
. "$SHOAL_TESTS/lib/common.bash"
command -v meson >/dev/null && command -v ninja >/dev/null || skip "meson or ninja is not installed (make deps)"
command -v pkg-config >/dev/null || skip "pkg-config is not installed (make deps)"
command -v gfortran >/dev/null || skip "gfortran is not installed (make deps)"
unset CC CXX FC CFLAGS FFLAGS PKG_CONFIG
src=$SHOAL_TESTS/lib/buildsys_fortran
plain_path=$PATH
shoal_path=$SHOAL_BUILD/bin:$PATH

# A stand-in for a system Open MPI: its pkg-config file, ahead of the system's directories.
mkdir -p "$TEST_TMP/ompi"
printf 'Name: ompi-fort\nDescription: stand-in Open MPI\nVersion: 4.1.99\nCflags: -DSTAND_IN_OPEN_MPI\nLibs:\n' \
	>"$TEST_TMP/ompi/ompi-fort.pc"
export PKG_CONFIG_PATH=$TEST_TMP/ompi

# setup NAME ENV...: meson setup of the project into $TEST_TMP/NAME; ENV are VAR=VALUE.
setup() {
	local name=$1
	shift
	run -t 300 env "$@" meson setup "$TEST_TMP/$name" "$src"
	expect_rc 0
}
# found NAME VERSION TYPE: what Meson found for Fortran.
found() {
	local f=$TEST_TMP/$1/meson-mpi.txt
	grep -q "^#define FORTRAN $2\$" "$f" && grep -q "^#define FORTRAN_TYPE $3\$" "$f" ||
		{ cat "$f"; fail "$1: Meson's MPI for Fortran is not version $2 by $3"; }
}
# works NAME: build (Shoal first on PATH, where FC=mpifort is looked for: Meson keeps the
# name), then run the program at 1, 4 and 64 ranks and directly.
works() {
	local b=$TEST_TMP/$1 n
	run -t 600 env PATH="$shoal_path" ninja -C "$b"
	expect_rc 0
	for n in 1 4 64; do
		run -t 120 "$MPIEXEC" -n $n "$b/app_f" meson
		expect_rc 0
		expect_out_count "^app_f rank [0-9]+ of $n sums $((n * (n + 1) / 2)) $((n * (n + 1) / 2)) $((n * (n + 1) / 2)) calls 3 self [0-9]+ arg meson\$" $n
	done
	run "$b/app_f" direct
	expect_rc 0
	expect_out '^app_f rank 0 of 1 sums 1 1 1 calls 3 self 0 arg direct$'
	grep -rq STAND_IN_OPEN_MPI "$b/build.ninja" && fail "$1: the stand-in Open MPI's flags are in the build"
	return 0
}

setup shoal PATH="$shoal_path"
found shoal 0.1.0 pkgconfig
works shoal

setup wrapper PATH="$shoal_path" FC=mpifort
found wrapper 0.1.0 pkgconfig
works wrapper

setup tool PATH="$shoal_path" PKG_CONFIG=/bin/false
found tool 0.1.0 config-tool
works tool

setup other PATH="$plain_path"
found other 4.1.99 pkgconfig
exit 0
