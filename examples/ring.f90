! ring: pass a token around all ranks several times, in Fortran with the mpi_f08 module.
! Each rank adds 1 before passing it on, so after LAPS laps the token is LAPS * size.
! Run: mpiexec -n 4 build/examples/ring_f90 [laps]
program ring
    use mpi_f08
    implicit none
    integer :: rank, size, laps, token, lap, left, right
    character(len=32) :: arg

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    laps = 3
    if (command_argument_count() > 0) then
        call get_command_argument(1, arg)
        read (arg, *) laps
    end if

    ! Neighbours in the ring: we receive from the left and send to the right.
    ! With one rank, both neighbours are ourselves.
    right = mod(rank + 1, size)
    left = mod(rank + size - 1, size)

    token = 0
    do lap = 1, laps
        if (rank == 0) then
            ! Rank 0 starts each lap, then waits for the token to come back.
            token = token + 1
            call MPI_Send(token, 1, MPI_INTEGER, right, 0, MPI_COMM_WORLD)
            call MPI_Recv(token, 1, MPI_INTEGER, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        else
            ! Everyone else waits for the token, adds 1 and passes it on.
            call MPI_Recv(token, 1, MPI_INTEGER, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
            token = token + 1
            call MPI_Send(token, 1, MPI_INTEGER, right, 0, MPI_COMM_WORLD)
        end if
    end do

    if (rank == 0) print '(a,i0,a,i0,a,i0,a,i0,a)', 'ring: ', laps, ' laps around ', size, &
        ' ranks, token = ', token, ' (expected ', laps * size, ')'

    call MPI_Finalize()
    ! A wrong token makes rank 0 end with status 1 (STOP ends only this rank).
    if (rank == 0 .and. token /= laps * size) stop 1
end program
