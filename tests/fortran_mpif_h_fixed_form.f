! fortran_mpif_h_fixed_form: a fixed-form program with INCLUDE 'mpif.h' gets the
! constants, the sentinels and the bindings: MPI_IN_PLACE in MPI_ALLREDUCE, MPI_BOTTOM
! with a type of absolute addresses, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE (the
! COMMON blocks are never written), MPI_WAITALL's statuses, a communicator's name in and
! out, MPI_WTIME as a DOUBLE PRECISION function, the error class of a bad handle under
! MPI_ERRORS_RETURN. Entered by each rank's main thread.
! ranks: 1 4 64
      PROGRAM MPIFFX
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, IERR2, RANK, NRANKS, LEFT, RIGHT, N, CLS, FAILS
      INTEGER REQ(2), STATS(MPI_STATUS_SIZE, 2), SBUF, RBUF, I
      INTEGER STYPE, RTYPE, BLENS(1), TYPES(1), X, Y
      INTEGER(KIND=MPI_ADDRESS_KIND) DISPS(1)
      CHARACTER*(MPI_MAX_OBJECT_NAME) NAME
      DOUBLE PRECISION T0, T1
      LOGICAL OK
      COMMON /FXST/ RANK, FAILS

      FAILS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NRANKS, IERR)
      LEFT = MOD(RANK - 1 + NRANKS, NRANKS)
      RIGHT = MOD(RANK + 1, NRANKS)
      T0 = MPI_WTIME()

!     MPI_IN_PLACE.
      N = RANK + 1
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, N, 1, MPI_INT, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      CALL CHECK(N .EQ. NRANKS * (NRANKS + 1) / 2,
     &     'MPI_ALLREDUCE with MPI_IN_PLACE')

!     MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are never written.
      DO I = 1, MPI_STATUS_SIZE
        MPI_STATUS_IGNORE(I) = -77
        MPI_STATUSES_IGNORE(I, 1) = -78
      END DO
      SBUF = 100 + RANK
      CALL MPI_SENDRECV(SBUF, 1, MPI_INT, RIGHT, 5, RBUF, 1, MPI_INT,
     &     LEFT, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      CALL CHECK(RBUF .EQ. 100 + LEFT, 'MPI_SENDRECV receives')
      CALL MPI_IRECV(RBUF, 1, MPI_INT, LEFT, 6, MPI_COMM_WORLD,
     &     REQ(1), IERR)
      CALL MPI_ISEND(SBUF, 1, MPI_INT, RIGHT, 6, MPI_COMM_WORLD,
     &     REQ(2), IERR)
      CALL MPI_WAITALL(2, REQ, MPI_STATUSES_IGNORE, IERR)
      OK = .TRUE.
      DO I = 1, MPI_STATUS_SIZE
        IF (MPI_STATUS_IGNORE(I) .NE. -77) OK = .FALSE.
        IF (MPI_STATUSES_IGNORE(I, 1) .NE. -78) OK = .FALSE.
      END DO
      CALL CHECK(OK, 'the ignored statuses are never written')

!     MPI_WAITALL with statuses.
      CALL MPI_IRECV(RBUF, 1, MPI_INT, LEFT, LEFT, MPI_COMM_WORLD,
     &     REQ(1), IERR)
      CALL MPI_ISEND(SBUF, 1, MPI_INT, RIGHT, RANK, MPI_COMM_WORLD,
     &     REQ(2), IERR)
      CALL MPI_WAITALL(2, REQ, STATS, IERR)
      CALL CHECK(STATS(MPI_SOURCE, 1) .EQ. LEFT .AND.
     &     STATS(MPI_TAG, 1) .EQ. LEFT, 'MPI_WAITALL statuses')
      CALL CHECK(REQ(1) .EQ. MPI_REQUEST_NULL, 'requests freed')

!     MPI_BOTTOM: one INTEGER at its absolute address.
      X = 40 + RANK
      Y = -1
      BLENS(1) = 1
      TYPES(1) = MPI_INT
      CALL MPI_GET_ADDRESS(X, DISPS(1), IERR)
      CALL MPI_TYPE_CREATE_STRUCT(1, BLENS, DISPS, TYPES, STYPE, IERR)
      CALL MPI_GET_ADDRESS(Y, DISPS(1), IERR)
      CALL MPI_TYPE_CREATE_STRUCT(1, BLENS, DISPS, TYPES, RTYPE, IERR)
      CALL MPI_TYPE_COMMIT(STYPE, IERR)
      CALL MPI_TYPE_COMMIT(RTYPE, IERR)
      CALL MPI_SENDRECV(MPI_BOTTOM, 1, STYPE, RIGHT, 7, MPI_BOTTOM, 1,
     &     RTYPE, LEFT, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      CALL CHECK(Y .EQ. 40 + LEFT, 'MPI_BOTTOM with absolute addresses')
      CALL MPI_TYPE_FREE(STYPE, IERR)
      CALL MPI_TYPE_FREE(RTYPE, IERR)

!     A name in (trailing blanks dropped) and out (blank-padded).
      CALL MPI_COMM_SET_NAME(MPI_COMM_SELF, 'self of fixed   ', IERR)
      NAME = 'garbage'
      CALL MPI_COMM_GET_NAME(MPI_COMM_SELF, NAME, N, IERR)
      CALL CHECK(N .EQ. 13 .AND. NAME .EQ. 'self of fixed',
     &     'MPI_COMM_GET_NAME')

!     The class of a bad handle in IERROR.
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     IERR)
      CALL MPI_SEND(SBUF, 1, 987654, RANK, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_ERROR_CLASS(IERR, CLS, IERR2)
      CALL CHECK(CLS .EQ. MPI_ERR_TYPE, 'bad datatype: MPI_ERR_TYPE')

      T1 = MPI_WTIME()
      CALL CHECK(T1 .GE. T0 .AND. MPI_WTICK() .GT. 0D0, 'MPI_WTIME')
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, FAILS, 1, MPI_INT, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0 .AND. FAILS .EQ. 0) PRINT '(A)', 'fixed form ok'
      CALL MPI_FINALIZE(IERR)
      IF (FAILS .NE. 0) STOP 1
      END

      SUBROUTINE CHECK(COND, WHAT)
      LOGICAL COND
      CHARACTER*(*) WHAT
      INTEGER RANK, FAILS
      COMMON /FXST/ RANK, FAILS
      IF (.NOT. COND) THEN
        PRINT '(A, I0, 2A)', 'rank ', RANK, ': FAILED: ', WHAT
        FAILS = FAILS + 1
      END IF
      END
