! fortran_ring_f08: through the mpi_f08 module, an INTEGER token makes 5 laps of the ring
! (each rank adds 1) with a DOUBLE PRECISION array beside it; every receive's TYPE(MPI_Status)
! names the left neighbour and the lap's tag, MPI_Get_count the elements, and the values
! are the ones sent. Entered by each rank's main thread.
! ranks: 1 4 64
program fortran_ring_f08
    use mpi_f08
    implicit none
    integer, parameter :: laps = 5, n = 7
    integer :: rank, nranks, left, right, token, lap, cnt, k, ierr
    double precision :: a(n)
    type(MPI_Status) :: st

    call MPI_Init(ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Init returned an error')
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks)
    right = mod(rank + 1, nranks)
    left = mod(rank + nranks - 1, nranks)
    token = 0
    do lap = 1, laps
        if (rank == 0) then
            token = token + 1
            a = [(dble(token) + k / 8d0, k = 1, n)]
            call MPI_Send(token, 1, MPI_INTEGER, right, lap, MPI_COMM_WORLD)
            call MPI_Send(a, n, MPI_DOUBLE_PRECISION, right, lap, MPI_COMM_WORLD)
            call MPI_Recv(token, 1, MPI_INTEGER, left, lap, MPI_COMM_WORLD, st)
            call check_status(lap, 1, MPI_INTEGER)
            call check(token == lap * nranks, 'token after a lap is not laps * ranks')
            call MPI_Recv(a, n, MPI_DOUBLE_PRECISION, left, lap, MPI_COMM_WORLD, st)
            call check_status(lap, n, MPI_DOUBLE_PRECISION)
        else
            call MPI_Recv(token, 1, MPI_INTEGER, left, lap, MPI_COMM_WORLD, st)
            call check_status(lap, 1, MPI_INTEGER)
            call check(token == (lap - 1) * nranks + rank, 'token from the left is wrong')
            call MPI_Recv(a, n, MPI_DOUBLE_PRECISION, left, lap, MPI_COMM_WORLD, st, ierr)
            call check(ierr == MPI_SUCCESS, 'MPI_Recv with ierror returned an error')
            call check_status(lap, n, MPI_DOUBLE_PRECISION)
            token = token + 1
            call MPI_Send(token, 1, MPI_INTEGER, right, lap, MPI_COMM_WORLD)
            a = [(dble(token) + k / 8d0, k = 1, n)]
            call MPI_Send(a, n, MPI_DOUBLE_PRECISION, right, lap, MPI_COMM_WORLD)
        end if
    end do
    if (rank == 0) print '(a,i0,a,i0)', 'ring: token ', token, ' after 5 laps of ', nranks
    call MPI_Finalize()

contains

    ! check_status TAG COUNT TYPE: the last receive came from the left neighbour with TAG,
    ! COUNT elements of TYPE, and (for the array) the values the left neighbour computed.
    subroutine check_status(tag, count, dtype)
        integer, intent(in) :: tag, count
        type(MPI_Datatype), intent(in) :: dtype
        integer :: got

        call check(st%MPI_SOURCE == left, 'status MPI_SOURCE is not the left neighbour')
        call check(st%MPI_TAG == tag, 'status MPI_TAG is not the lap')
        call MPI_Get_count(st, dtype, got)
        call check(got == count, 'MPI_Get_count differs from the count sent')
        if (dtype == MPI_DOUBLE_PRECISION) then
            call check(all(a == [(dble(token) + k / 8d0, k = 1, n)]), &
                'DOUBLE PRECISION array differs from the one sent')
        end if
    end subroutine

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(*), intent(in) :: what

        if (.not. ok) then
            print '(a,i0,a,a)', 'FAIL rank ', rank, ': ', what
            call MPI_Abort(MPI_COMM_WORLD, 1)
        end if
    end subroutine
end program
