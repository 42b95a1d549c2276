! fortran_runtime_stop: the program of tests/fortran_runtime_stop_and_error_stop.sh. Its
! first argument says what the last rank (K = size - 1) does, its second is a directory:
!   error_num    ERROR STOP 3 while the other ranks wait in MPI_Barrier
!   error_late   ERROR STOP 3 after MPI_Finalize, while the others wait (up to 200 s)
!   error_str    ERROR STOP 'bad input file'
!   error_quiet  ERROR STOP 4, QUIET=.true.
!   stop         (every odd rank, after MPI_Finalize) STOP 5; the even ranks wait until
!                every odd rank is about to stop, then end normally
!   bounds       (built -fcheck=bounds) an index past an array's end, after MPI_Finalize
!   segv         stores through a null pointer, after MPI_Finalize (the others wait)
program fortran_runtime_stop
  use iso_c_binding, only: c_int
  implicit none
  include 'fortran_rank.inc'
  integer(c_int) :: rank, size
  integer :: i, k, u, a(10)
  integer, pointer :: p(:)
  logical :: there, all_there
  character(len=32) :: mode
  character(len=512) :: dir, f

  rank = frt_init(size)
  call get_command_argument(1, mode)
  call get_command_argument(2, dir)
  k = size - 1
  write(*, '(A,I0,A)') 'rank ', rank, ' started'
  select case (trim(mode))
  case ('error_num')
    if (rank == k) error stop 3
    call frt_barrier()
  case ('error_str')
    if (rank == k) error stop 'bad input file'
    call frt_barrier()
  case ('error_quiet')
    if (rank == k) error stop 4, quiet=.true.
    call frt_barrier()
  case ('error_late')
    call frt_finalize()
    if (rank == k) error stop 3
    call sleep(200)
    stop
  case ('stop')
    call frt_finalize()
    if (mod(rank, 2) == 1) then
      write(f, '(A,A,I0)') trim(dir), '/stopping.', rank
      open(newunit=u, file=f, status='replace')
      close(u)
      stop 5
    end if
    do i = 1, 120
      all_there = .true.
      do u = 1, size - 1, 2
        write(f, '(A,A,I0)') trim(dir), '/stopping.', u
        inquire(file=f, exist=there)
        all_there = all_there .and. there
      end do
      if (all_there) exit
      call sleep(1)
    end do
    write(*, '(A,I0,A)') 'rank ', rank, ' ends normally'
    stop
  case ('bounds')
    call frt_finalize()
    a = rank
    i = command_argument_count() + 8   ! 10, unknown to the compiler
    if (rank == k) i = i + 1
    write(*, '(A,I0,A,I0)') 'rank ', rank, ' reads ', a(i)
    stop
  case ('segv')
    call frt_finalize()
    nullify(p)
    if (rank == k) p(command_argument_count()) = 1
    call sleep(200)
    stop
  end select
  write(*, '(A,I0,A)') 'rank ', rank, ' not stopped'
  call frt_finalize()
end program fortran_runtime_stop
