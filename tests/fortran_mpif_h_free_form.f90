! fortran_mpif_h_free_form: mpif.h included by a free-form program (and by a module
! procedure beside the main program): its lines are valid there too, and its sentinels
! and constants work as in fixed form: MPI_IN_PLACE, MPI_STATUS_IGNORE (never written),
! MPI_STATUS_SIZE and MPI_SOURCE, MPI_SUBARRAYS_SUPPORTED and the kinds. Entered by each
! rank's main thread.
! ranks: 1 4 64
module freeform_helpers
  implicit none
contains
  integer function world_sum(x)
    include 'mpif.h'
    integer, intent(in) :: x
    integer :: ierr
    world_sum = x
    call MPI_Allreduce(MPI_IN_PLACE, world_sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function world_sum
end module freeform_helpers

program freeform
  use freeform_helpers
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nranks, left, right, got, st(MPI_STATUS_SIZE), fails
  integer(kind=MPI_ADDRESS_KIND) :: a
  integer(kind=MPI_OFFSET_KIND) :: o

  fails = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = mod(rank - 1 + nranks, nranks)
  right = mod(rank + 1, nranks)
  if (world_sum(1) /= nranks) call fail('MPI_IN_PLACE from a module procedure')
  if (MPI_SUBARRAYS_SUPPORTED .or. MPI_ASYNC_PROTECTS_NONBLOCKING) call fail('features')
  if (kind(a) /= 8 .or. kind(o) /= 8 .or. MPI_STATUS_SIZE /= 8) call fail('kinds')
  MPI_STATUS_IGNORE = -5
  call MPI_Sendrecv(rank, 1, MPI_INT, right, 1, got, 1, MPI_INT, left, 1, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (got /= left .or. any(MPI_STATUS_IGNORE /= -5)) call fail('MPI_STATUS_IGNORE')
  call MPI_Sendrecv(rank, 1, MPI_INT, right, 2, got, 1, MPI_INT, left, 2, &
                    MPI_COMM_WORLD, st, ierr)
  if (st(MPI_SOURCE) /= left .or. st(MPI_TAG) /= 2) call fail('status')
  fails = world_sum(fails)
  if (rank == 0 .and. fails == 0) print '(a)', 'free form ok'
  call MPI_Finalize(ierr)
  if (fails /= 0) stop 1

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a, i0, 2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine fail

end program freeform
