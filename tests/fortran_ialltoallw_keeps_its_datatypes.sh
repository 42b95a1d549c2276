#!/bin/bash
# fortran_ialltoallw_keeps_its_datatypes: MPI_Ialltoallw from mpi_f08 (and from the mpi
# module, whose binding is another) gets its arrays of datatypes as Fortran integers, which
# the binding converts for C; the collective reads the C array while the operation is
# pending, after the binding returned. Rank 0 starts it first
# and makes other calls (the binding's stack reused) before it lets the others start theirs;
# every rank then receives each rank's block, at 4 and 64 ranks.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/alltoallw.f90" <<'SRC'
program alltoallw
  use mpi_f08
  implicit none
  integer :: rank, size, i, go, k
  integer, allocatable :: sbuf(:), rbuf(:), cnt(:), displ(:)
  type(MPI_Datatype), allocatable :: types(:)
  type(MPI_Request) :: req

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  allocate(sbuf(size), rbuf(size), cnt(size), displ(size), types(size))
  do i = 1, size
    sbuf(i) = 1000 * rank + i
    cnt(i) = 1
    displ(i) = 4 * (i - 1)
    types(i) = MPI_INT
  end do
  rbuf = -1
  go = 1
  if (rank == 0) then
    call MPI_Ialltoallw(sbuf, cnt, displ, types, rbuf, cnt, displ, types, MPI_COMM_WORLD, req)
    do k = 1, 3
      do i = 1, size - 1
        call MPI_Send(go, 1, MPI_INT, i, 9, MPI_COMM_WORLD)
      end do
    end do
  else
    do k = 1, 3
      call MPI_Recv(go, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    end do
    call MPI_Ialltoallw(sbuf, cnt, displ, types, rbuf, cnt, displ, types, MPI_COMM_WORLD, req)
  end if
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  do i = 1, size
    if (rbuf(i) /= 1000 * (i - 1) + rank + 1) then
      write (0, '(a, i0, a, i0, a, i0)') 'rank ', rank, ': block ', i, ' is ', rbuf(i)
      error stop 1
    end if
  end do
  call MPI_Finalize()
  if (rank == 0) print '(a)', 'alltoallw ok'
end program alltoallw
SRC
# The same program through the mpi module: integer handles and an ierror argument.
sed -e 's/use mpi_f08/use mpi/' -e 's/type(MPI_Datatype), allocatable/integer, allocatable/' \
    -e 's/type(MPI_Request) :: req/integer :: req, ierr/' \
    -e 's/^\( *call MPI_[A-Za-z_]*(.*\))$/\1, ierr)/' -e 's/(, ierr)/(ierr)/' \
    "$TEST_TMP/alltoallw.f90" >"$TEST_TMP/alltoallw_mpi.f90"
for p in alltoallw alltoallw_mpi; do
	build_fortran $p -g "$TEST_TMP/$p.f90"
done

for p in alltoallw alltoallw_mpi; do
	for n in 4 64; do
		run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/$p"
		expect_rc 0
		expect_out "alltoallw ok"
	done
done
