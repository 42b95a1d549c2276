! f08_bandwidth: the OSU-style unidirectional bandwidth of bandwidth.c written in Fortran
! with the mpi_f08 module: per iteration rank 0 posts a window of -W MPI_Isend of -m..-M
! bytes, MPI_Waitall, then waits for a 4-byte ack that rank 1 sends after its window of
! MPI_Irecv completes. MB/s with MB = 10^6 bytes. Ranks above 1 only join the barriers.
! Standard MPI only. Prints: RESULT f08_bandwidth <bytes> <MB/s> MB/s
program f08_bandwidth
    use mpi_f08
    implicit none
    integer(8) :: min_size = 1, max_size = 4194304, iters = 100, iters_large = 20
    integer(8) :: window = 64, size, n, warm, k, w
    integer :: rank, nranks
    character, allocatable :: sbuf(:), rbuf(:)
    character :: ack(4)
    type(MPI_Request), allocatable :: req(:)
    double precision :: t0

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks)
    if (.not. fbench_parse(min_size, max_size, iters, iters_large, window) .or. &
        nranks < 2 .or. window < 1) then
        if (rank == 0) write (0, '(a)') 'f08_bandwidth: needs 2 ranks and -m -M -i -I -W options'
        call MPI_Finalize()
        stop 2
    end if
    allocate(sbuf(max(1_8, max_size)), rbuf(max(1_8, max_size)), req(window))
    sbuf = 'a'
    rbuf = 'a'
    ack = 'a'
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
                do w = 1, window
                    call MPI_Isend(sbuf, int(size), MPI_BYTE, 1, 1, MPI_COMM_WORLD, req(w))
                end do
                call MPI_Waitall(int(window), req, MPI_STATUSES_IGNORE)
                call MPI_Recv(ack, 4, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
            else
                do w = 1, window
                    call MPI_Irecv(rbuf, int(size), MPI_BYTE, 0, 1, MPI_COMM_WORLD, req(w))
                end do
                call MPI_Waitall(int(window), req, MPI_STATUSES_IGNORE)
                call MPI_Send(ack, 4, MPI_BYTE, 0, 2, MPI_COMM_WORLD)
            end if
        end do
        if (rank == 0) call fbench_result('f08_bandwidth', size, &
            dble(size) * window * n / (MPI_Wtime() - t0) / 1d6, 'MB/s')
        size = fbench_next(size)
    end do
    call MPI_Finalize()

contains

    include 'fbench.inc'
end program
