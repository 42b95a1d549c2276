! fortran_sendrecv_replace_split_dup: a fixed-form program with INCLUDE 'mpif.h':
! MPI_SENDRECV_REPLACE shifts an INTEGER array one rank to the right around the ring (the
! status names the left neighbour); MPI_COMM_SPLIT by rank parity with reversed keys gives
! each half its size and the reversed order; a MPI_COMM_DUP of a half is MPI_CONGRUENT to it
! and its MPI_ALLREDUCE and MPI_BCAST give the half's values, messages on the dup do not
! match receives on the half; MPI_COMM_FREE sets MPI_COMM_NULL. Entered by each rank's
! main thread.
! ranks: 1 4 64
      PROGRAM SRSPLT
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 5)
      INTEGER RANK, NRANKS, LEFT, RIGHT, IERR, K, I
      INTEGER BUF(N), STATUS(MPI_STATUS_SIZE)
      INTEGER HALF, DUP, HRANK, HSIZE, WANT, S, RES, TOP, X, Y
      LOGICAL FLAG
      COMMON /SRST/ RANK

      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NRANKS, IERR)
      RIGHT = MOD(RANK + 1, NRANKS)
      LEFT = MOD(RANK + NRANKS - 1, NRANKS)

! Shift around the ring in place.
      DO 10 K = 1, N
         BUF(K) = RANK * 100 + K
   10 CONTINUE
      CALL MPI_SENDRECV_REPLACE(BUF, N, MPI_INTEGER, RIGHT, 7, LEFT,
     &     7, MPI_COMM_WORLD, STATUS, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_SENDRECV_REPLACE failed')
      CALL CHECK(STATUS(MPI_SOURCE) .EQ. LEFT .AND.
     &     STATUS(MPI_TAG) .EQ. 7, 'SENDRECV_REPLACE status')
      DO 20 K = 1, N
         CALL CHECK(BUF(K) .EQ. LEFT * 100 + K,
     &        'SENDRECV_REPLACE values are not the left neighbour''s')
   20 CONTINUE

! Halves by parity, ordered by descending world rank.
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, MOD(RANK, 2), -RANK, HALF,
     &     IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_COMM_SPLIT failed')
      CALL MPI_COMM_RANK(HALF, HRANK, IERR)
      CALL MPI_COMM_SIZE(HALF, HSIZE, IERR)
      CALL CHECK(HSIZE .EQ. (NRANKS - MOD(RANK, 2) + 1) / 2,
     &     'size of the half')
      TOP = NRANKS - 1
      IF (MOD(TOP, 2) .NE. MOD(RANK, 2)) TOP = TOP - 1
      CALL CHECK(HRANK .EQ. (TOP - RANK) / 2, 'rank in the half')
      WANT = 0
      DO 30 I = MOD(RANK, 2), NRANKS - 1, 2
         WANT = WANT + I
   30 CONTINUE

      CALL MPI_COMM_DUP(HALF, DUP, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_COMM_DUP failed')
      CALL MPI_COMM_COMPARE(HALF, DUP, RES, IERR)
      CALL CHECK(RES .EQ. MPI_CONGRUENT, 'dup is not MPI_CONGRUENT')
      S = -1
      CALL MPI_ALLREDUCE(RANK, S, 1, MPI_INTEGER, MPI_SUM, DUP, IERR)
      CALL CHECK(S .EQ. WANT, 'MPI_ALLREDUCE on the dup')
      X = -1
      IF (HRANK .EQ. 0) X = RANK
      CALL MPI_BCAST(X, 1, MPI_INTEGER, 0, DUP, IERR)
      CALL CHECK(X .EQ. TOP, 'MPI_BCAST on the dup from half-rank 0')

! A message sent on the dup is not seen by a probe on the half.
      K = MOD(HRANK + 1, HSIZE)
      I = MOD(HRANK + HSIZE - 1, HSIZE)
      CALL MPI_SEND(RANK, 1, MPI_INTEGER, K, 3, DUP, IERR)
      CALL MPI_PROBE(I, 3, DUP, STATUS, IERR)
      CALL MPI_IPROBE(I, 3, HALF, FLAG, STATUS, IERR)
      CALL CHECK(.NOT. FLAG, 'a message on the dup matched the half')
      CALL MPI_RECV(Y, 1, MPI_INTEGER, I, 3, DUP, STATUS, IERR)
      CALL CHECK(STATUS(MPI_SOURCE) .EQ. I, 'dup: status source')
      CALL CHECK(Y .EQ. TOP - 2 * I, 'dup: value from the left')

      CALL MPI_COMM_FREE(DUP, IERR)
      CALL CHECK(DUP .EQ. MPI_COMM_NULL, 'MPI_COMM_FREE of the dup')
      CALL MPI_COMM_FREE(HALF, IERR)
      CALL CHECK(HALF .EQ. MPI_COMM_NULL, 'MPI_COMM_FREE of the half')
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) PRINT '(A,I0,A)', 'split/dup: ', NRANKS,
     &     ' ranks ok'
      CALL MPI_FINALIZE(IERR)
      END

! CHECK OK WHAT: end the job naming the rank and WHAT unless OK.
      SUBROUTINE CHECK(OK, WHAT)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      LOGICAL OK
      CHARACTER*(*) WHAT
      INTEGER RANK, E
      COMMON /SRST/ RANK
      IF (.NOT. OK) THEN
         PRINT '(A,I0,A,A)', 'FAIL rank ', RANK, ': ', WHAT
         CALL MPI_ABORT(MPI_COMM_WORLD, 1, E)
      END IF
      END
