#!/bin/bash
# mpifort_wrapper_names_queries_and_builds: mpifort, mpif77 and mpif90 are one program answering mpicc's queries for Fortran (-showme:compile with the include directory of mpif.h and the modules, -showme:link with mpif_sentinels.o and -lmpifort ahead of -lmpi, -showme:libs, -showme:version, -compile-info, -link-info), run SHOAL_FC (default gfortran), refuse -static, take -J's argument, drop the flags a build system hands back, give a shared library its soname and sentinels; free- and fixed-form programs with mpif.h, the mpi module and mpi_f08 (with a module of their own) build and run at 1, 4 and 64 ranks and directly.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
command -v gfortran >/dev/null || skip "gfortran is not installed (make deps)"
bin=$SHOAL_BUILD/bin
lib=$(cd "$SHOAL_BUILD/lib" && pwd -P)
inc=$(cd "$SHOAL_BUILD/include" && pwd -P)
cd "$TEST_TMP" || fail "no scratch directory"
# mpifort's compile flags: the include directory, and -fallow-argument-mismatch where the
# compiler has it (mpif.h programs).
cf="-I$inc"
gfortran -fallow-argument-mismatch -fsyntax-only -x f95 /dev/null >/dev/null 2>&1 &&
	cf="$cf -fallow-argument-mismatch"

for w in mpifort mpif77 mpif90; do
	run "$bin/$w" -showme:compile
	expect_rc 0
	expect_out "^$cf -fPIC\$"
	run "$bin/$w" -showme:link
	expect_rc 0
	expect_out "-Wl,$lib/shoal/rankcrt.o -Wl,$lib/shoal/mpif_sentinels.o -L$lib .*-lmpifort -lmpi\$"
	run "$bin/$w" -showme:libs
	expect_out '^mpifort mpi$'
	run "$bin/$w" -showme:version
	expect_out '^mpifort: Shoal [0-9.]+ \(Language: Fortran\)$'
	run "$bin/$w" -show -o p p.f90
	expect_out "^gfortran $cf -o p p.f90 -fPIC -shared .*$lib/shoal/rankcrt.o $lib/shoal/mpif_sentinels.o -L$lib .*-lmpifort -lmpi\$"
done
run "$bin/mpifort" -compile-info -c p.f90
expect_out "^gfortran $cf -c p.f90 -fPIC\$"
run "$bin/mpifort" -link-info p.o
expect_out "^gfortran $cf p.o -fPIC -shared "
run env SHOAL_FC="ccache gfortran-12" "$bin/mpifort" -show -c p.f90
expect_out '^ccache gfortran-12 '
run "$bin/mpifort" -static -o p p.f90
expect_rc 1
expect_err '^mpifort: -static is not possible with Shoal'
run "$bin/mpifort" -show -J mods -c p.f90
expect_out "^gfortran $cf -J mods -c p.f90 -fPIC\$"
# A build system handing back -showme:link (FC=mpifort with Meson's pkg-config flags).
run "$bin/mpifort" -show p.o $("$bin/mpifort" -showme:link)
[ "$(grep -o 'rankcrt.o' "$OUT" | wc -l)" = 1 ] && [ "$(grep -o 'mpif_sentinels.o' "$OUT" | wc -l)" = 1 ] ||
	{ show; fail "rankcrt.o or mpif_sentinels.o not once"; }
run "$bin/mpifort" -show -shared -o "$TEST_TMP/libf.so" f.o
expect_out "-Wl,-soname,libf.so -x none $lib/shoal/mpif_sentinels.o -L$lib .*-lmpifort -lmpi\$"

# A library (a module, mpif.h inside) and programs of each form.
cat >flib.f90 <<'SRC'
module flib
  implicit none
  integer, save :: calls = 0
contains
  integer function flib_sum(v) result(total)
    include 'mpif.h'
    integer, intent(in) :: v
    integer :: ierr
    calls = calls + 1
    total = v
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function flib_sum
end module flib
SRC
cat >free.f90 <<'SRC'
program free
  use flib
  use mpi_f08
  implicit none
  integer :: rank, size
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  write(*, '(A,I0,A,I0,A,I0,A,I0)') 'free rank ', rank, ' of ', size, ' sum ', flib_sum(rank), &
    ' calls ', calls
  call MPI_Finalize()
end program free
SRC
cat >fixed.f <<'SRC'
      PROGRAM FIXED
      USE MPI
      IMPLICIT NONE
      INTEGER RANK, NP, IERR, TOTAL
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_ALLREDUCE(RANK, TOTAL, 1, MPI_INT, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      WRITE(*, '(A,I0,A,I0)') 'fixed rank ', RANK, ' sum ', TOTAL
      CALL MPI_FINALIZE(IERR)
      END
SRC
"$bin/mpifort" -g -shared -o "$TEST_TMP/libflib.so" flib.f90 >build.log 2>&1 &&
	"$bin/mpif90" -g -o free free.f90 -L"$TEST_TMP" -lflib -Wl,-rpath,"$TEST_TMP" >>build.log 2>&1 &&
	"$bin/mpif77" -g -o fixed fixed.f >>build.log 2>&1 || { cat build.log; fail "mpifort could not build the programs"; }
readelf -d libflib.so | grep -q 'SONAME.*\[libflib.so\]' || fail "libflib.so has no soname"
for n in 1 4 64; do
	run -t 120 "$MPIEXEC" -n $n ./free
	expect_rc 0
	expect_out_count "^free rank [0-9]+ of $n sum $((n * (n - 1) / 2)) calls 1\$" $n
	run -t 120 "$MPIEXEC" -n $n ./fixed
	expect_rc 0
	expect_out_count "^fixed rank [0-9]+ sum $((n * (n - 1) / 2))\$" $n
done
run ./free
expect_rc 0
expect_out '^free rank 0 of 1 sum 0 calls 1$'
exit 0
