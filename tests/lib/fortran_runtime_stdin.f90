! fortran_runtime_stdin: the program of tests/fortran_runtime_unit5_is_rank0s_stdin.sh.
! Once every rank is running (a barrier), reads unit 5 to its end, printing how many lines
! it got and whether they were the input's lines in order ("input 1", "input 2", ...).
program fortran_runtime_stdin
  use iso_c_binding, only: c_int
  implicit none
  include 'fortran_rank.inc'
  integer(c_int) :: rank, size
  character(len=64) :: line, want
  integer :: ios, n, bad
  rank = frt_init(size)
  call frt_barrier()
  n = 0
  bad = 0
  do
    read(*, '(A)', iostat=ios) line
    if (ios /= 0) exit
    n = n + 1
    write(want, '(A,I0)') 'input ', n
    if (line /= want) bad = bad + 1
  end do
  write(*, '(A,I0,A,I0)') 'lines ', n, ' bad ', bad
  call frt_finalize()
end program fortran_runtime_stdin
