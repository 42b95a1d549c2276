! fortran_probe_get_count: through the `mpi` module, each rank sends its right neighbour
! rank + 1 INTEGERs (tag 10 + rank) and a DOUBLE PRECISION array of 2 * rank + 1 (tag 20)
! and a CHARACTER string; the receiver learns each message's source, tag and length before
! receiving it: MPI_Probe on MPI_ANY_SOURCE/MPI_ANY_TAG with MPI_Get_count in INTEGERs,
! MPI_Iprobe polled until its flag is set for the DOUBLE PRECISION one, MPI_Mprobe and
! MPI_Mrecv for the string (MPI_Get_count in MPI_CHARACTER), then receives into buffers of
! exactly that size and checks the values. Entered by each rank's main thread.
! ranks: 1 4 64
program fortran_probe_get_count
    use mpi
    implicit none
    integer :: rank, n, left, right, ierr, cnt, i, msg, req(3)
    integer :: status(MPI_STATUS_SIZE)
    integer :: ivals(64)
    double precision :: dvals(129)
    integer, allocatable :: ibuf(:)
    double precision, allocatable :: dbuf(:)
    character(len=40) :: text, got
    logical :: flag

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
    right = mod(rank + 1, n)
    left = mod(rank + n - 1, n)
    ivals = [(rank * 100 + i, i = 1, 64)]
    dvals = [(rank + i / 4d0, i = 1, 129)]
    write(text, '(a,i0)') 'greetings from rank ', rank
    call MPI_Isend(ivals, rank + 1, MPI_INTEGER, right, 10 + rank, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Isend(dvals, 2 * rank + 1, MPI_DOUBLE_PRECISION, right, 20, MPI_COMM_WORLD, &
        req(2), ierr)
    call MPI_Isend(text, len_trim(text), MPI_CHARACTER, right, 30, MPI_COMM_WORLD, req(3), ierr)

    call MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Probe returned an error')
    call check(status(MPI_SOURCE) == left, 'MPI_Probe: status(MPI_SOURCE)')
    ! Only the left neighbour sends to this rank, and its messages do not overtake each
    ! other: the first one probed is the INTEGERs.
    call check(status(MPI_TAG) == 10 + left, 'MPI_Probe: status(MPI_TAG) is not the first sent')
    call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
    call check(cnt == left + 1, 'MPI_Get_count of the probed INTEGERs')
    allocate(ibuf(cnt))
    call MPI_Recv(ibuf, cnt, MPI_INTEGER, status(MPI_SOURCE), status(MPI_TAG), &
        MPI_COMM_WORLD, status, ierr)
    call check(all(ibuf == [(left * 100 + i, i = 1, cnt)]), 'probed INTEGERs: values')

    flag = .false.
    do while (.not. flag)
        call MPI_Iprobe(left, 20, MPI_COMM_WORLD, flag, status, ierr)
    end do
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, cnt, ierr)
    call check(cnt == 2 * left + 1, 'MPI_Get_count of the DOUBLE PRECISION message')
    call check(status(MPI_SOURCE) == left .and. status(MPI_TAG) == 20, 'MPI_Iprobe: status')
    allocate(dbuf(cnt))
    call MPI_Recv(dbuf, cnt, MPI_DOUBLE_PRECISION, left, 20, MPI_COMM_WORLD, &
        MPI_STATUS_IGNORE, ierr)
    call check(all(dbuf == [(left + i / 4d0, i = 1, cnt)]), 'DOUBLE PRECISION: values')

    call MPI_Mprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, msg, status, ierr)
    call check(msg /= MPI_MESSAGE_NULL .and. status(MPI_TAG) == 30, 'MPI_Mprobe: message')
    call MPI_Get_count(status, MPI_CHARACTER, cnt, ierr)
    write(text, '(a,i0)') 'greetings from rank ', left
    call check(cnt == len_trim(text), 'MPI_Get_count of the CHARACTER message')
    got = ' '
    call MPI_Mrecv(got, cnt, MPI_CHARACTER, msg, status, ierr)
    call check(msg == MPI_MESSAGE_NULL, 'MPI_Mrecv leaves MPI_MESSAGE_NULL')
    call check(got == text, 'CHARACTER message: text')

    call MPI_Waitall(3, req, MPI_STATUSES_IGNORE, ierr)
    ! A probe that finds nothing: no message with tag 99 is ever sent.
    call MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
    call check(.not. flag, 'MPI_Iprobe found a message never sent')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a,i0,a)', 'probe: ', n, ' ranks ok'
    call MPI_Finalize(ierr)

contains

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
