#!/bin/bash
# cmake_fpic_recipes_build_programs_using_libc_data: the documented CMake recipes for programs that use libc's and libstdc++'s data objects themselves (stderr, environ, std::cout), `CC=mpicc CXX=mpicxx cmake` and `cmake -DCMAKE_C_FLAGS=-fPIC -DCMAKE_CXX_FLAGS=-fPIC`, build the project with its shared libraries and pass ctest under mpiexec.
# timeout: 900
. "$SHOAL_TESTS/lib/common.bash"
command -v cmake >/dev/null || skip "cmake is not installed (make deps)"
export PATH=$SHOAL_BUILD/bin:$PATH
unset CC CXX CFLAGS CXXFLAGS
src=$SHOAL_TESTS/lib/buildsys

for recipe in wrappers fpic; do
	bld=$TEST_TMP/$recipe
	mkdir -p "$bld" && cd "$bld" || fail "no build directory"
	if [ $recipe = wrappers ]; then
		run -t 300 env CC=mpicc CXX=mpicxx cmake -DLIBC_DATA=ON "$src"
	else
		run -t 300 cmake -DLIBC_DATA=ON -DCMAKE_C_FLAGS=-fPIC -DCMAKE_CXX_FLAGS=-fPIC "$src"
	fi
	expect_rc 0
	run -t 400 make -j2
	expect_rc 0
	run -t 200 ctest --output-on-failure
	expect_rc 0
	expect_out '100% tests passed, 0 tests failed out of 12'
	run "$MPIEXEC" -n 4 ./libc_data
	expect_rc 0
	expect_out_count '^libc_data rank [0-3] env 1$' 4
	expect_err 'libc_data rank 3'
	run "$MPIEXEC" -n 4 ./cout_data
	expect_rc 0
	expect_out_count '^cout_data rank [0-3]$' 4
done
exit 0
