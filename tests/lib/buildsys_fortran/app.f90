! Program of the Fortran build-system tests: the project library's three sums (mpi_f08,
! mpi, mpif.h), its call count, its own arguments, and an mpif.h MPI_STATUS_IGNORE in
! the program itself; prints one line per rank.
program app_f
  use fcore_f08
  use fcore_mpi
  use fcore_mpif
  use mpi_f08
  implicit none
  integer :: rank, size, s1, s2, s3, n
  integer, external :: sendrecv_self
  character(len=32) :: arg
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  s1 = fcore_sum_f08(rank + 1)
  s2 = fcore_sum_mpi(rank + 1)
  s3 = fcore_sum_mpif(rank + 1)
  n = sendrecv_self(rank)
  arg = ''
  if (command_argument_count() > 0) call get_command_argument(1, arg)
  write(*, '(A,I0,A,I0,A,I0,1X,I0,1X,I0,A,I0,A,I0,A,A)') 'app_f rank ', rank, ' of ', size, &
    ' sums ', s1, s2, s3, ' calls ', fcore_calls(), ' self ', n, ' arg ', trim(arg)
  call MPI_Finalize()
end program app_f
