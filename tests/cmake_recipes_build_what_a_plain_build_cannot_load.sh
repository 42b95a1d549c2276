#!/bin/bash
# cmake_recipes_build_what_a_plain_build_cannot_load: a plain `cmake ..` links programs that use environ or thread-local variables of their own into executables that mpiexec refuses, naming the reason and the recipe; `CC=mpicc CXX=mpicxx cmake` builds every one of them (ctest passes under mpiexec), and `-DCMAKE_C_FLAGS=-fPIC` builds the environ one; std::cout works in all three.
# timeout: 900
# asan: ctest runs the programs directly too, and a program with thread-local variables run directly with the ASan libmpi.so crashes at start (the ASan runtime is not first in its libraries)
. "$SHOAL_TESTS/lib/common.bash"
command -v cmake >/dev/null || skip "cmake is not installed (make deps)"
export PATH=$SHOAL_BUILD/bin:$PATH
unset CC CXX CFLAGS CXXFLAGS
src=$SHOAL_TESTS/lib/buildsys

# refused PROGRAM REGEX: mpiexec refuses ./PROGRAM before any rank runs, saying REGEX.
refused() {
	run "$MPIEXEC" -n 4 "./$1"
	expect_rc 1
	expect_err "$2"
	expect_err 'CC=mpicc CXX=mpicxx'
	[ ! -s "$OUT" ] || { show; fail "$1 printed output, so ranks ran"; }
}

for recipe in plain wrappers fpic; do
	bld=$TEST_TMP/$recipe
	mkdir -p "$bld" && cd "$bld" || fail "no build directory"
	case $recipe in
	plain)    run -t 300 cmake -DLIBC_DATA=ON "$src" ;;
	wrappers) run -t 300 env CC=mpicc CXX=mpicxx cmake -DLIBC_DATA=ON "$src" ;;
	fpic)     run -t 300 cmake -DLIBC_DATA=ON -DCMAKE_C_FLAGS=-fPIC -DCMAKE_CXX_FLAGS=-fPIC "$src" ;;
	esac
	expect_rc 0
	run -t 400 make -j2
	expect_rc 0
	if [ $recipe = wrappers ]; then
		run -t 300 ctest --output-on-failure
		expect_rc 0
		expect_out '100% tests passed, 0 tests failed out of 15'
		run "$MPIEXEC" -n 4 ./tls_data
		expect_rc 0
		expect_out_count '^tls_data rank ([0-3]) own \1$' 4
	else
		refused tls_data 'tls_data is linked as an executable .* has thread-local variables of its own'
	fi
	if [ $recipe = plain ]; then
		refused libc_data 'libc_data .* uses the library object `(__)?environ` directly'
	else
		run "$MPIEXEC" -n 4 ./libc_data
		expect_rc 0
		expect_out_count '^libc_data rank [0-3] env 1$' 4
		expect_err 'libc_data rank 3'
	fi
	run "$MPIEXEC" -n 4 ./cout_data
	expect_rc 0
	expect_out_count '^cout_data rank [0-3]$' 4
done
exit 0
