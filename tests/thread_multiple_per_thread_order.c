/* thread_multiple_per_thread_order: under MPI_THREAD_MULTIPLE, 4 threads per rank send and
 * receive concurrently on their own tags; every message arrives, in order per thread pair. */
/* ranks: 2 4 16 */
#include <pthread.h>
#include "check.h"

#define THREADS 4
#define MSGS 500

static int rank, size, partner;

static void *worker(void *arg)
{
	int t = (int)(intptr_t)arg;
	int *big = calloc(20000, sizeof(int));
	/* Each thread both sends and receives on tag t: nonblocking sends, blocking receives. */
	MPI_Request reqs[MSGS];
	int out[MSGS];
	for (int k = 0; k < MSGS; k++) {
		out[k] = t * 100000 + k;
		CHECK_MPI(MPI_Isend(&out[k], 1, MPI_INT, partner, t, MPI_COMM_WORLD, &reqs[k]));
	}
	for (int k = 0; k < MSGS; k++) {
		int v = -1;
		MPI_Status st;
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, partner, t, MPI_COMM_WORLD, &st));
		CHECK_INT(v, t * 100000 + k);
		CHECK_INT(st.MPI_TAG, t);
	}
	CHECK_MPI(MPI_Waitall(MSGS, reqs, MPI_STATUSES_IGNORE));
	/* Then a few large messages, blocking both ways (lower rank sends first). */
	for (int k = 0; k < 10; k++) {
		if (rank < partner) {
			for (int j = 0; j < 20000; j += 997)
				big[j] = t + k;
			CHECK_MPI(MPI_Send(big, 20000, MPI_INT, partner, 100 + t, MPI_COMM_WORLD));
		} else {
			CHECK_MPI(MPI_Recv(big, 20000, MPI_INT, partner, 100 + t, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			for (int j = 0; j < 20000; j += 997)
				CHECK_INT(big[j], t + k);
		}
	}
	free(big);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided = -1;

	CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}
	pthread_t th[THREADS];
	for (int t = 0; t < THREADS; t++)
		CHECK_INT(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t), 0);
	for (int t = 0; t < THREADS; t++)
		CHECK_INT(pthread_join(th[t], NULL), 0);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
