! fortran_collectives_fortran_types: every collective of MPI_COMM_WORLD through the `mpi`
! module on Fortran types, each result checked element by element on every rank: Barrier;
! Bcast of INTEGER, DOUBLE PRECISION, COMPLEX, LOGICAL and a CHARACTER string (MPI_CHARACTER);
! Reduce/Allreduce with MPI_SUM on INTEGER, REAL, DOUBLE PRECISION and COMPLEX, MPI_MAX on
! REAL, MPI_LAND/MPI_LOR on LOGICAL, MPI_MINLOC on MPI_2REAL and MPI_MAXLOC on
! MPI_2DOUBLE_PRECISION, MPI_IN_PLACE; Gather(v), Scatter(v), Allgather(v), Alltoall(v) of
! INTEGER; Reduce_scatter_block, Reduce_scatter, Scan and Exscan; Ibcast and Iallreduce
! completed by MPI_Wait. Entered by each rank's main thread.
! ranks: 1 4 64
program fortran_collectives_fortran_types
    use mpi
    implicit none
    integer :: rank, n, root, ierr, i, j, req
    integer :: ibuf(4), isum
    double precision :: dbuf(3), dsum
    real :: rbuf(2), rsum(2)
    complex :: cbuf(2), csum(2)
    logical :: lbuf(3), lres(3)
    character(len=16) :: text
    real :: pair(2, 2), pairres(2, 2)
    double precision :: dpair(2), dpairres(2)
    integer, allocatable :: sendv(:), recvv(:), counts(:), displs(:), rcounts(:), rdispls(:)
    integer :: status(MPI_STATUS_SIZE)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
    root = n - 1

    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Barrier')

    ! Bcast from the last rank, one Fortran type at a time.
    ibuf = -1
    dbuf = -1d0
    cbuf = (0.0, 0.0)
    lbuf = .false.
    text = ' '
    if (rank == root) then
        ibuf = [11, -22, 33, huge(1)]
        dbuf = [1d0 / 3d0, -2.5d300, 7d-300]
        cbuf = [(1.5, -2.0), (0.25, 8.0)]
        lbuf = [.true., .false., .true.]
        text = 'Shoal, Fortran!'
    end if
    call MPI_Bcast(ibuf, 4, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS .and. all(ibuf == [11, -22, 33, huge(1)]), 'Bcast INTEGER')
    call MPI_Bcast(dbuf, 3, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)
    call check(all(dbuf == [1d0 / 3d0, -2.5d300, 7d-300]), 'Bcast DOUBLE PRECISION')
    call MPI_Bcast(cbuf, 2, MPI_COMPLEX, root, MPI_COMM_WORLD, ierr)
    call check(all(cbuf == [(1.5, -2.0), (0.25, 8.0)]), 'Bcast COMPLEX')
    call MPI_Bcast(lbuf, 3, MPI_LOGICAL, root, MPI_COMM_WORLD, ierr)
    call check(lbuf(1) .and. .not. lbuf(2) .and. lbuf(3), 'Bcast LOGICAL')
    call MPI_Bcast(text, len(text), MPI_CHARACTER, root, MPI_COMM_WORLD, ierr)
    call check(text == 'Shoal, Fortran!', 'Bcast CHARACTER')

    ! Reductions: rank r contributes r + 1 (INTEGER), r / 2 (exact in binary), ...
    call MPI_Allreduce(rank + 1, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(isum == n * (n + 1) / 2, 'Allreduce INTEGER MPI_SUM')
    rbuf = [real(rank), -real(rank)]
    call MPI_Allreduce(rbuf, rsum, 2, MPI_REAL, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(all(rsum == [real(n * (n - 1) / 2), -real(n * (n - 1) / 2)]), &
        'Allreduce REAL MPI_SUM')
    call MPI_Allreduce(rbuf, rsum, 2, MPI_REAL, MPI_MAX, MPI_COMM_WORLD, ierr)
    call check(all(rsum == [real(n - 1), 0.0]), 'Allreduce REAL MPI_MAX')
    dbuf(1) = rank / 2d0
    call MPI_Reduce(dbuf, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    if (rank == root) call check(dsum == n * (n - 1) / 4d0, 'Reduce DOUBLE PRECISION MPI_SUM')
    cbuf = [cmplx(rank, 1), cmplx(-1, 2 * rank)]
    call MPI_Allreduce(cbuf, csum, 2, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(all(csum == [cmplx(n * (n - 1) / 2, n), cmplx(-n, n * (n - 1))]), &
        'Allreduce COMPLEX MPI_SUM')
    ! LOGICAL: [last rank only, every rank, rank 0 only]
    lbuf = [rank == n - 1, .true., rank == 0]
    call MPI_Allreduce(lbuf, lres, 3, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    call check(lres(1) .eqv. (n == 1), 'Allreduce LOGICAL MPI_LAND (1)')
    call check(lres(2), 'Allreduce LOGICAL MPI_LAND (2)')
    call check(lres(3) .eqv. (n == 1), 'Allreduce LOGICAL MPI_LAND (3)')
    lbuf = [rank == n - 1, .false., rank == 0]
    call MPI_Allreduce(lbuf, lres, 3, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
    call check(lres(1) .and. .not. lres(2) .and. lres(3), 'Allreduce LOGICAL MPI_LOR')
    ! MINLOC on (value, index) REAL pairs: value |r - n/2| + 1 is least at rank n/2; the
    ! second pair's value 5 ties everywhere: the lowest index wins.
    pair(:, 1) = [real(abs(rank - n / 2) + 1), real(rank)]
    pair(:, 2) = [5.0, real(rank)]
    call MPI_Allreduce(pair, pairres, 2, MPI_2REAL, MPI_MINLOC, MPI_COMM_WORLD, ierr)
    call check(all(pairres(:, 1) == [1.0, real(n / 2)]), 'Allreduce MPI_2REAL MPI_MINLOC')
    call check(all(pairres(:, 2) == [5.0, 0.0]), 'Allreduce MPI_2REAL MPI_MINLOC tie')
    dpair = [dble(mod(rank, 3)), dble(rank)]
    call MPI_Reduce(dpair, dpairres, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, 0, &
        MPI_COMM_WORLD, ierr)
    if (rank == 0) call check(all(dpairres == [dble(min(n - 1, 2)), dble(min(n - 1, 2))]), &
        'Reduce MPI_2DOUBLE_PRECISION MPI_MAXLOC')
    ibuf = [rank, 2 * rank, 1, -rank]
    call MPI_Allreduce(MPI_IN_PLACE, ibuf, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(all(ibuf == [n * (n - 1) / 2, n * (n - 1), n, -n * (n - 1) / 2]), &
        'Allreduce MPI_IN_PLACE INTEGER')

    ! Gather / Scatter / Allgather / Alltoall of INTEGER.
    allocate(sendv(n * n + 2 * n + 2), recvv(n * n + 2 * n + 2))
    allocate(counts(n), displs(n), rcounts(n), rdispls(n))
    recvv = -1
    call MPI_Gather([rank, rank * rank], 2, MPI_INTEGER, recvv, 2, MPI_INTEGER, root, &
        MPI_COMM_WORLD, ierr)
    if (rank == root) call check(all(recvv(1:2 * n:2) == [(i, i = 0, n - 1)]) .and. &
        all(recvv(2:2 * n:2) == [(i * i, i = 0, n - 1)]), 'Gather INTEGER')
    if (rank == root) sendv(1:2 * n) = [(100 + i, i = 1, 2 * n)]
    ibuf = -1
    call MPI_Scatter(sendv, 2, MPI_INTEGER, ibuf, 2, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(all(ibuf(1:2) == [101 + 2 * rank, 102 + 2 * rank]), 'Scatter INTEGER')
    recvv = -1
    call MPI_Allgather(rank * 3, 1, MPI_INTEGER, recvv, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(all(recvv(1:n) == [(3 * i, i = 0, n - 1)]), 'Allgather INTEGER')
    sendv = [(rank * 1000 + i - 1, i = 1, n * n)]
    recvv = -1
    call MPI_Alltoall(sendv, 1, MPI_INTEGER, recvv, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(all(recvv(1:n) == [(i * 1000 + rank, i = 0, n - 1)]), 'Alltoall INTEGER')

    ! v forms: rank i contributes i + 1 elements of value 10 * i, at displacements leaving a
    ! gap of one element between blocks.
    counts = [(i + 1, i = 0, n - 1)]
    displs(1) = 0
    do i = 2, n
        displs(i) = displs(i - 1) + counts(i - 1) + 1
    end do
    sendv = 10 * rank
    recvv = -1
    call MPI_Gatherv(sendv, rank + 1, MPI_INTEGER, recvv, counts, displs, MPI_INTEGER, 0, &
        MPI_COMM_WORLD, ierr)
    if (rank == 0) call check(blocks_ok(recvv), 'Gatherv INTEGER')
    recvv = -1
    call MPI_Allgatherv(sendv, rank + 1, MPI_INTEGER, recvv, counts, displs, MPI_INTEGER, &
        MPI_COMM_WORLD, ierr)
    call check(blocks_ok(recvv), 'Allgatherv INTEGER')
    if (rank == root) then
        sendv = -1
        do i = 1, n
            sendv(displs(i) + 1:displs(i) + counts(i)) = 10 * (i - 1)
        end do
    end if
    ibuf = -1
    recvv = -1
    call MPI_Scatterv(sendv, counts, displs, MPI_INTEGER, recvv, rank + 1, MPI_INTEGER, root, &
        MPI_COMM_WORLD, ierr)
    call check(all(recvv(1:rank + 1) == 10 * rank) .and. recvv(rank + 2) == -1, &
        'Scatterv INTEGER')
    ! Alltoallv: to rank j, rank i sends j + 1 elements of value 1000 * i + j; receives i + 1
    ! from each.
    counts = [(j + 1, j = 0, n - 1)]
    displs(1) = 0
    do j = 2, n
        displs(j) = displs(j - 1) + counts(j - 1)
    end do
    do j = 1, n
        sendv(displs(j) + 1:displs(j) + counts(j)) = 1000 * rank + j - 1
    end do
    rcounts = rank + 1
    rdispls = [((j - 1) * (rank + 1), j = 1, n)]
    recvv = -1
    call MPI_Alltoallv(sendv, counts, displs, MPI_INTEGER, recvv, rcounts, rdispls, &
        MPI_INTEGER, MPI_COMM_WORLD, ierr)
    do j = 1, n
        call check(all(recvv(rdispls(j) + 1:rdispls(j) + rank + 1) == 1000 * (j - 1) + rank), &
            'Alltoallv INTEGER')
    end do

    ! Reduce_scatter(_block), Scan, Exscan on INTEGER.
    sendv(1:2 * n) = [(rank + i, i = 1, 2 * n)]
    ibuf = -1
    call MPI_Reduce_scatter_block(sendv, ibuf, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(all(ibuf(1:2) == [(n * (n - 1) / 2 + n * (2 * rank + i), i = 1, 2)]), &
        'Reduce_scatter_block INTEGER')
    counts = [(1 + mod(i, 2), i = 0, n - 1)]
    sendv(1:sum(counts)) = [(rank * i, i = 1, sum(counts))]
    ibuf = -1
    call MPI_Reduce_scatter(sendv, ibuf, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    j = sum(counts(1:rank))
    call check(all(ibuf(1:counts(rank + 1)) == [(n * (n - 1) / 2 * (j + i), &
        i = 1, counts(rank + 1))]), 'Reduce_scatter INTEGER')
    call MPI_Scan(rank + 1, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(isum == (rank + 1) * (rank + 2) / 2, 'Scan INTEGER')
    isum = -7
    call MPI_Exscan(rank + 1, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank > 0) call check(isum == rank * (rank + 1) / 2, 'Exscan INTEGER')

    ! Nonblocking forms completed by MPI_Wait.
    dbuf = 0d0
    if (rank == 0) dbuf = [2d0, 4d0, 8d0]
    call MPI_Ibcast(dbuf, 3, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, req, ierr)
    call MPI_Wait(req, status, ierr)
    call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'Ibcast Wait')
    call check(all(dbuf == [2d0, 4d0, 8d0]), 'Ibcast DOUBLE PRECISION')
    call MPI_Iallreduce(dbuf, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call check(dsum == 2d0 * n, 'Iallreduce DOUBLE PRECISION')

    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a,i0,a)', 'collectives: ', n, ' ranks ok'
    call MPI_Finalize(ierr)

contains

    ! blocks_ok V: V holds block i (counts(i) elements of 10 * (i - 1)) at displs(i), and
    ! the gaps between blocks are untouched (-1).
    logical function blocks_ok(v)
        integer, intent(in) :: v(:)
        integer :: b

        blocks_ok = .true.
        do b = 1, n
            blocks_ok = blocks_ok .and. all(v(displs(b) + 1:displs(b) + counts(b)) == 10 * (b - 1))
            blocks_ok = blocks_ok .and. v(displs(b) + counts(b) + 1) == -1
        end do
    end function

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(*), intent(in) :: what
        integer :: e

        if (.not. ok) then
            print '(a,i0,a,a)', 'FAIL rank ', rank, ': ', what
            call MPI_Abort(MPI_COMM_WORLD, 1, e)
        end if
    end subroutine
end program
