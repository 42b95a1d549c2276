#!/bin/bash
# fortran_f08_sections_blocking_and_nonblocking: with `use mpi_f08`, each rank sends the
# array section a(1:n:2, 3) (every other element of a column) to the next rank around a ring,
# which receives it into b(2:n:2, 2): with MPI_Sendrecv, with MPI_Irecv/MPI_Isend/MPI_Waitall
# (no copy: the binding describes the section with a datatype) and with a datatype of two
# elements (a blocking call gets a copy); every received element is right and every element
# around the section untouched. Then fewer elements than a 2-D section c(1:6:2, 1:3) holds
# (5 of 9: a whole column and two more) arrive by MPI_Irecv in array element order, and a
# reversed section a(n:1:-2, 1) is sent, and an assumed-size dummy (whose last extent the
# descriptor gives as -1) is passed on whole; at 1, 4 and 64 ranks.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/sections.f90" <<'SRC'
program sections
  use mpi_f08
  implicit none
  integer, parameter :: n = 10, half = n / 2, pairs = 2
  integer :: rank, size, next, prev, i, ierr, cnt
  double precision :: a(n, 4), b(n, 4)
  type(MPI_Request) :: req(2)
  type(MPI_Status) :: st, sts(2)
  type(MPI_Datatype) :: pair
  integer :: c(6, 4), five(5), j, k, e

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  next = mod(rank + 1, size)
  prev = mod(rank + size - 1, size)

  call fill()
  call MPI_Sendrecv(a(1:n:2, 3), half, MPI_DOUBLE, next, 1, &
                    b(2:n:2, 2), half, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, st, ierr)
  call expect(ierr == MPI_SUCCESS, 'sendrecv ierror')
  call expect(st%MPI_SOURCE == prev .and. st%MPI_TAG == 1, 'sendrecv status')
  call MPI_Get_count(st, MPI_DOUBLE, cnt)
  call expect(cnt == half, 'sendrecv count')
  call check(n)

  call fill()
  call MPI_Irecv(b(2:n:2, 2), half, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, req(1))
  call MPI_Isend(a(1:n:2, 3), half, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, req(2))
  call MPI_Waitall(2, req, sts)
  call expect(req(1) == MPI_REQUEST_NULL .and. req(2) == MPI_REQUEST_NULL, 'requests freed')
  call expect(sts(1)%MPI_SOURCE == prev .and. sts(1)%MPI_TAG == 2, 'waitall status')
  call check(n)

  call MPI_Type_contiguous(2, MPI_DOUBLE, pair)
  call MPI_Type_commit(pair)
  call fill()
  call MPI_Sendrecv(a(1:n:2, 3), pairs, pair, next, 3, &
                    b(2:n:2, 2), pairs, pair, prev, 3, MPI_COMM_WORLD, st)
  call check(2 * pairs * 2)
  call MPI_Type_free(pair)

  ! 5 elements into a 3 x 3 section: c(1,1) c(3,1) c(5,1) c(1,2) c(3,2), nothing else.
  c = -1
  five = [(100 * prev + i, i = 1, 5)]
  call MPI_Irecv(c(1:6:2, 1:3), 5, MPI_INT, prev, 4, MPI_COMM_WORLD, req(1))
  five = [(100 * rank + i, i = 1, 5)]
  call MPI_Isend(five, 5, MPI_INT, next, 4, MPI_COMM_WORLD, req(2))
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
  e = 0
  do k = 1, 4
    do j = 1, 6
      if (mod(j, 2) == 1 .and. k <= 3 .and. e < 5) then
        e = e + 1
        call expect(c(j, k) == 100 * prev + e, 'partly filled section element')
      else
        call expect(c(j, k) == -1, 'element past the count untouched')
      end if
    end do
  end do

  ! A reversed section: a(n:1:-2, 1) is a(10), a(8), ... a(2).
  call fill()
  call MPI_Sendrecv(a(n:1:-2, 1), half, MPI_DOUBLE, next, 5, &
                    b(1:half, 1), half, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  do j = 1, half
    call expect(b(j, 1) == 1000 * prev + 10 + (n + 2 - 2 * j), 'reversed section element')
  end do

  ! An assumed-size array passed on.
  five = [(100 * rank + i, i = 1, 5)]
  c = -1
  call pass_on(five, 5)
  do j = 1, 5
    call expect(c(j, 1) == 100 * prev + j, 'assumed-size buffer element')
  end do

  call MPI_Finalize()
  if (rank == 0) print '(a)', 'sections ok'
contains
  subroutine pass_on(buf, m)
    integer :: buf(*), m
    call MPI_Sendrecv(buf, m, MPI_INT, next, 6, c(:, 1), m, MPI_INT, prev, 6, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  end subroutine pass_on

  subroutine fill()
    integer :: j, k
    do k = 1, 4
      do j = 1, n
        a(j, k) = 1000 * rank + 10 * k + j
      end do
    end do
    b = -1
  end subroutine fill

  ! b(2:upto:2, 2) holds prev's a(1:upto-1:2, 3); everything else is still -1.
  subroutine check(upto)
    integer, intent(in) :: upto
    integer :: j, k
    do k = 1, 4
      do j = 1, n
        if (k == 2 .and. mod(j, 2) == 0 .and. j <= upto) then
          call expect(b(j, k) == 1000 * prev + 30 + (j - 1), 'received section element')
        else
          call expect(b(j, k) == -1, 'element around the section untouched')
        end if
      end do
    end do
  end subroutine check

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      write (0, '(a, i0, 2a)') 'rank ', rank, ': FAILED: ', what
      error stop 1
    end if
  end subroutine expect
end program sections
SRC
build_fortran sections -g "$TEST_TMP/sections.f90"

for n in 1 4 64; do
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/sections"
	expect_rc 0
	expect_out "sections ok"
done
