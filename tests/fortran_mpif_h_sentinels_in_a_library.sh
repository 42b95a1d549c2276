#!/bin/bash
# fortran_mpif_h_sentinels_in_a_library: a Fortran shared library built with mpifort that
# includes mpif.h has COMMON sentinels of its own, apart from the program's: MPI_IN_PLACE
# passed from the library works as MPI_IN_PLACE and its MPI_STATUS_IGNORE is never
# written (mpif_sentinels.o in the library registers them), while the program's own work
# too, at 1, 4 and 64 ranks.
. "$SHOAL_TESTS/lib/common.bash"
MPIFORT=$SHOAL_BUILD/bin/mpifort
[ -x "$MPIFORT" ] || fail "no $MPIFORT: make all builds it"

cat >"$TEST_TMP/libsum.f90" <<'SRC'
integer function lib_world_sum(x)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: x
  integer :: ierr, dummy(1)
  lib_world_sum = x
  call MPI_Allreduce(MPI_IN_PLACE, lib_world_sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, ierr)
  MPI_STATUS_IGNORE = -3
  call MPI_Recv(dummy, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (any(MPI_STATUS_IGNORE /= -3)) lib_world_sum = -999
end function lib_world_sum
SRC
cat >"$TEST_TMP/main.f90" <<'SRC'
program main
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, n, s, lib_world_sum
  external lib_world_sum
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  s = rank
  call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (lib_world_sum(1) /= n .or. s /= n * (n - 1) / 2) then
    print '(a, i0)', 'FAILED on rank ', rank
  else if (rank == 0) then
    print '(a)', 'library and program ok'
  end if
  call MPI_Finalize(ierr)
end program main
SRC
(cd "$TEST_TMP" && "$MPIFORT" -shared -fPIC -o libsum.so libsum.f90 &&
	"$MPIFORT" -o main main.f90 -L. -lsum -Wl,-rpath,"$TEST_TMP") >"$TEST_TMP/build.log" 2>&1 ||
	{ cat "$TEST_TMP/build.log"; fail "mpifort could not build the library or the program"; }
for n in 1 4 64; do
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/main"
	expect_rc 0
	expect_out_count '^library and program ok$' 1
	expect_out_count FAILED 0
done
echo "mpif.h sentinels of a library and of its program both recognised at 1, 4 and 64 ranks"
