! The project library's sum by the mpi module, in place (tests/lib/buildsys_fortran).
module fcore_mpi
  use fcore_f08, only: fcore_count
  implicit none
  private
  public :: fcore_sum_mpi
contains
  integer function fcore_sum_mpi(value) result(total)
    use mpi
    integer, intent(in) :: value
    integer :: ierr
    call fcore_count()
    total = value
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function fcore_sum_mpi
end module fcore_mpi
