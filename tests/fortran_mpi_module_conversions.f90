! fortran_mpi_module_conversions: through `use mpi`, the bindings convert: a name set with
! trailing blanks comes back trimmed, blank-padded, cut to a short CHARACTER; MPI_WAITALL
! fills an array of statuses; MPI_TESTSOME and MPI_WAITANY give 1-based indices;
! MPI_TYPE_CREATE_STRUCT takes arrays (absolute addresses, sent from MPI_BOTTOM);
! MPI_ALLTOALLW takes datatype arrays; MPI_IN_PLACE, MPI_STATUS_IGNORE (never written);
! LOGICAL flags; MPI_INFO_GET's string out; under MPI_ERRORS_RETURN a bad handle's class
! in IERROR (a bad communicator's on MPI_COMM_SELF); MPI_ALLOC_MEM into a TYPE(C_PTR).
! Entered by each rank's main thread.
! ranks: 1 4 64
program conversions
  use mpi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_associated
  implicit none
  integer :: ierr, rank, nranks, left, right, i, n, cls, outcount, idx, cnt, info, dup
  integer :: req(3), idxs(3), statuses(MPI_STATUS_SIZE, 3), st(MPI_STATUS_SIZE)
  integer :: sbuf(3), rbuf(3), seen(3)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=4) :: short
  character(len=20) :: val
  logical :: flag
  integer :: stype, rtype, blens(2), types(2), ival, ival2
  double precision :: dval, dval2
  integer(kind=MPI_ADDRESS_KIND) :: disps(2)
  integer, allocatable :: a2a_s(:), a2a_r(:), a2a_c(:), a2a_d(:), a2a_t(:)
  integer :: fails, ierr2
  type(c_ptr) :: mem
  double precision, pointer :: darr(:)

  fails = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = mod(rank - 1 + nranks, nranks)
  right = mod(rank + 1, nranks)
  call MPI_Initialized(flag, ierr)
  call check(flag, 'MPI_Initialized gives .TRUE.')

  ! Strings: in trimmed, out blank-padded, cut to the Fortran length.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_set_name(dup, 'fortran comm   ', ierr)
  name = repeat('x', len(name))
  call MPI_Comm_get_name(dup, name, n, ierr)
  call check(n == 12, 'resultlen is the C length (12)')
  call check(name == 'fortran comm', 'the name comes back blank-padded')
  call check(name(13:) == ' ', 'the rest of the name is blanks')
  call MPI_Comm_get_name(dup, short, n, ierr)
  call check(short == 'fort', 'a short CHARACTER gets the name cut')

  ! Waitall with statuses: a ring exchange, tag = sender's rank.
  sbuf(1) = 1000 + rank
  call MPI_Irecv(rbuf(1), 1, MPI_INT, left, left, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(sbuf(1), 1, MPI_INT, right, rank, MPI_COMM_WORLD, req(2), ierr)
  statuses = -1
  call MPI_Waitall(2, req, statuses, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Waitall succeeds')
  call check(rbuf(1) == 1000 + left, 'the ring value arrives')
  call check(statuses(MPI_SOURCE, 1) == left, 'status 1 names the source')
  call check(statuses(MPI_TAG, 1) == left, 'status 1 names the tag')
  call MPI_Get_count(statuses(:, 1), MPI_INT, cnt, ierr)
  call check(cnt == 1, 'MPI_Get_count of the status is 1')
  call check(req(1) == MPI_REQUEST_NULL .and. req(2) == MPI_REQUEST_NULL, &
             'MPI_Waitall sets the requests to MPI_REQUEST_NULL')

  ! Testsome: three receives from self, indices 1-based, each once.
  do i = 1, 3
    call MPI_Irecv(rbuf(i), 1, MPI_INT, rank, 10 + i, MPI_COMM_WORLD, req(i), ierr)
  end do
  do i = 3, 1, -1
    sbuf(i) = 50 + i
    call MPI_Send(sbuf(i), 1, MPI_INT, rank, 10 + i, MPI_COMM_WORLD, ierr)
  end do
  seen = 0
  n = 0
  do while (n < 3)
    call MPI_Testsome(3, req, outcount, idxs, statuses, ierr)
    if (outcount == MPI_UNDEFINED) exit
    do i = 1, outcount
      call check(idxs(i) >= 1 .and. idxs(i) <= 3, 'MPI_Testsome indices are 1-based')
      if (idxs(i) >= 1 .and. idxs(i) <= 3) seen(idxs(i)) = seen(idxs(i)) + 1
      call check(statuses(MPI_TAG, i) == 10 + idxs(i), 'MPI_Testsome status matches index')
    end do
    n = n + outcount
  end do
  call check(all(seen == 1), 'MPI_Testsome reports each request once')
  call check(all(rbuf == (/ 51, 52, 53 /)), 'the three receives match by tag')

  ! Waitany: 1-based index.
  call MPI_Irecv(rbuf(1), 1, MPI_INT, rank, 20, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Irecv(rbuf(2), 1, MPI_INT, rank, 21, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Send(sbuf(1), 1, MPI_INT, rank, 21, MPI_COMM_WORLD, ierr)
  call MPI_Waitany(2, req, idx, st, ierr)
  call check(idx == 2, 'MPI_Waitany gives the 1-based index 2')
  call MPI_Send(sbuf(1), 1, MPI_INT, rank, 20, MPI_COMM_WORLD, ierr)
  call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)

  ! Test: LOGICAL flag.
  call MPI_Irecv(rbuf(1), 1, MPI_INT, rank, 30, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Test(req(1), flag, st, ierr)
  call check(.not. flag, 'MPI_Test of a pending receive gives .FALSE.')
  call MPI_Send(sbuf(1), 1, MPI_INT, rank, 30, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(req(1), flag, st, ierr)
  end do
  call check(st(MPI_SOURCE) == rank, 'MPI_Test fills the status')

  ! Type_create_struct with absolute addresses, sent from MPI_BOTTOM.
  ival = 7 + rank
  dval = 2.5d0 * rank
  call MPI_Get_address(ival, disps(1), ierr)
  call MPI_Get_address(dval, disps(2), ierr)
  blens = 1
  types(1) = MPI_INT
  types(2) = MPI_DOUBLE
  call MPI_Type_create_struct(2, blens, disps, types, stype, ierr)
  call MPI_Type_commit(stype, ierr)
  ival2 = -1
  dval2 = -1
  call MPI_Get_address(ival2, disps(1), ierr)
  call MPI_Get_address(dval2, disps(2), ierr)
  call MPI_Type_create_struct(2, blens, disps, types, rtype, ierr)
  call MPI_Type_commit(rtype, ierr)
  call MPI_Sendrecv(MPI_BOTTOM, 1, stype, right, 40, MPI_BOTTOM, 1, rtype, left, 40, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Type_free(stype, ierr)
  call check(stype == MPI_DATATYPE_NULL, 'MPI_Type_free sets MPI_DATATYPE_NULL')
  call check(ival2 == 7 + left .and. dval2 == 2.5d0 * left, &
             'a struct type sent from and received into MPI_BOTTOM')
  call MPI_Type_free(rtype, ierr)

  ! Alltoallw with arrays of datatypes: rank r sends r*100+j to rank j.
  allocate(a2a_s(nranks), a2a_r(nranks), a2a_c(nranks), a2a_d(nranks), a2a_t(nranks))
  do i = 1, nranks
    a2a_s(i) = rank * 100 + (i - 1)
    a2a_c(i) = 1
    a2a_d(i) = (i - 1) * 4
    a2a_t(i) = MPI_INT
  end do
  a2a_r = -1
  call MPI_Alltoallw(a2a_s, a2a_c, a2a_d, a2a_t, a2a_r, a2a_c, a2a_d, a2a_t, &
                     MPI_COMM_WORLD, ierr)
  do i = 1, nranks
    if (a2a_r(i) /= (i - 1) * 100 + rank) then
      call check(.false., 'MPI_Alltoallw delivers each rank''s block')
      exit
    end if
  end do

  ! MPI_IN_PLACE and MPI_STATUS_IGNORE, which the bindings must never write.
  MPI_STATUS_IGNORE = -77
  n = rank
  call MPI_Allreduce(MPI_IN_PLACE, n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(n == nranks * (nranks - 1) / 2, 'MPI_Allreduce with MPI_IN_PLACE sums ranks')
  call MPI_Sendrecv(rank, 1, MPI_INT, right, 50, n, 1, MPI_INT, left, 50, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(n == left, 'MPI_Sendrecv with MPI_STATUS_IGNORE receives')
  call check(all(MPI_STATUS_IGNORE == -77), 'MPI_STATUS_IGNORE is never written')

  ! Info: strings in and out, LOGICAL flag.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'shoal_key  ', 'a value  ', ierr)
  val = repeat('x', len(val))
  call MPI_Info_get(info, 'shoal_key', len(val), val, flag, ierr)
  call check(flag .and. val == 'a value', 'MPI_Info_get gives the value back')
  call MPI_Info_get(info, 'no_key', len(val), val, flag, ierr)
  call check(.not. flag, 'MPI_Info_get of a missing key gives .FALSE.')
  call MPI_Info_free(info, ierr)
  call check(info == MPI_INFO_NULL, 'MPI_Info_free sets MPI_INFO_NULL')

  ! MPI_Alloc_mem into a TYPE(C_PTR).
  call MPI_Alloc_mem(int(8 * nranks, MPI_ADDRESS_KIND), MPI_INFO_NULL, mem, ierr)
  call check(ierr == MPI_SUCCESS .and. c_associated(mem), 'MPI_Alloc_mem into a TYPE(C_PTR)')
  call c_f_pointer(mem, darr, (/ nranks /))
  darr = rank
  call MPI_Allreduce(MPI_IN_PLACE, darr, nranks, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(all(darr == nranks * (nranks - 1) / 2), 'memory of MPI_Alloc_mem works')
  call MPI_Free_mem(darr, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Free_mem of it')

  ! Errors: the class of a bad handle in IERROR.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(sbuf, 1, 987654, rank, 0, MPI_COMM_WORLD, ierr)
  call check(ierr /= MPI_SUCCESS, 'a bad datatype fails')
  call MPI_Error_class(ierr, cls, ierr2)
  call check(cls == MPI_ERR_TYPE, 'a bad datatype is MPI_ERR_TYPE')
  call MPI_Comm_size(12345, n, ierr)
  call MPI_Error_class(ierr, cls, ierr2)
  call check(cls == MPI_ERR_COMM, 'a bad communicator is MPI_ERR_COMM')

  call MPI_Comm_free(dup, ierr)
  call check(dup == MPI_COMM_NULL, 'MPI_Comm_free sets MPI_COMM_NULL')
  call MPI_Allreduce(MPI_IN_PLACE, fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. fails == 0) print '(a)', 'conversions ok'
  call MPI_Finalize(ierr)
  if (fails /= 0) error stop 1

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print '(a, i0, 2a)', 'rank ', rank, ': FAILED: ', what
      fails = fails + 1
    end if
  end subroutine check

end program conversions
