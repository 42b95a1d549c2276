! mpif_bandwidth: the OSU-style unidirectional bandwidth of bandwidth.c written in Fortran
! with INCLUDE 'mpif.h' (every call an external procedure): per iteration rank 0 posts a
! window of -W MPI_ISEND of -m..-M bytes, MPI_WAITALL, then waits for a 4-byte ack that
! rank 1 sends after its window of MPI_IRECV completes. MB/s with MB = 10^6 bytes. Ranks
! above 1 only join the barriers. Standard MPI only.
! Prints: RESULT mpif_bandwidth <bytes> <MB/s> MB/s
program mpif_bandwidth
    implicit none
    include 'mpif.h'
    integer(8) :: min_size = 1, max_size = 4194304, iters = 100, iters_large = 20
    integer(8) :: window = 64, size, n, warm, k, w
    integer :: rank, nranks, ierr
    character, allocatable :: sbuf(:), rbuf(:)
    character :: ack(4)
    integer, allocatable :: req(:)
    double precision :: t0

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
    if (.not. fbench_parse(min_size, max_size, iters, iters_large, window) .or. &
        nranks < 2 .or. window < 1) then
        if (rank == 0) write (0, '(a)') 'mpif_bandwidth: needs 2 ranks and -m -M -i -I -W options'
        call MPI_FINALIZE(ierr)
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
            if (k == 0) t0 = MPI_WTIME()
            if (rank == 0) then
                do w = 1, window
                    call MPI_ISEND(sbuf, int(size), MPI_BYTE, 1, 1, MPI_COMM_WORLD, req(w), ierr)
                end do
                call MPI_WAITALL(int(window), req, MPI_STATUSES_IGNORE, ierr)
                call MPI_RECV(ack, 4, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            else
                do w = 1, window
                    call MPI_IRECV(rbuf, int(size), MPI_BYTE, 0, 1, MPI_COMM_WORLD, req(w), ierr)
                end do
                call MPI_WAITALL(int(window), req, MPI_STATUSES_IGNORE, ierr)
                call MPI_SEND(ack, 4, MPI_BYTE, 0, 2, MPI_COMM_WORLD, ierr)
            end if
        end do
        if (rank == 0) call fbench_result('mpif_bandwidth', size, &
            dble(size) * window * n / (MPI_WTIME() - t0) / 1d6, 'MB/s')
        size = fbench_next(size)
    end do
    call MPI_FINALIZE(ierr)

contains

    include 'fbench.inc'
end program
