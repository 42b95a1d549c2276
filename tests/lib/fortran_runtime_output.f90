! fortran_runtime_output: the program of tests/fortran_runtime_output_lines_whole_and_labelled.sh.
! Each rank writes lines to unit 6 (formatted, list-directed, one line in three
! non-advancing pieces) and unit 0; with a first argument, rank 0 then says it waits and
! waits (up to 120 s) for that file to exist before it goes on.
program fortran_runtime_output
  use iso_c_binding, only: c_int
  implicit none
  include 'fortran_rank.inc'
  integer(c_int) :: rank, size
  integer :: i
  logical :: there
  character(len=512) :: go
  character(len=80) :: pad

  rank = frt_init(size)
  go = ''
  if (command_argument_count() > 0) call get_command_argument(1, go)
  pad = repeat('abcdefghij', 8)
  do i = 1, 50
    write(*, '(A,I0,A,I0,1X,A)') 'rank ', rank, ' line ', i, pad
    write(0, '(A,I0,A,I0)') 'rank ', rank, ' error ', i
  end do
  write(*, '(A,I0)', advance='no') 'rank ', rank
  write(*, '(A)', advance='no') ' built'
  write(*, '(A)') ' from pieces'
  print *, 'rank', rank, 'list-directed'
  if (rank == 0 .and. len_trim(go) > 0) then
    write(*, '(A)') 'rank 0 waits'
    do i = 1, 120
      inquire(file=trim(go), exist=there)
      if (there) exit
      call sleep(1)
    end do
    write(*, '(A)') 'rank 0 went on'
  end if
  call frt_barrier()
  call frt_finalize()
end program fortran_runtime_output
