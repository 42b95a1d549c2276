! fortran_subarray_halo_exchange: halo exchanges on Fortran-ordered arrays with
! MPI_Type_create_subarray(MPI_ORDER_FORTRAN) through mpi_f08, ranks in a periodic ring:
! a column of a 2-D INTEGER array (contiguous in memory), a block of two rows of a 2-D
! DOUBLE PRECISION array (strided), an x-face of a 3-D REAL array (strided in two
! dimensions), and a 3-D sub-box received as plain MPI_REAL elements, which must arrive in
! Fortran element order (first index fastest). Each halo holds the neighbour's values and
! everything else is untouched; the types' sizes and extents are the subarray's and the
! whole array's. Entered by each rank's main thread.
! ranks: 1 4 64
program fortran_subarray_halo_exchange
    use mpi_f08
    implicit none
    integer, parameter :: nx = 5, ny = 4, nz = 3
    integer :: rank, n, left, right, i, j, k, tsize
    integer(MPI_ADDRESS_KIND) :: lb, extent
    integer :: a(0:nx + 1, 0:ny + 1)
    double precision :: b(-1:nx + 2, 1:ny)
    real :: c(0:nx + 1, ny, nz), box(nx * (ny - 1) * 2)
    type(MPI_Datatype) :: col_out_r, col_in_l, col_out_l, col_in_r
    type(MPI_Datatype) :: rows_out_r, rows_in_l, rows_out_l, rows_in_r
    type(MPI_Datatype) :: face_out_r, face_in_l, face_out_l, face_in_r, subbox
    type(MPI_Status) :: st

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, n)
    right = mod(rank + 1, n)
    left = mod(rank + n - 1, n)

    ! 2-D, halo width 1 in the second dimension: a column a(1:nx, j) is contiguous.
    call subarray2([nx + 2, ny + 2], [nx, 1], [1, ny], MPI_INTEGER, col_out_r)
    call subarray2([nx + 2, ny + 2], [nx, 1], [1, 0], MPI_INTEGER, col_in_l)
    call subarray2([nx + 2, ny + 2], [nx, 1], [1, 1], MPI_INTEGER, col_out_l)
    call subarray2([nx + 2, ny + 2], [nx, 1], [1, ny + 1], MPI_INTEGER, col_in_r)
    call MPI_Type_size(col_out_r, tsize)
    call check(tsize == 4 * nx, 'column type: MPI_Type_size is not nx INTEGERs')
    call MPI_Type_get_extent(col_out_r, lb, extent)
    call check(lb == 0 .and. extent == 4 * (nx + 2) * (ny + 2), &
        'column type: extent is not the whole array')
    a = -1
    do j = 1, ny
        do i = 1, nx
            a(i, j) = val2(rank, i, j)
        end do
    end do
    call MPI_Sendrecv(a, 1, col_out_r, right, 1, a, 1, col_in_l, left, 1, MPI_COMM_WORLD, st)
    call check(st%MPI_SOURCE == left .and. st%MPI_TAG == 1, 'column: status')
    call MPI_Sendrecv(a, 1, col_out_l, left, 2, a, 1, col_in_r, right, 2, MPI_COMM_WORLD, st)
    do i = 1, nx
        call check(a(i, 0) == val2(left, i, ny), 'column halo from the left')
        call check(a(i, ny + 1) == val2(right, i, 1), 'column halo from the right')
    end do
    call check(all(a(0, :) == -1) .and. all(a(nx + 1, :) == -1), 'column: rows 0, nx+1 touched')
    do j = 1, ny
        call check(all(a(1:nx, j) == [(val2(rank, i, j), i = 1, nx)]), 'column: interior touched')
    end do

    ! 2-D, halo width 2 in the first dimension: two rows b(i:i+1, 1:ny) are strided.
    ! Subarray starts count from the array's first element: row r is at r + 1.
    call subarray2([nx + 4, ny], [2, ny], [nx, 0], MPI_DOUBLE_PRECISION, rows_out_r)
    call subarray2([nx + 4, ny], [2, ny], [0, 0], MPI_DOUBLE_PRECISION, rows_in_l)
    call subarray2([nx + 4, ny], [2, ny], [2, 0], MPI_DOUBLE_PRECISION, rows_out_l)
    call subarray2([nx + 4, ny], [2, ny], [nx + 2, 0], MPI_DOUBLE_PRECISION, rows_in_r)
    call MPI_Type_size(rows_out_r, tsize)
    call check(tsize == 8 * 2 * ny, 'row block type: MPI_Type_size')
    b = -1d0
    do j = 1, ny
        do i = 1, nx
            b(i, j) = val2(rank, i, j) + 0.5d0
        end do
    end do
    call MPI_Sendrecv(b, 1, rows_out_r, right, 3, b, 1, rows_in_l, left, 3, MPI_COMM_WORLD, st)
    call MPI_Sendrecv(b, 1, rows_out_l, left, 4, b, 1, rows_in_r, right, 4, MPI_COMM_WORLD, st)
    do j = 1, ny
        call check(b(-1, j) == val2(left, nx - 1, j) + 0.5d0 .and. &
            b(0, j) == val2(left, nx, j) + 0.5d0, 'row block halo from the left')
        call check(b(nx + 1, j) == val2(right, 1, j) + 0.5d0 .and. &
            b(nx + 2, j) == val2(right, 2, j) + 0.5d0, 'row block halo from the right')
        call check(all(b(1:nx, j) == [(val2(rank, i, j) + 0.5d0, i = 1, nx)]), &
            'row block: interior touched')
    end do

    ! 3-D, halo width 1 in the first dimension: an x-face c(x, :, :) is strided twice.
    call subarray3([nx + 2, ny, nz], [1, ny, nz], [nx, 0, 0], face_out_r)
    call subarray3([nx + 2, ny, nz], [1, ny, nz], [0, 0, 0], face_in_l)
    call subarray3([nx + 2, ny, nz], [1, ny, nz], [1, 0, 0], face_out_l)
    call subarray3([nx + 2, ny, nz], [1, ny, nz], [nx + 1, 0, 0], face_in_r)
    call MPI_Type_get_extent(face_in_r, lb, extent)
    call check(lb == 0 .and. extent == 4 * (nx + 2) * ny * nz, 'face type: extent')
    c = -1.0
    do k = 1, nz
        do j = 1, ny
            do i = 1, nx
                c(i, j, k) = val3(rank, i, j, k)
            end do
        end do
    end do
    call MPI_Sendrecv(c, 1, face_out_r, right, 5, c, 1, face_in_l, left, 5, MPI_COMM_WORLD, st)
    call MPI_Sendrecv(c, 1, face_out_l, left, 6, c, 1, face_in_r, right, 6, MPI_COMM_WORLD, st)
    do k = 1, nz
        do j = 1, ny
            call check(c(0, j, k) == val3(left, nx, j, k), '3-D face halo from the left')
            call check(c(nx + 1, j, k) == val3(right, 1, j, k), '3-D face halo from the right')
            call check(all(c(1:nx, j, k) == [(val3(rank, i, j, k), i = 1, nx)]), &
                '3-D: interior touched')
        end do
    end do

    ! A sub-box c(1:nx, 2:ny, nz-1:nz) sent as one subarray, received as plain REALs: they
    ! come in Fortran element order, the order of the array section.
    call subarray3([nx + 2, ny, nz], [nx, ny - 1, 2], [1, 1, nz - 2], subbox)
    box = -1.0
    call MPI_Sendrecv(c, 1, subbox, right, 7, box, size(box), MPI_REAL, left, 7, &
        MPI_COMM_WORLD, st)
    call MPI_Get_count(st, MPI_REAL, tsize)
    call check(tsize == size(box), 'sub-box: MPI_Get_count')
    call check(all(box == reshape([(((val3(left, i, j, k), i = 1, nx), j = 2, ny), &
        k = nz - 1, nz)], [size(box)])), 'sub-box: elements not in Fortran order')

    call MPI_Type_free(col_out_r)
    call MPI_Type_free(col_in_l)
    call MPI_Type_free(col_out_l)
    call MPI_Type_free(col_in_r)
    call MPI_Type_free(rows_out_r)
    call MPI_Type_free(rows_in_l)
    call MPI_Type_free(rows_out_l)
    call MPI_Type_free(rows_in_r)
    call MPI_Type_free(face_out_r)
    call MPI_Type_free(face_in_l)
    call MPI_Type_free(face_out_l)
    call MPI_Type_free(face_in_r)
    call MPI_Type_free(subbox)
    call check(subbox == MPI_DATATYPE_NULL, 'MPI_Type_free leaves MPI_DATATYPE_NULL')
    if (rank == 0) print '(a,i0,a)', 'subarray halos: ', n, ' ranks ok'
    call MPI_Finalize()

contains

    integer function val2(r, i, j)
        integer, intent(in) :: r, i, j
        val2 = r * 10000 + i * 100 + j
    end function

    real function val3(r, i, j, k)
        integer, intent(in) :: r, i, j, k
        val3 = real(r * 1000 + i * 100 + j * 10 + k)
    end function

    subroutine subarray2(sizes, subsizes, starts, old, t)
        integer, intent(in) :: sizes(2), subsizes(2), starts(2)
        type(MPI_Datatype), intent(in) :: old
        type(MPI_Datatype), intent(out) :: t

        call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, old, t)
        call MPI_Type_commit(t)
    end subroutine

    subroutine subarray3(sizes, subsizes, starts, t)
        integer, intent(in) :: sizes(3), subsizes(3), starts(3)
        type(MPI_Datatype), intent(out) :: t
        integer :: ierr

        call MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_REAL, &
            t, ierr)
        call check(ierr == MPI_SUCCESS, 'MPI_Type_create_subarray returned an error')
        call MPI_Type_commit(t)
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
