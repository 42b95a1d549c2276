! fortran_mixed_mpif: the mpif.h half of the program of fortran_mixed_main.f90 (which
! says what the two halves check); called once by each rank's main thread.
!
! MIXED_MPIF_PART(COMM, TRIPLE, WORLD, FSUM, FSTAT, GOT, GOT9, FREQ): on communicator
! COMM, FSUM is the in-place sum of the world ranks, GOT what the left neighbour sent
! as one TRIPLE (tag 8) and FSTAT that receive's status; FREQ a receive of one TRIPLE
! into GOT9 (tag 9) for the caller to complete; a TRIPLE goes to the right (tag 10).
      SUBROUTINE MIXED_MPIF_PART(COMM, TRIPLE, WORLD, FSUM, FSTAT,
     &     GOT, GOT9, FREQ)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER COMM, TRIPLE, WORLD, FSUM, FREQ
      INTEGER FSTAT(MPI_STATUS_SIZE), GOT(3), GOT9(3)
      INTEGER WR, HR, HS, LEFT, RIGHT, IERR, VALS(3), V2(3)
      INTEGER ST(MPI_STATUS_SIZE)

      CALL MPI_COMM_RANK(MPI_COMM_WORLD, WR, IERR)
      IF (WORLD .NE. MPI_COMM_WORLD) CALL MFAIL(WR,
     &     'MPI_COMM_WORLD differs between mpi_f08 and mpif.h')
      CALL MPI_COMM_RANK(COMM, HR, IERR)
      CALL MPI_COMM_SIZE(COMM, HS, IERR)
      RIGHT = MOD(HR + 1, HS)
      LEFT = MOD(HR + HS - 1, HS)

      FSUM = WR
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, FSUM, 1, MPI_INTEGER, MPI_SUM,
     &     COMM, IERR)
      IF (IERR .NE. MPI_SUCCESS) CALL MFAIL(WR, 'MPI_ALLREDUCE failed')

      VALS(1) = 10 + WR
      VALS(2) = 20 + WR
      VALS(3) = 30 + WR
      CALL MPI_SENDRECV(VALS, 1, TRIPLE, RIGHT, 8, GOT, 1, TRIPLE,
     &     LEFT, 8, COMM, FSTAT, IERR)
      IF (IERR .NE. MPI_SUCCESS) CALL MFAIL(WR, 'MPI_SENDRECV failed')
      IF (FSTAT(MPI_SOURCE) .NE. LEFT .OR. FSTAT(MPI_TAG) .NE. 8)
     &     CALL MFAIL(WR, 'MPI_SENDRECV status')
      V2(1) = -1
      CALL MPI_SENDRECV(VALS, 3, MPI_INTEGER, RIGHT, 11, V2, 3,
     &     MPI_INTEGER, LEFT, 11, COMM, MPI_STATUS_IGNORE, IERR)
      IF (V2(1) .NE. GOT(1)) CALL MFAIL(WR,
     &     'MPI_SENDRECV with MPI_STATUS_IGNORE')

      CALL MPI_IRECV(GOT9, 1, TRIPLE, LEFT, 9, COMM, FREQ, IERR)
      IF (FREQ .EQ. MPI_REQUEST_NULL) CALL MFAIL(WR, 'MPI_IRECV')
      VALS(1) = WR
      VALS(2) = 0
      VALS(3) = 0
      CALL MPI_SEND(VALS, 1, TRIPLE, RIGHT, 10, COMM, IERR)
      CALL MPI_RECV(VALS, 0, MPI_INTEGER, MPI_PROC_NULL, 0, COMM, ST,
     &     IERR)
      IF (ST(MPI_SOURCE) .NE. MPI_PROC_NULL) CALL MFAIL(WR,
     &     'receive from MPI_PROC_NULL')
      END

! MFAIL RANK WHAT: end the job naming the rank and WHAT.
      SUBROUTINE MFAIL(RANK, WHAT)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, E
      CHARACTER*(*) WHAT
      PRINT '(A,I0,A,A)', 'FAIL rank ', RANK, ': ', WHAT
      CALL MPI_ABORT(MPI_COMM_WORLD, 1, E)
      END
