! fortran_ring_mpi_module: through the `mpi` module (INTEGER handles, INTEGER
! status(MPI_STATUS_SIZE), ierror arguments), an INTEGER token makes 5 laps of the ring
! (each rank adds 1) with a REAL array beside it; every call returns MPI_SUCCESS, every
! receive's status names the left neighbour and the lap's tag, MPI_Get_count the elements,
! and MPI_STATUS_IGNORE is accepted. Entered by each rank's main thread.
! ranks: 1 4 64
program fortran_ring_mpi_module
    use mpi
    implicit none
    integer, parameter :: laps = 5, n = 5
    integer :: rank, nranks, left, right, token, lap, cnt, k, ierr
    integer :: status(MPI_STATUS_SIZE)
    real :: a(n)

    call MPI_Init(ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Init returned an error')
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Comm_size returned an error')
    right = mod(rank + 1, nranks)
    left = mod(rank + nranks - 1, nranks)
    token = 0
    do lap = 1, laps
        if (rank /= 0) then
            call MPI_Recv(token, 1, MPI_INTEGER, left, lap, MPI_COMM_WORLD, status, ierr)
            call check_status(lap, 1, MPI_INTEGER)
            call check(token == (lap - 1) * nranks + rank, 'token from the left is wrong')
            call MPI_Recv(a, n, MPI_REAL, left, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call check(ierr == MPI_SUCCESS, 'MPI_Recv with MPI_STATUS_IGNORE failed')
            call check(all(a == [(real(token) + k / 4.0, k = 1, n)]), &
                'REAL array differs from the one sent')
        end if
        token = token + 1
        a = [(real(token) + k / 4.0, k = 1, n)]
        call MPI_Send(token, 1, MPI_INTEGER, right, lap, MPI_COMM_WORLD, ierr)
        call check(ierr == MPI_SUCCESS, 'MPI_Send returned an error')
        call MPI_Send(a, n, MPI_REAL, right, lap, MPI_COMM_WORLD, ierr)
        if (rank == 0) then
            call MPI_Recv(token, 1, MPI_INTEGER, left, lap, MPI_COMM_WORLD, status, ierr)
            call check_status(lap, 1, MPI_INTEGER)
            call check(token == lap * nranks, 'token after a lap is not laps * ranks')
            call MPI_Recv(a, n, MPI_REAL, left, lap, MPI_COMM_WORLD, status, ierr)
            call check_status(lap, n, MPI_REAL)
            call check(all(a == [(real(token) + k / 4.0, k = 1, n)]), &
                'REAL array differs from the one sent')
        end if
    end do
    if (rank == 0) print '(a,i0,a,i0)', 'ring: token ', token, ' after 5 laps of ', nranks
    call MPI_Finalize(ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Finalize returned an error')

contains

    ! check_status TAG COUNT TYPE: the last receive returned MPI_SUCCESS and came from the
    ! left neighbour with TAG and COUNT elements of TYPE.
    subroutine check_status(tag, count, dtype)
        integer, intent(in) :: tag, count, dtype

        call check(ierr == MPI_SUCCESS, 'MPI_Recv returned an error')
        call check(status(MPI_SOURCE) == left, 'status(MPI_SOURCE) is not the left neighbour')
        call check(status(MPI_TAG) == tag, 'status(MPI_TAG) is not the lap')
        call MPI_Get_count(status, dtype, cnt, ierr)
        call check(cnt == count, 'MPI_Get_count differs from the count sent')
    end subroutine

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
