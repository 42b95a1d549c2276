! The program's own mpif.h part (tests/lib/buildsys_fortran/app.f90), in a file of its
! own: mpif.h's sentinel COMMON blocks and mpi_f08's sentinel variables share global names,
! which gfortran refuses in one file.
! A message to itself received with mpif.h's MPI_STATUS_IGNORE (the program's own COMMON
! sentinel, which mpif_sentinels.o registers).
integer function sendrecv_self(me) result(got)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: me
  integer :: ierr
  call MPI_Sendrecv(me, 1, MPI_INT, me, 7, got, 1, MPI_INT, me, 7, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
end function sendrecv_self
