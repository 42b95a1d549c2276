! pi: compute pi as the integral of 4/(1+x^2) from 0 to 1 with the midpoint rule, in
! Fortran with the `mpi` module. Each rank sums every size-th strip; MPI_Reduce adds the
! partial sums on rank 0.
! Run: mpiexec -n 8 build/examples/pi_f90 [strips]
program pi
    use mpi
    implicit none
    double precision, parameter :: pi25 = 3.141592653589793238462643d0
    integer(kind=8) :: strips, i
    integer :: rank, size, ierr
    double precision :: h, x, sum, part, total
    character(len=32) :: arg

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
    strips = 10000000
    if (command_argument_count() > 0) then
        call get_command_argument(1, arg)
        read (arg, *) strips
    end if

    ! Each rank takes strips rank, rank + size, rank + 2*size, ...
    h = 1d0 / strips
    sum = 0d0
    do i = rank, strips - 1, size
        x = h * (i + 0.5d0)
        sum = sum + 4d0 / (1d0 + x * x)
    end do
    part = h * sum

    ! One call adds every rank's part into rank 0's total.
    call MPI_Reduce(part, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a,f18.16,a,es9.3,a,i0,a,i0,a)', 'pi is approximately ', total, &
        ', error ', abs(total - pi25), ' (', strips, ' strips, ', size, ' ranks)'

    call MPI_Finalize(ierr)
end program
