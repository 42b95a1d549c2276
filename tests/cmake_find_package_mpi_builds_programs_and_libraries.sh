#!/bin/bash
# cmake_find_package_mpi_builds_programs_and_libraries: with Shoal first on PATH, a plain `cmake ..` of a project using find_package(MPI) and MPI::MPI_C / MPI::MPI_CXX on shared libraries and executables (compiled -fPIE, using stderr, std::cout and exceptions of libstdc++ and of a project library themselves) fills MPI_C_LIBRARY_VERSION_STRING, builds, passes ctest (FindMPI's MPIEXEC_* at 4 and 64 ranks, and run directly), and its install tree's programs find their library through $ORIGIN under mpiexec.
# timeout: 600
. "$SHOAL_TESTS/lib/common.bash"
command -v cmake >/dev/null || skip "cmake is not installed (make deps)"
export PATH=$SHOAL_BUILD/bin:$PATH
unset CC CXX CFLAGS CXXFLAGS
src=$SHOAL_TESTS/lib/buildsys
bld=$TEST_TMP/build

mkdir -p "$bld" && cd "$bld" || fail "no build directory"
run -t 300 cmake "$src"
expect_rc 0
grep -q '^version Shoal MPI' mpi_found.txt || { cat mpi_found.txt; fail "FindMPI's MPI_C_LIBRARY_VERSION_STRING is not Shoal's"; }
grep -q "^mpiexec $SHOAL_BUILD/bin/mpiexec\$" mpi_found.txt || { cat mpi_found.txt; fail "FindMPI's MPIEXEC_EXECUTABLE is not Shoal's"; }

run -t 400 make -j2
expect_rc 0
run -t 200 ctest --output-on-failure
expect_rc 0
expect_out '100% tests passed, 0 tests failed out of 6'

run -t 100 cmake --install . --prefix "$TEST_TMP/inst"
expect_rc 0
cd / || fail "cannot leave the build directory"
for n in 4 64; do
	run "$MPIEXEC" -n $n "$TEST_TMP/inst/bin/app_c" -v
	expect_rc 0
	expect_out_count "^app_c rank [0-9]+ of $n sum $((n * (n - 1) / 2 + n)) calls 1 optind 2 verbose 1\$" $n
	[ "$(grep -Ec "^app_c rank [0-9]+ stderr\$" "$ERR")" = $n ] || { show; fail "not $n stderr lines"; }
	run "$MPIEXEC" -n $n "$TEST_TMP/inst/bin/app_cxx"
	expect_rc 0
	expect_out_count "^app_cxx rank [0-9]+ of $n\$" $n
	expect_out_count "^app_cxx rank [0-9]+ sum $((n * (n - 1) / 2)) caught 2\$" $n
done
run "$TEST_TMP/inst/bin/app_cxx"
expect_rc 0
expect_out '^app_cxx rank 0 sum 0 caught 2$'
run "$TEST_TMP/inst/bin/app_c"
expect_rc 0
expect_err '^app_c rank 0 stderr$'
exit 0
