! fortran_collectives_fortran_types_f08: the checks of fortran_collectives_fortran_types
! (every collective of MPI_COMM_WORLD on Fortran types, values checked on every rank: its
! opening lists them) through the mpi_f08 module: TYPE(MPI_Request), TYPE(MPI_Status),
! MPI_IN_PLACE and MPI_STATUS_IGNORE of the module, buffers passed as descriptors, ierror
! given. The statements are tests/lib/fortran_collectives_body.inc, shared with the mpi
! module's version. Entered by each rank's main thread.
! ranks: 1 4 64
program fortran_collectives_fortran_types_f08
    use mpi_f08
    implicit none
    integer :: rank, n, root, ierr, i, j
    type(MPI_Request) :: req
    integer :: ibuf(4), isum
    double precision :: dbuf(3), dsum
    real :: rbuf(2), rsum(2)
    complex :: cbuf(2), csum(2)
    logical :: lbuf(3), lres(3)
    character(len=16) :: text
    real :: pair(2, 2), pairres(2, 2)
    double precision :: dpair(2), dpairres(2)
    integer, allocatable :: sendv(:), recvv(:), counts(:), displs(:), rcounts(:), rdispls(:)
    type(MPI_Status) :: status

    include 'lib/fortran_collectives_body.inc'
end program
