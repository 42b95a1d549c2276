#!/bin/bash
# fortran_f08_and_mpif_h_in_one_program: one program whose main file uses mpi_f08 and whose
# other file includes mpif.h (as an old library would). Handles pass between them as
# MPI_VAL and the integer (a communicator duplicated by the mpi_f08 side is used by the
# mpif.h side, which returns a request the mpi_f08 side waits on), both sides' sentinels
# work (MPI_STATUS_IGNORE, MPI_IN_PLACE), and the two sides' messages meet around a ring;
# at 1, 4 and 64 ranks.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"

cat >"$TEST_TMP/old.f" <<'SRC'
C     The mpif.h half: sends its rank to the next rank on COMM, receives from the
C     previous one into GOT (returned), and starts a nonblocking send whose request
C     it hands back.
      SUBROUTINE OLDRING(COMM, RANK, SIZE, GOT, REQ)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER COMM, RANK, SIZE, GOT, REQ, IERR, NEXT, PREV, V, SUM
      NEXT = MOD(RANK + 1, SIZE)
      PREV = MOD(RANK + SIZE - 1, SIZE)
      V = RANK
      CALL MPI_SENDRECV(V, 1, MPI_INT, NEXT, 11, GOT, 1, MPI_INT,
     &                  PREV, 11, COMM, MPI_STATUS_IGNORE, IERR)
      IF (IERR .NE. MPI_SUCCESS) STOP 3
      SUM = RANK
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, SUM, 1, MPI_INT, MPI_SUM, COMM,
     &                   IERR)
      IF (SUM .NE. SIZE * (SIZE - 1) / 2) STOP 4
      CALL MPI_ISEND(V, 0, MPI_INT, RANK, 12, COMM, REQ, IERR)
      END
SRC

cat >"$TEST_TMP/new.f90" <<'SRC'
program mixed
  use mpi_f08
  implicit none
  type(MPI_Comm) :: dup
  type(MPI_Request) :: req
  type(MPI_Status) :: st
  integer :: rank, size, got, ireq, v, sum

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call oldring(dup%MPI_VAL, rank, size, got, ireq)
  if (got /= mod(rank + size - 1, size)) error stop 'mpif.h side received the wrong rank'
  req%MPI_VAL = ireq
  call MPI_Recv(v, 0, MPI_INT, rank, 12, dup, st)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (req /= MPI_REQUEST_NULL .or. st%MPI_TAG /= 12) error stop 'request from mpif.h'
  sum = rank
  call MPI_Allreduce(MPI_IN_PLACE, sum, 1, MPI_INT, MPI_SUM, dup)
  if (sum /= size * (size - 1) / 2) error stop 'mpi_f08 MPI_IN_PLACE'
  call MPI_Comm_free(dup)
  call MPI_Finalize()
  if (rank == 0) print '(a)', 'mixed ok'
end program mixed
SRC
build_fortran mixed -g "$TEST_TMP/new.f90" "$TEST_TMP/old.f"

for n in 1 4 64; do
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/mixed"
	expect_rc 0
	expect_out "mixed ok"
done
