#!/bin/bash
# cmake_find_package_mpi_fortran_builds_programs_and_libraries: with Shoal first on PATH, find_package(MPI COMPONENTS Fortran) finds Shoal through mpif90 (MPI_Fortran_FOUND, MPI_Fortran_HAVE_F77_HEADER, _F90_MODULE and _F08_MODULE all TRUE, version 4.1, Shoal's mpiexec), and a project's Fortran shared library (mpi_f08, mpi and mpif.h, each with its sentinels) and program linked to MPI::MPI_Fortran build and pass ctest at 4 and 64 ranks and run directly; the same with FC=mpifort, which FindMPI then takes as the MPI compiler.
# timeout: 900
. "$SHOAL_TESTS/lib/common.bash"
command -v cmake >/dev/null || skip "cmake is not installed (make deps)"
command -v gfortran >/dev/null || skip "gfortran is not installed (make deps)"
export PATH=$SHOAL_BUILD/bin:$PATH
unset CC CXX FC CFLAGS FFLAGS
src=$SHOAL_TESTS/lib/buildsys_fortran

# project NAME WRAPPER ENV...: configure, build and ctest the project in $TEST_TMP/NAME;
# FindMPI's Fortran compiler must be Shoal's WRAPPER.
project() {
	local name=$1 wrapper=$2 f
	shift 2
	mkdir -p "$TEST_TMP/$name" && cd "$TEST_TMP/$name" || fail "no build directory"
	run -t 300 env "$@" cmake "$src"
	expect_rc 0
	f=$TEST_TMP/$name/mpi_found.txt
	for want in "found TRUE" "compiler $SHOAL_BUILD/bin/$wrapper" "f77_header TRUE" "f90_module TRUE" \
		    "f08_module TRUE" "version 4.1" "mpiexec $SHOAL_BUILD/bin/mpiexec"; do
		grep -qx "$want" "$f" || { cat "$f"; fail "$name: FindMPI did not give '$want'"; }
	done
	run -t 600 make
	expect_rc 0
	run -t 300 ctest --output-on-failure
	expect_rc 0
	expect_out '100% tests passed, 0 tests failed out of 3'
	cd / || fail "cannot leave the build directory"
}

project plain mpif90
project wrapper mpifort FC=mpifort
exit 0
