! The project library's sum by mpif.h, in place: MPI_IN_PLACE is the library's own COMMON
! sentinel, which mpif_sentinels.o registers (tests/lib/buildsys_fortran).
module fcore_mpif
  use fcore_f08, only: fcore_count
  implicit none
  private
  public :: fcore_sum_mpif
contains
  integer function fcore_sum_mpif(value) result(total)
    include 'mpif.h'
    integer, intent(in) :: value
    integer :: ierr
    call fcore_count()
    total = value
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function fcore_sum_mpif
end module fcore_mpif
