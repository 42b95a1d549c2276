! f08_latency: the ping-pong of latency.c written in Fortran with the mpi_f08 module:
! ranks 0 and 1 exchange -m..-M bytes (MPI_BYTE from CHARACTER arrays); the one-way latency
! in µs is half the round trip. Ranks above 1 only join the barriers. Standard MPI only (built
! with Shoal, Open MPI and MPICH). Prints: RESULT f08_latency <bytes> <us> us
program f08_latency
    use mpi_f08
    implicit none
    integer(8) :: min_size = 0, max_size = 4194304, iters = 10000, iters_large = 1000
    integer(8) :: window = 0, size, n, warm, k
    integer :: rank, nranks
    character, allocatable :: sbuf(:), rbuf(:)
    double precision :: t0

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks)
    if (.not. fbench_parse(min_size, max_size, iters, iters_large, window) .or. nranks < 2) then
        if (rank == 0) write (0, '(a)') 'f08_latency: needs 2 ranks and -m -M -i -I options'
        call MPI_Finalize()
        stop 2
    end if
    allocate(sbuf(max(1_8, max_size)), rbuf(max(1_8, max_size)))
    sbuf = 'a'
    rbuf = 'a'
    size = min_size
    do while (size <= max_size)
        n = fbench_iters(size, iters, iters_large)
        warm = fbench_warmup(n)
        t0 = 0
        call fbench_sync(rank, nranks)
        do k = -warm, n - 1
            if (rank >= 2) exit
            if (k == 0) t0 = MPI_Wtime()
            if (rank == 0) then
                call MPI_Send(sbuf, int(size), MPI_BYTE, 1, 1, MPI_COMM_WORLD)
                call MPI_Recv(rbuf, int(size), MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
            else
                call MPI_Recv(rbuf, int(size), MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
                call MPI_Send(sbuf, int(size), MPI_BYTE, 0, 1, MPI_COMM_WORLD)
            end if
        end do
        if (rank == 0) call fbench_result('f08_latency', size, &
            (MPI_Wtime() - t0) * 1d6 / (2d0 * n), 'us')
        size = fbench_next(size)
    end do
    call MPI_Finalize()

contains

    include 'fbench.inc'
end program
