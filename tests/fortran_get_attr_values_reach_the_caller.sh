#!/bin/bash
# fortran_get_attr_values_reach_the_caller: MPI_Comm_get_attr, MPI_Win_get_attr,
# MPI_Type_get_attr (mpi_f08, use mpi) and MPI_Attr_get (use mpi) write the attribute's
# value into their argument; their explicit interfaces must say so (INTENT(OUT)), else
# gfortran -O2 keeps the value the variable had before the call. Programs built at -O2,
# run at 1 and 4 ranks.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/attr_f08.f90" <<'SRC'
program attr_f08
  use mpi_f08
  implicit none
  integer(MPI_ADDRESS_KIND) :: v, w, t
  integer :: tk
  logical :: flag
  type(MPI_Win) :: win
  type(MPI_Datatype) :: dt
  integer :: buf(4)

  call MPI_Init()
  v = 0
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, v, flag)
  if (.not. flag .or. v < 32767) then
    print '(a, i0)', 'comm: MPI_TAG_UB read as ', v
    error stop 1
  end if
  call MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
  w = 0
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, w, flag)
  if (.not. flag .or. w /= 16) then
    print '(a, i0)', 'win: MPI_WIN_SIZE read as ', w
    error stop 1
  end if
  call MPI_Win_free(win)
  call MPI_Type_contiguous(2, MPI_INTEGER, dt)
  call MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, tk, 0_MPI_ADDRESS_KIND)
  call MPI_Type_set_attr(dt, tk, 4242_MPI_ADDRESS_KIND)
  t = 0
  call MPI_Type_get_attr(dt, tk, t, flag)
  if (.not. flag .or. t /= 4242) then
    print '(a, i0)', 'type: attribute read as ', t
    error stop 1
  end if
  call MPI_Type_free(dt)
  call MPI_Type_free_keyval(tk)
  call MPI_Finalize()
  print '(a)', 'attr f08 ok'
end program attr_f08
SRC

cat >"$TEST_TMP/attr_mpi.f90" <<'SRC'
program attr_mpi
  use mpi
  implicit none
  integer(MPI_ADDRESS_KIND) :: v
  integer :: old, ierr
  logical :: flag

  call MPI_Init(ierr)
  v = 0
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, v, flag, ierr)
  if (.not. flag .or. v < 32767) then
    print '(a, i0)', 'comm: MPI_TAG_UB read as ', v
    error stop 1
  end if
  old = 0
  call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, old, flag, ierr)
  if (.not. flag .or. old < 32767) then
    print '(a, i0)', 'attr_get: MPI_TAG_UB read as ', old
    error stop 1
  end if
  call MPI_Finalize(ierr)
  print '(a)', 'attr mpi ok'
end program attr_mpi
SRC

for p in attr_f08 attr_mpi; do
	build_fortran $p -O2 "$TEST_TMP/$p.f90"
done
for n in 1 4; do
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/attr_f08"
	expect_rc 0
	expect_out_count "attr f08 ok" $n
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/attr_mpi"
	expect_rc 0
	expect_out_count "attr mpi ok" $n
done
