! fortran_runtime_units: the program of tests/fortran_runtime_units_and_data_per_rank.sh.
! Every rank at once has unit 10 open on a file of its own (DIR/unit.RANK, DIR its first
! argument), writes it, reads it back and prints what it found; it also keeps COMMON,
! module and SAVE data of its own and prints its second argument.
module frt_data
  implicit none
  integer :: modvar = -1
end module frt_data

program fortran_runtime_units
  use iso_c_binding, only: c_int
  use frt_data
  implicit none
  include 'fortran_rank.inc'
  integer(c_int) :: rank, size
  integer :: i, n, v, w, ios, bad, cvar, calls
  common /frtblk/ cvar
  character(len=512) :: dir, fname, arg2

  rank = frt_init(size)
  call get_command_argument(1, dir)
  call get_command_argument(2, arg2)
  cvar = rank
  modvar = 1000 + rank
  do i = 1, mod(rank, 5) + 1
    call count_calls(calls)
  end do
  write(fname, '(A,A,I0)') trim(dir), '/unit.', rank
  open(unit=10, file=fname, status='replace', action='write')
  call frt_barrier()  ! every rank's unit 10 is open now
  do i = 1, 2000
    write(10, '(I0,1X,I0)') rank, i
  end do
  call frt_barrier()
  close(10)
  open(unit=10, file=fname, status='old', action='read')
  n = 0
  bad = 0
  do
    read(10, *, iostat=ios) v, w
    if (ios /= 0) exit
    n = n + 1
    if (v /= rank .or. w /= n) bad = bad + 1
  end do
  close(10)
  call frt_barrier()  ! every rank has changed its data now
  write(*, '(A,I0,A,I0,A,I0,A,A,A,I0,1X,I0,1X,I0)') 'rank ', rank, ' lines ', n, ' bad ', &
    bad, ' arg [', trim(arg2), '] data ', cvar, modvar, calls
  call frt_finalize()
contains
  subroutine count_calls(out)
    integer, intent(out) :: out
    integer, save :: count = 0
    count = count + 1
    out = count
  end subroutine count_calls
end program fortran_runtime_units
