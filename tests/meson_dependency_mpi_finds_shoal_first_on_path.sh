#!/bin/bash
# meson_dependency_mpi_finds_shoal_first_on_path: Meson's dependency('mpi') for C and C++ finds Shoal when Shoal's bin/ is first on PATH even though an Open MPI's ompi-c.pc/ompi-cxx.pc is on pkg-config's path (also with CC=mpicc, and through the wrappers when pkg-config is unusable), finds that Open MPI when Shoal is not on PATH, and the project's programs and shared libraries build and run directly and under mpiexec (build-tree $ORIGIN RUNPATH).
# timeout: 900
# tsan: it also runs the project's programs without mpiexec, where a program loads TSan with libmpi.so, after libc, which TSan does not support: one dies at start (SEGV), as in mpicc_underlying_compiler_env, a TSan limit
. "$SHOAL_TESTS/lib/common.bash"
command -v meson >/dev/null && command -v ninja >/dev/null || skip "meson or ninja is not installed (make deps)"
command -v pkg-config >/dev/null || skip "pkg-config is not installed (make deps)"
unset CC CXX CFLAGS CXXFLAGS PKG_CONFIG
src=$SHOAL_TESTS/lib/buildsys
plain_path=$PATH
shoal_path=$SHOAL_BUILD/bin:$PATH

# A stand-in for a system Open MPI: its pkg-config files, ahead of the system's directories.
mkdir -p "$TEST_TMP/ompi"
for n in ompi-c ompi-cxx; do
	printf 'Name: %s\nDescription: stand-in Open MPI\nVersion: 4.1.99\nCflags: -DSTAND_IN_OPEN_MPI\nLibs:\n' \
		$n >"$TEST_TMP/ompi/$n.pc"
done
export PKG_CONFIG_PATH=$TEST_TMP/ompi

# setup NAME ENV...: meson setup of the project into $TEST_TMP/NAME; ENV are VAR=VALUE.
setup() {
	local name=$1
	shift
	run -t 300 env "$@" meson setup "$TEST_TMP/$name" "$src"
	expect_rc 0
}
# found NAME VERSION TYPE: what Meson found for both languages.
found() {
	local f=$TEST_TMP/$1/meson-mpi.txt
	for l in C CPP; do
		grep -q "^#define $l $2\$" "$f" && grep -q "^#define ${l}_TYPE $3\$" "$f" ||
			{ cat "$f"; fail "$1: Meson's MPI for $l is not version $2 by $3"; }
	done
}
# works NAME: build, then run every program directly and at 4 and 64 ranks.
works() {
	local b=$TEST_TMP/$1
	run -t 400 ninja -C "$b"
	expect_rc 0
	for n in 1 4 64; do
		run "$MPIEXEC" -n $n "$b/app_c" -v
		expect_rc 0
		expect_out_count "^app_c rank [0-9]+ of $n sum $((n * (n - 1) / 2 + n)) calls 1 optind 2 verbose 1\$" $n
		expect_out '^app_c library Shoal$'
		run "$MPIEXEC" -n $n "$b/app_cxx"
		expect_rc 0
		expect_out_count "^app_cxx rank [0-9]+ sum $((n * (n - 1) / 2)) caught 2\$" $n
		run "$MPIEXEC" -n $n "$b/cout_data"
		expect_rc 0
		expect_out_count '^cout_data rank [0-9]+$' $n
		run "$MPIEXEC" -n $n "$b/libc_data"
		expect_rc 0
		expect_out_count '^libc_data rank [0-9]+ env 1$' $n
	done
	for p in app_c app_cxx cout_data libc_data; do
		run "$b/$p" -v
		expect_rc 0
		expect_out "^$p rank 0"
	done
	grep -rq STAND_IN_OPEN_MPI "$b/build.ninja" && fail "$1: the stand-in Open MPI's flags are in the build"
	return 0
}

setup shoal PATH="$shoal_path"
found shoal 0.1.0 pkgconfig
works shoal

setup wrappers PATH="$shoal_path" CC=mpicc CXX=mpicxx
found wrappers 0.1.0 pkgconfig
works wrappers

setup tool PATH="$shoal_path" PKG_CONFIG=/bin/false
found tool 0.1.0 config-tool
works tool

setup other PATH="$plain_path"
found other 4.1.99 pkgconfig

# With a real Open MPI on this machine, Meson must still find it without Shoal on PATH.
if PKG_CONFIG_PATH= pkg-config --exists ompi-c 2>/dev/null; then
	v=$(PKG_CONFIG_PATH= pkg-config --modversion ompi-c)
	setup system PATH="$plain_path" PKG_CONFIG_PATH=
	found system "$v" pkgconfig
fi
exit 0
