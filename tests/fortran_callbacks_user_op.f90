! fortran_callbacks_user_op: user reduction functions written in Fortran (`mpi` module)
! in MPI_Allreduce and MPI_Reduce: a commutative sum of INTEGERs, and a non-commutative
! product of 2x2 matrices (one derived datatype element each) that must come out in rank
! order, M(0) * M(1) * ... * M(n-1); the function sees the datatype's Fortran handle and
! the element count. MPI_Op_commutative reports what was asked. Run by tests/
! fortran_callbacks_user_op.sh at 1, 4 and 64 ranks; each rank prints "ok" at the end.
module ops
    use mpi
    implicit none
    integer :: mattype = MPI_DATATYPE_NULL
    integer :: bad_calls = 0
contains
    subroutine isum(invec, inoutvec, len, datatype)
        integer :: len, datatype
        integer :: invec(len), inoutvec(len)
        if (datatype /= MPI_INTEGER) bad_calls = bad_calls + 1
        inoutvec = invec + inoutvec
    end subroutine

    ! inout = in * inout for each of `len` 2x2 matrices (mod 1000003).
    subroutine matmul2(invec, inoutvec, len, datatype)
        integer :: len, datatype, i
        integer(kind=8) :: invec(4, len), inoutvec(4, len), r(4)
        if (datatype /= mattype) bad_calls = bad_calls + 1
        do i = 1, len
            call mul(invec(:, i), inoutvec(:, i), r)
            inoutvec(:, i) = r
        end do
    end subroutine

    ! r = a * b, matrices stored (a11, a12, a21, a22).
    subroutine mul(a, b, r)
        integer(kind=8) :: a(4), b(4), r(4)
        integer(kind=8), parameter :: p = 1000003_8
        r(1) = mod(a(1) * b(1) + a(2) * b(3), p)
        r(2) = mod(a(1) * b(2) + a(2) * b(4), p)
        r(3) = mod(a(3) * b(1) + a(4) * b(3), p)
        r(4) = mod(a(3) * b(2) + a(4) * b(4), p)
    end subroutine

    subroutine matrix_of(rank, k, m)
        integer :: rank, k
        integer(kind=8) :: m(4)
        m = [int(mod(rank, 3) + k, 8), 1_8, int(mod(rank + k, 5), 8), int(mod(rank, 2), 8)]
    end subroutine
end module

program fortran_callbacks_user_op
    use mpi
    use ops
    implicit none
    integer :: ierr, rank, n, sumop, matop, i, k
    logical :: commute
    integer :: v(5), res(5)
    integer(kind=8) :: m(4, 3), got(4, 3), want(4, 3), tmp(4)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)

    call MPI_Op_create(isum, .true., sumop, ierr)
    if (ierr /= MPI_SUCCESS) error stop 'MPI_Op_create (commutative) failed'
    v = [(rank + i, i = 1, 5)]
    call MPI_Allreduce(v, res, 5, MPI_INTEGER, sumop, MPI_COMM_WORLD, ierr)
    do i = 1, 5
        if (res(i) /= n * (n - 1) / 2 + n * i) then
            print *, 'sum', i, res(i), 'expected', n * (n - 1) / 2 + n * i
            error stop 1
        end if
    end do
    call MPI_Op_commutative(sumop, commute, ierr)
    if (.not. commute) error stop 'the sum op is not commutative'

    call MPI_Type_contiguous(4, MPI_INTEGER8, mattype, ierr)
    call MPI_Type_commit(mattype, ierr)
    call MPI_Op_create(matmul2, .false., matop, ierr)
    call MPI_Op_commutative(matop, commute, ierr)
    if (commute) error stop 'the matrix op is commutative'
    do k = 1, 3
        call matrix_of(rank, k, m(:, k))
        call matrix_of(0, k, want(:, k))
        do i = 1, n - 1
            call matrix_of(i, k, tmp)
            call mul(want(:, k), tmp, got(:, k))
            want(:, k) = got(:, k)
        end do
    end do
    got = -1
    call MPI_Allreduce(m, got, 3, mattype, matop, MPI_COMM_WORLD, ierr)
    if (any(got /= want)) then
        print *, 'allreduce product', got, 'expected', want
        error stop 1
    end if
    got = -1
    call MPI_Reduce(m, got, 3, mattype, matop, n - 1, MPI_COMM_WORLD, ierr)
    if (rank == n - 1 .and. any(got /= want)) then
        print *, 'reduce product', got, 'expected', want
        error stop 1
    end if
    if (bad_calls /= 0) error stop 'a user function saw the wrong datatype'
    call MPI_Op_free(sumop, ierr)
    call MPI_Op_free(matop, ierr)
    call MPI_Type_free(mattype, ierr)
    call MPI_Finalize(ierr)
    print '(a)', 'ok'
end program
