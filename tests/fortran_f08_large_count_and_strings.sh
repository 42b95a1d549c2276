#!/bin/bash
# fortran_f08_large_count_and_strings: in `use mpi_f08`, a count of kind MPI_COUNT_KIND
# picks the large-count form of the same generic (MPI_Send with an INTEGER(MPI_COUNT_KIND)
# count calls MPI_Send_c_f08ts, which a program can intercept and forward to PMPI_Send),
# MPI_Get_count and MPI_Type_size answer in that kind, MPI_Type_get_extent_c has its own
# name; CHARACTER arguments go in without their trailing blanks and come back blank-padded
# with their lengths (communicator names, the processor name, info values, error strings,
# the data representation of MPI_Pack_external, a string beside a choice buffer).
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/large.f90" <<'SRC'
! Stands in for MPI_Send_c_f08ts, as a profiling library would: counts and forwards.
module seen
  implicit none
  integer :: large_sends = 0
end module seen

subroutine my_send_c(buf, count, datatype, dest, tag, comm, ierror) &
    bind(C, name="MPI_Send_c_f08ts")
  use mpi_f08
  use seen
  implicit none
  type(*), dimension(..), intent(in) :: buf
  integer(MPI_COUNT_KIND), intent(in) :: count
  type(MPI_Datatype), intent(in) :: datatype
  integer, intent(in) :: dest, tag
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  large_sends = large_sends + 1
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine my_send_c

program large
  use mpi_f08
  use seen
  implicit none
  integer(MPI_COUNT_KIND) :: n8, got8, size8
  integer(MPI_ADDRESS_KIND) :: lb, ext
  integer(MPI_COUNT_KIND) :: lb8, ext8
  integer :: rank, v(3), w(3), ln, buflen
  type(MPI_Status) :: st
  type(MPI_Request) :: req
  type(MPI_Comm) :: dup
  type(MPI_Info) :: info
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=40) :: value
  character(len=MPI_MAX_ERROR_STRING) :: text
  logical :: flag
  integer(MPI_ADDRESS_KIND) :: pos
  character :: packed(64)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)

  v = [1, 2, 3] + rank
  n8 = 3
  call MPI_Irecv(w, 3, MPI_INT, rank, 5, MPI_COMM_WORLD, req)
  call MPI_Send(v, n8, MPI_INT, rank, 5, MPI_COMM_WORLD)
  call MPI_Wait(req, st)
  call expect(large_sends == 1, 'the large-count specific was called')
  call expect(all(w == v), 'large-count send delivered')
  call MPI_Get_count(st, MPI_INT, got8)
  call expect(got8 == 3_MPI_COUNT_KIND, 'MPI_Get_count in MPI_COUNT_KIND')
  call MPI_Type_size(MPI_INT, size8)
  call expect(size8 == 4_MPI_COUNT_KIND, 'MPI_Type_size in MPI_COUNT_KIND')
  call MPI_Type_get_extent(MPI_DOUBLE, lb, ext)
  call MPI_Type_get_extent_c(MPI_DOUBLE, lb8, ext8)
  call expect(ext == 8 .and. ext8 == 8 .and. lb == 0 .and. lb8 == 0, 'extents')

  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_name(dup, 'ring comm   ')
  name = repeat('x', len(name))
  call MPI_Comm_get_name(dup, name, ln)
  call expect(ln == 9 .and. name == 'ring comm', 'communicator name round trip')
  call MPI_Get_processor_name(host, ln)
  call expect(ln > 0 .and. len_trim(host) == ln, 'processor name')
  call MPI_Info_create(info)
  call MPI_Info_set(info, 'shoal_key', 'a b c  ')
  buflen = len(value)
  call MPI_Info_get_string(info, 'shoal_key', buflen, value, flag)
  call expect(flag .and. value == 'a b c', 'info value round trip')
  call MPI_Info_get_string(info, 'no_such_key', buflen, value, flag)
  call expect(.not. flag, 'missing info key')
  call MPI_Info_free(info)
  call MPI_Comm_free(dup)
  call MPI_Error_string(MPI_ERR_TRUNCATE, text, ln)
  call expect(ln > 0 .and. ln == len_trim(text), 'error string')

  pos = 0
  call MPI_Pack_external('external32   ', v, 3, MPI_INT, packed, 64_MPI_ADDRESS_KIND, pos)
  call expect(pos == 12 .and. ichar(packed(4)) == v(1), 'external32 is big-endian')
  pos = 0
  w = 0
  call MPI_Unpack_external('external32', packed, 64_MPI_ADDRESS_KIND, pos, w, 3, MPI_INT)
  call expect(all(w == v), 'external32 round trip')

  call MPI_Finalize()
  if (rank == 0) print '(a)', 'large and strings ok'
contains
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      write (0, '(a, i0, 2a)') 'rank ', rank, ': FAILED: ', what
      error stop 1
    end if
  end subroutine expect
end program large
SRC
build_fortran large -g "$TEST_TMP/large.f90"

for n in 1 4; do
	run -t 60 "$MPIEXEC" -n $n "$TEST_TMP/large"
	expect_rc 0
	expect_out "large and strings ok"
done
