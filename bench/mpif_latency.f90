! mpif_latency: the ping-pong of latency.c written in Fortran with INCLUDE 'mpif.h' (no
! module: every call is an external procedure, INTEGER handles and ierror): ranks 0 and 1
! exchange -m..-M bytes; the one-way latency in µs is half the round trip. Ranks above 1
! only join the barriers. Standard MPI only. Prints: RESULT mpif_latency <bytes> <us> us
program mpif_latency
    implicit none
    include 'mpif.h'
    integer(8) :: min_size = 0, max_size = 4194304, iters = 10000, iters_large = 1000
    integer(8) :: window = 0, size, n, warm, k
    integer :: rank, nranks, ierr
    character, allocatable :: sbuf(:), rbuf(:)
    double precision :: t0

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
    if (.not. fbench_parse(min_size, max_size, iters, iters_large, window) .or. nranks < 2) then
        if (rank == 0) write (0, '(a)') 'mpif_latency: needs 2 ranks and -m -M -i -I options'
        call MPI_FINALIZE(ierr)
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
            if (k == 0) t0 = MPI_WTIME()
            if (rank == 0) then
                call MPI_SEND(sbuf, int(size), MPI_BYTE, 1, 1, MPI_COMM_WORLD, ierr)
                call MPI_RECV(rbuf, int(size), MPI_BYTE, 1, 1, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
            else
                call MPI_RECV(rbuf, int(size), MPI_BYTE, 0, 1, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
                call MPI_SEND(sbuf, int(size), MPI_BYTE, 0, 1, MPI_COMM_WORLD, ierr)
            end if
        end do
        if (rank == 0) call fbench_result('mpif_latency', size, &
            (MPI_WTIME() - t0) * 1d6 / (2d0 * n), 'us')
        size = fbench_next(size)
    end do
    call MPI_FINALIZE(ierr)

contains

    include 'fbench.inc'
end program
