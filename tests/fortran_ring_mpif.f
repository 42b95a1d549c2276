! fortran_ring_mpif: a fixed-form FORTRAN 77 program with INCLUDE 'mpif.h': an INTEGER
! token makes 5 laps of the ring (each rank adds 1) with a DOUBLE PRECISION array beside it;
! every call returns MPI_SUCCESS, every receive's status names the left neighbour and the
! lap's tag, MPI_Get_count the elements; MPI_STATUS_IGNORE is accepted. Entered by each
! rank's main thread.
! ranks: 1 4 64
      PROGRAM RING
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER LAPS, N
      PARAMETER (LAPS = 5, N = 6)
      INTEGER RANK, NRANKS, LEFT, RIGHT, TOKEN, LAP, CNT, K, IERR
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(N)
      COMMON /RINGST/ RANK

      CALL MPI_INIT(IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_INIT failed')
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NRANKS, IERR)
      RIGHT = MOD(RANK + 1, NRANKS)
      LEFT = MOD(RANK + NRANKS - 1, NRANKS)
      TOKEN = 0
      DO 30 LAP = 1, LAPS
         IF (RANK .NE. 0) THEN
            CALL MPI_RECV(TOKEN, 1, MPI_INTEGER, LEFT, LAP,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_RECV failed')
            CALL CHECK(STATUS(MPI_SOURCE) .EQ. LEFT,
     &                 'STATUS(MPI_SOURCE) is not the left neighbour')
            CALL CHECK(STATUS(MPI_TAG) .EQ. LAP,
     &                 'STATUS(MPI_TAG) is not the lap')
            CALL CHECK(TOKEN .EQ. (LAP - 1) * NRANKS + RANK,
     &                 'token from the left is wrong')
            CALL MPI_RECV(A, N, MPI_DOUBLE_PRECISION, LEFT, LAP,
     &                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
            CALL CHECK(IERR .EQ. MPI_SUCCESS,
     &                 'MPI_RECV with MPI_STATUS_IGNORE failed')
            DO 10 K = 1, N
               CALL CHECK(A(K) .EQ. TOKEN + K / 8D0,
     &                    'DOUBLE PRECISION array differs')
   10       CONTINUE
         END IF
         TOKEN = TOKEN + 1
         DO 20 K = 1, N
            A(K) = TOKEN + K / 8D0
   20    CONTINUE
         CALL MPI_SEND(TOKEN, 1, MPI_INTEGER, RIGHT, LAP,
     &                 MPI_COMM_WORLD, IERR)
         CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_SEND failed')
         CALL MPI_SEND(A, N, MPI_DOUBLE_PRECISION, RIGHT, LAP,
     &                 MPI_COMM_WORLD, IERR)
         IF (RANK .EQ. 0) THEN
            CALL MPI_RECV(TOKEN, 1, MPI_INTEGER, LEFT, LAP,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            CALL CHECK(TOKEN .EQ. LAP * NRANKS,
     &                 'token after a lap is not laps * ranks')
            CALL MPI_RECV(A, N, MPI_DOUBLE_PRECISION, LEFT, LAP,
     &                    MPI_COMM_WORLD, STATUS, IERR)
            CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_RECV failed')
            CALL CHECK(STATUS(MPI_SOURCE) .EQ. LEFT,
     &                 'STATUS(MPI_SOURCE) is not the left neighbour')
            CALL MPI_GET_COUNT(STATUS, MPI_DOUBLE_PRECISION, CNT, IERR)
            CALL CHECK(CNT .EQ. N, 'MPI_GET_COUNT differs')
         END IF
   30 CONTINUE
      IF (RANK .EQ. 0) PRINT '(A,I0,A,I0)', 'ring: token ', TOKEN,
     &   ' after 5 laps of ', NRANKS
      CALL MPI_FINALIZE(IERR)
      END

! CHECK OK WHAT: end the job naming the rank and WHAT unless OK.
      SUBROUTINE CHECK(OK, WHAT)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      LOGICAL OK
      CHARACTER*(*) WHAT
      INTEGER RANK, E
      COMMON /RINGST/ RANK
      IF (.NOT. OK) THEN
         PRINT '(A,I0,A,A)', 'FAIL rank ', RANK, ': ', WHAT
         CALL MPI_ABORT(MPI_COMM_WORLD, 1, E)
      END IF
      END
