#!/bin/bash
# fortran_f08_callbacks: callbacks written against mpi_f08's abstract interfaces: a user
# reduction (MPI_User_function, TYPE(C_PTR) vectors) and its large-count form
# (MPI_Op_create_c) in MPI_Allreduce, a communicator error handler that sees
# TYPE(MPI_Comm) and the error code, and attribute copy/delete callbacks run by
# MPI_Comm_dup and MPI_Comm_free; at 1, 4 and 64 ranks.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/callbacks.f90" <<'SRC'
module cbs
  use, intrinsic :: iso_c_binding
  use mpi_f08
  implicit none
  integer :: handled = 0, copies = 0, deletes = 0
contains
  ! inoutvec(i) = max(invec(i), inoutvec(i)) * 1, on default integers.
  subroutine my_max(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    if (datatype /= MPI_INT) error stop 'user function: wrong datatype'
    b = max(a, b)
  end subroutine my_max

  subroutine my_sum_c(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer(MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = a + b
  end subroutine my_sum_c

  subroutine on_error(comm, code)
    type(MPI_Comm) :: comm
    integer :: code
    integer :: cls
    call MPI_Error_class(code, cls)
    if (cls == MPI_ERR_RANK .and. comm /= MPI_COMM_NULL) handled = handled + 1
  end subroutine on_error

  subroutine copy_attr(oldcomm, keyval, extra, val_in, val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: extra, val_in, val_out
    logical :: flag
    copies = copies + 1
    val_out = val_in + extra
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine copy_attr

  subroutine delete_attr(comm, keyval, val, extra, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(MPI_ADDRESS_KIND) :: val, extra
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine delete_attr
end module cbs

program callbacks
  use cbs
  implicit none
  type(MPI_Op) :: op, op_c
  type(MPI_Errhandler) :: eh
  type(MPI_Comm) :: dup
  integer :: rank, size, v(2), r(2), kv, ierr
  integer(MPI_ADDRESS_KIND) :: val
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)

  call MPI_Op_create(my_max, .true., op)
  v = [rank, -rank]
  call MPI_Allreduce(v, r, 2, MPI_INT, op, MPI_COMM_WORLD)
  if (any(r /= [size - 1, 0])) error stop 'user op result'
  call MPI_Op_free(op)
  call MPI_Op_create_c(my_sum_c, .true., op_c)
  call MPI_Allreduce(v, r, 2, MPI_INT, op_c, MPI_COMM_WORLD)
  if (r(1) /= size * (size - 1) / 2) error stop 'large-count user op result'
  call MPI_Op_free(op_c)

  call MPI_Comm_create_errhandler(on_error, eh)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_errhandler(dup, eh)
  call MPI_Send(v, 1, MPI_INT, size + 3, 0, dup, ierr)
  if (handled /= 1) error stop 'error handler not called'

  call MPI_Comm_create_keyval(copy_attr, delete_attr, kv, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(dup, kv, 37_MPI_ADDRESS_KIND)
  call MPI_Comm_free(dup)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_attr(dup, kv, 10_MPI_ADDRESS_KIND)
  block
    type(MPI_Comm) :: dup2
    call MPI_Comm_dup(dup, dup2)
    call MPI_Comm_get_attr(dup2, kv, val, flag)
    if (.not. flag .or. val /= 15) error stop 'copied attribute'
    call MPI_Comm_free(dup2)
  end block
  call MPI_Comm_free(dup)
  if (copies /= 1 .or. deletes /= 3) error stop 'copy/delete callbacks'
  call MPI_Comm_free_keyval(kv)
  call MPI_Errhandler_free(eh)

  call MPI_Finalize()
  if (rank == 0) print '(a)', 'callbacks ok'
end program callbacks
SRC
build_fortran callbacks -g "$TEST_TMP/callbacks.f90"

for n in 1 4 64; do
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/callbacks"
	expect_rc 0
	expect_out "callbacks ok"
done
