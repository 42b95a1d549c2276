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

    include 'lib/fortran_collectives_body.inc'
end program
