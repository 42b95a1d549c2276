/* Partitioned communication under MPI_THREAD_MULTIPLE: 4 threads of each rank fill and ready their own quarter of 64 send partitions at once while 2 threads of the receiving rank watch their halves of 16 receive partitions with MPI_Parrived, and the receive is started while the sender's threads ready; 10 epochs, values checked. */
/* ranks: 1 2 4 16 64 */
/* timeout: 180 */
/* tsan: a finding not judged yet (stop note of issue 37): at 64 ranks TSan reports a rank's MPI_Start copying a partition into its receive buffer as racing with an earlier copy by a sender thread of its left neighbour (stack lost) */
#include <pthread.h>
#include <stdint.h>
#include "check.h"

#define SPARTS 64
#define RPARTS 16
#define PER 256                        /* ints per send partition */
#define N (SPARTS * PER)
#define SENDERS 4
#define WATCHERS 2

static int rank, size, left, right, epoch;
static int32_t sbuf[N], rbuf[N];
static MPI_Request sreq, rreq;

static int32_t val(int from, int e, int i)
{
	return (int32_t)(from * 1000003 + e * 7919 + i);
}

static void *sender(void *arg)
{
	int t = (int)(intptr_t)arg;
	for (int p = t; p < SPARTS; p += SENDERS) {
		for (int i = p * PER; i < (p + 1) * PER; i++)
			sbuf[i] = val(rank, epoch, i);
		CHECK_MPI(MPI_Pready(p, sreq));
	}
	return NULL;
}

static void *watcher(void *arg)
{
	int t = (int)(intptr_t)arg, per = N / RPARTS;
	double t0 = MPI_Wtime();
	for (int j = t; j < RPARTS; j += WATCHERS) {
		int flag = 0;
		while (!flag) {
			CHECK_MPI(MPI_Parrived(rreq, j, &flag));
			CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
		}
		for (int i = j * per; i < (j + 1) * per; i++)
			if (rbuf[i] != val(left, epoch, i))
				CHECK_INT(rbuf[i], val(left, epoch, i));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int provided, token = 0;
	pthread_t th[SENDERS + WATCHERS];

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	CHECK_MPI(MPI_Psend_init(sbuf, SPARTS, PER, MPI_INT32_T, right, 0, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &sreq));
	CHECK_MPI(MPI_Precv_init(rbuf, RPARTS, N / RPARTS, MPI_INT32_T, left, 0, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &rreq));
	for (epoch = 0; epoch < 10; epoch++) {
		for (int i = 0; i < N; i++)
			rbuf[i] = -1;
		CHECK_MPI(MPI_Start(&sreq));
		for (int t = 0; t < SENDERS; t++)
			CHECK_INT(pthread_create(&th[t], NULL, sender, (void *)(intptr_t)t), 0);
		/* Started while the threads ready: the sender's copies race our MPI_Start's. */
		CHECK_MPI(MPI_Start(&rreq));
		for (int t = 0; t < WATCHERS; t++)
			CHECK_INT(pthread_create(&th[SENDERS + t], NULL, watcher, (void *)(intptr_t)t), 0);
		for (int t = 0; t < SENDERS + WATCHERS; t++)
			CHECK_INT(pthread_join(th[t], NULL), 0);
		CHECK_MPI(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
		/* Our left neighbour rewrites its buffer only after we have read ours. */
		CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, left, 1, &token, 1, MPI_INT, right, 1,
				       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_Request_free(&sreq));
	CHECK_MPI(MPI_Request_free(&rreq));
	MPI_Finalize();
	return 0;
}
