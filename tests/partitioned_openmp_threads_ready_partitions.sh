#!/bin/bash
# partitioned_openmp_threads_ready_partitions: the threads of an `omp parallel for` (MPI_THREAD_MULTIPLE, 2 threads a rank) fill and MPI_Pready the partitions of a partitioned send to the right neighbour, 32 partitions received as 8; every epoch's values arrive, on 2, 4, 16 and 64 ranks.
# timeout: 300
# tsan: libgomp is not built with TSan: the futex barrier that starts an omp team, which orders the rank's MPI_Start before its workers' MPI_Pready, is invisible to it, so every Pready looks like a race with the Start
. "$SHOAL_TESTS/lib/common.bash"

build omp_part -fopenmp <<'SRC'
#include <omp.h>
#include <stdint.h>
#include "check.h"

#define SPARTS 32
#define PER 512
#define N (SPARTS * PER)

static int32_t val(int from, int e, int i) { return (int32_t)(from * 1000003 + e * 7919 + i); }

int main(int argc, char **argv)
{
	static int32_t sbuf[N], rbuf[N];
	int provided, rank, size, token = 0;
	MPI_Request sreq, rreq;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	CHECK_MPI(MPI_Psend_init(sbuf, SPARTS, PER, MPI_INT32_T, right, 4, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &sreq));
	CHECK_MPI(MPI_Precv_init(rbuf, 8, N / 8, MPI_INT32_T, left, 4, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &rreq));
	for (int e = 0; e < 8; e++) {
		CHECK_MPI(MPI_Start(&rreq));
		CHECK_MPI(MPI_Start(&sreq));
#pragma omp parallel for schedule(dynamic, 1)
		for (int p = 0; p < SPARTS; p++) {
			for (int i = p * PER; i < (p + 1) * PER; i++)
				sbuf[i] = val(rank, e, i);
			CHECK_MPI(MPI_Pready(p, sreq));
		}
		CHECK_MPI(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
		for (int i = 0; i < N; i++)
			if (rbuf[i] != val(left, e, i))
				CHECK_INT(rbuf[i], val(left, e, i));
		CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, left, 1, &token, 1, MPI_INT, right, 1,
				       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	}
	MPI_Request_free(&sreq);
	MPI_Request_free(&rreq);
	printf("rank %d ok\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

for n in 2 4 16 64; do
	OMP_NUM_THREADS=2 run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/omp_part"
	expect_rc 0
	expect_out_count '^rank [0-9]+ ok$' $n
done
exit 0
