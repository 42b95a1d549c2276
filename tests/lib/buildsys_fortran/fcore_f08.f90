! Fortran project library of the build-system tests (tests/cmake_*fortran*,
! tests/meson_*fortran*), one module per binding, each in a file of its own: the sum of a
! value over MPI_COMM_WORLD by mpi_f08. The library is linked to MPI the way the build
! system links it; each rank has its own copy (it needs libmpifort), so `calls` counts the
! calling rank's calls only. MPI_INT is the C type that default INTEGER matches here.
! Entered by each rank's main thread.
module fcore_f08
  implicit none
  private
  public :: fcore_sum_f08, fcore_calls, fcore_count
  integer, save :: calls = 0
contains
  integer function fcore_sum_f08(value) result(total)
    use mpi_f08
    integer, intent(in) :: value
    call fcore_count()
    call MPI_Allreduce(value, total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
  end function fcore_sum_f08

  subroutine fcore_count()
    calls = calls + 1
  end subroutine fcore_count

  integer function fcore_calls()
    fcore_calls = calls
  end function fcore_calls
end module fcore_f08
