#!/bin/bash
# fortran_f08_handles_status_and_ierror: `use mpi_f08` gives TYPE(MPI_Comm) and the other
# handle types with == and /= (a dup differs from MPI_COMM_WORLD, a freed one is
# MPI_COMM_NULL), TYPE(MPI_Status) with MPI_SOURCE/MPI_TAG/MPI_ERROR filled by a receive and
# converted to and from an INTEGER status (MPI_Status_f082f/f2f08), MPI_STATUS_IGNORE,
# ierror optional (absent, or present and set to the error's code under MPI_ERRORS_RETURN),
# LOGICAL flags, MPI_SIZEOF and MPI_BOTTOM (a message described by absolute addresses);
# at 1, 4 and 64 ranks.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/handles.f90" <<'SRC'
program handles
  use mpi_f08
  implicit none
  type(MPI_Comm) :: dup
  type(MPI_Status) :: st, back
  type(MPI_Request) :: req
  type(MPI_Datatype) :: absolute
  integer(MPI_ADDRESS_KIND) :: addr(1)
  integer :: fst(MPI_STATUS_SIZE)
  integer :: rank, size, ierr, cls, v, got, res, bytes
  logical :: flag
  double precision :: d

  call MPI_Init(ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_Init ierror')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call expect(ierr == MPI_SUCCESS, 'MPI_Comm_size ierror')

  call expect(MPI_COMM_WORLD /= MPI_COMM_SELF .and. MPI_COMM_WORLD == MPI_COMM_WORLD, 'comm ==')
  call expect(MPI_DOUBLE /= MPI_INT .and. MPI_SUM /= MPI_MAX, 'datatype/op ==')
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call expect(dup /= MPI_COMM_WORLD .and. dup /= MPI_COMM_NULL, 'dup is a new handle')
  call MPI_Comm_compare(dup, MPI_COMM_WORLD, res)
  call expect(res == MPI_CONGRUENT, 'dup congruent')
  call MPI_Comm_test_inter(dup, flag)
  call expect(.not. flag, 'LOGICAL flag')

  ! A status from a receive: self-message through Isend, then Recv.
  v = 100 + rank
  call MPI_Isend(v, 1, MPI_INT, rank, 7, dup, req)
  call MPI_Recv(got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, st)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call expect(got == 100 + rank, 'received value')
  call expect(st%MPI_SOURCE == rank .and. st%MPI_TAG == 7, 'status fields')
  call MPI_Get_count(st, MPI_INT, got)
  call expect(got == 1, 'count from the status')
  call MPI_Status_f082f(st, fst)
  call expect(fst(MPI_SOURCE) == rank .and. fst(MPI_TAG) == 7, 'f082f fields')
  call MPI_Status_f2f08(fst, back)
  call MPI_Get_count(back, MPI_INT, got)
  call expect(back%MPI_TAG == 7 .and. got == 1, 'f2f08 keeps the byte count')
  call MPI_Test_cancelled(st, flag)
  call expect(.not. flag, 'not cancelled')

  ! MPI_BOTTOM: the datatype holds v's address.
  call MPI_Get_address(v, addr(1))
  call MPI_Type_create_hindexed(1, [1], addr, MPI_INT, absolute)
  call MPI_Type_commit(absolute)
  v = 200 + rank
  got = -1
  call MPI_Isend(MPI_BOTTOM, 1, absolute, rank, 8, dup, req)
  call MPI_Recv(got, 1, MPI_INT, rank, 8, dup, MPI_STATUS_IGNORE)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call expect(got == 200 + rank, 'sent from MPI_BOTTOM')
  call MPI_Type_free(absolute)

  ! ierror present: the error's code; absent: the handler (ERRORS_RETURN) returns.
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  call MPI_Send(v, 1, MPI_INT, size + 5, 0, dup, ierr)
  call MPI_Error_class(ierr, cls)
  call expect(cls == MPI_ERR_RANK, 'ierror has MPI_ERR_RANK')
  call MPI_Send(v, 1, MPI_INT, size + 5, 0, dup)

  call MPI_Sizeof(d, bytes)
  call expect(bytes == 8, 'MPI_SIZEOF(double precision)')
  call MPI_Sizeof(v, bytes, ierr)
  call expect(bytes == 4 .and. ierr == MPI_SUCCESS, 'MPI_SIZEOF(integer)')

  call MPI_Comm_free(dup)
  call expect(dup == MPI_COMM_NULL, 'freed comm is MPI_COMM_NULL')
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Finalize()
  if (rank == 0) print '(a)', 'handles ok'
contains
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      write (0, '(a, i0, 2a)') 'rank ', rank, ': FAILED: ', what
      error stop 1
    end if
  end subroutine expect
end program handles
SRC
build_fortran handles -g "$TEST_TMP/handles.f90"

for n in 1 4 64; do
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/handles"
	expect_rc 0
	expect_out "handles ok"
done
