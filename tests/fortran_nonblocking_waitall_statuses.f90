! fortran_nonblocking_waitall_statuses: through mpi_f08, each rank posts min(ranks, 4)
! MPI_Irecv from MPI_ANY_SOURCE with MPI_ANY_TAG and as many MPI_Isend of INTEGER arrays to
! the ranks d = 1, 2, ... to its right (tag 100 + d, d + mod(rank, 3) elements), then
! MPI_Waitall fills an array of TYPE(MPI_Status): each names a sender and tag that fit
! together, MPI_Get_count the length that sender sent, and the data are the sender's; the
! requests become MPI_REQUEST_NULL; the sends complete with MPI_STATUSES_IGNORE; MPI_Testall
! on requests of a second round reports completion once MPI_Test says all are done.
! Entered by each rank's main thread.
! ranks: 1 4 64
program fortran_nonblocking_waitall_statuses
    use mpi_f08
    implicit none
    integer, parameter :: maxlen = 8
    integer :: rank, n, k, d, i, j, s, got, len
    integer, allocatable :: rbuf(:, :), sbuf(:, :)
    type(MPI_Request), allocatable :: rreq(:), sreq(:)
    type(MPI_Status), allocatable :: st(:)
    logical :: seen(4), flag

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, n)
    k = min(n, 4)
    allocate(rbuf(maxlen, k), sbuf(maxlen, k), rreq(k), sreq(k), st(k))
    rbuf = -1
    do i = 1, k
        call MPI_Irecv(rbuf(:, i), maxlen, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, &
            MPI_COMM_WORLD, rreq(i))
    end do
    do d = 1, k
        sbuf(:, d) = [(rank * 1000 + d * 10 + j, j = 1, maxlen)]
        call MPI_Isend(sbuf(:, d), d + mod(rank, 3), MPI_INTEGER, mod(rank + d, n), 100 + d, &
            MPI_COMM_WORLD, sreq(d))
    end do
    call MPI_Waitall(k, rreq, st)
    seen = .false.
    do i = 1, k
        call check(rreq(i) == MPI_REQUEST_NULL, 'Waitall left a receive request')
        d = st(i)%MPI_TAG - 100
        call check(d >= 1 .and. d <= k, 'status MPI_TAG is not one sent')
        call check(.not. seen(d), 'two statuses name the same tag')
        seen(d) = .true.
        s = st(i)%MPI_SOURCE
        call check(s == mod(rank - d + n, n), 'status MPI_SOURCE does not fit its tag')
        call MPI_Get_count(st(i), MPI_INTEGER, got)
        len = d + mod(s, 3)
        call check(got == len, 'MPI_Get_count is not the length sent')
        call check(all(rbuf(1:len, i) == [(s * 1000 + d * 10 + j, j = 1, len)]), &
            'received data are not the sender''s')
        call check(all(rbuf(len + 1:, i) == -1), 'receive wrote past the message')
    end do
    call MPI_Waitall(k, sreq, MPI_STATUSES_IGNORE)
    call check(all(sreq == MPI_REQUEST_NULL), 'Waitall left a send request')

    ! Second round, completed by polling MPI_Testall; the barrier keeps its messages from
    ! matching the first round's MPI_ANY_TAG receives of slower ranks.
    call MPI_Barrier(MPI_COMM_WORLD)
    do i = 1, k
        call MPI_Irecv(rbuf(:, i), maxlen, MPI_INTEGER, mod(rank - i + n, n), 200 + i, &
            MPI_COMM_WORLD, rreq(i))
    end do
    do d = 1, k
        call MPI_Isend(sbuf(:, d), maxlen, MPI_INTEGER, mod(rank + d, n), 200 + d, &
            MPI_COMM_WORLD, sreq(d))
    end do
    flag = .false.
    do while (.not. flag)
        call MPI_Testall(k, rreq, flag, st)
    end do
    do i = 1, k
        call check(st(i)%MPI_SOURCE == mod(rank - i + n, n) .and. st(i)%MPI_TAG == 200 + i, &
            'Testall status')
        s = st(i)%MPI_SOURCE
        call check(all(rbuf(:, i) == [(s * 1000 + i * 10 + j, j = 1, maxlen)]), 'Testall data')
    end do
    call MPI_Waitall(k, sreq, MPI_STATUSES_IGNORE)
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) print '(a,i0,a)', 'nonblocking: ', n, ' ranks ok'
    call MPI_Finalize()

contains

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(*), intent(in) :: what

        if (.not. ok) then
            print '(a,i0,a,a)', 'FAIL rank ', rank, ': ', what
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
    end subroutine
end program
