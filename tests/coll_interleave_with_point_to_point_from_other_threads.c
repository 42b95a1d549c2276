/* coll_interleave_with_point_to_point_from_other_threads: collectives and point-to-point share one communicator from different threads */
/* ranks: 2 3 4 8 16 */
/* timeout: 120 */
/* Under MPI_THREAD_MULTIPLE, on one duplicate of MPI_COMM_WORLD: a collective thread
 * interleaves blocking (Barrier, Allreduce, Allgather) and nonblocking (Ibcast, Iallreduce,
 * Ibarrier) collectives; a waiter thread completes the Iallreduce requests it is handed;
 * two point-to-point threads meanwhile run ring exchanges (small, and 64 KiB every few
 * rounds) on their own tags. Every value names its round. */
#include <pthread.h>
#include <stdint.h>
#include "check.h"

#define ROUNDS 200
#define BIG 16384   /* ints of the large ring messages: 64 KiB, above the eager sizes */

static MPI_Comm comm;
static int rank, size;

/* Iallreduce requests passed from the collective thread to the waiter, in order. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int posted;
	MPI_Request req[ROUNDS];
	int in[ROUNDS], out[ROUNDS];
} hand = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, { 0 }, { 0 }, { 0 } };

static void *collectives(void *arg)
{
	int sum_r = size * (size - 1) / 2, all[64];

	(void)arg;
	for (int k = 0; k < ROUNDS; k++) {
		int b = rank == k % size ? k : -1, s = -1, x = rank + k;
		MPI_Request q[2];
		CHECK_MPI(MPI_Ibcast(&b, 1, MPI_INT, k % size, comm, &q[0]));
		CHECK_MPI(MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, comm));
		CHECK_INT(s, size * k + sum_r);
		/* Started here, completed by the waiter thread. */
		pthread_mutex_lock(&hand.lock);
		hand.in[k] = rank * k;
		pthread_mutex_unlock(&hand.lock);
		MPI_Request r;
		CHECK_MPI(MPI_Iallreduce(&hand.in[k], &hand.out[k], 1, MPI_INT, MPI_SUM, comm, &r));
		pthread_mutex_lock(&hand.lock);
		hand.req[k] = r;
		hand.posted = k + 1;
		pthread_cond_signal(&hand.cond);
		pthread_mutex_unlock(&hand.lock);
		CHECK_MPI(MPI_Ibarrier(comm, &q[1]));
		if (k % 2)
			CHECK_MPI(MPI_Barrier(comm));
		else
			CHECK_MPI(MPI_Allgather(&x, 1, MPI_INT, all, 1, MPI_INT, comm));
		if (k % 2 == 0)
			for (int j = 0; j < size; j++)
				CHECK_INT(all[j], j + k);
		CHECK_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
		CHECK_INT(b, k);
	}
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	for (int k = 0; k < ROUNDS; k++) {
		MPI_Request r;
		pthread_mutex_lock(&hand.lock);
		while (hand.posted <= k)
			pthread_cond_wait(&hand.cond, &hand.lock);
		r = hand.req[k];
		pthread_mutex_unlock(&hand.lock);
		CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
		CHECK_INT(hand.out[k], k * (size * (size - 1) / 2));
	}
	return NULL;
}

/* Point-to-point thread `tag`: each round sends to the next rank and receives from the
 * previous one, on `tag` only, so its messages never meet the other thread's. */
static void *ring(void *arg)
{
	int tag = (int)(intptr_t)arg, next = (rank + 1) % size, prev = (rank + size - 1) % size;
	int *big = malloc(sizeof(int) * BIG), *got = malloc(sizeof(int) * BIG);

	CHECK(big != NULL && got != NULL);
	for (int k = 0; k < ROUNDS; k++) {
		int n = k % 10 == 3 ? BIG : 3;
		MPI_Request q[2];
		big[0] = tag;
		big[1] = k;
		big[n - 1] = rank * 7 + k;
		got[0] = got[1] = got[n - 1] = -1;
		CHECK_MPI(MPI_Irecv(got, n, MPI_INT, prev, tag, comm, &q[0]));
		CHECK_MPI(MPI_Isend(big, n, MPI_INT, next, tag, comm, &q[1]));
		CHECK_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
		CHECK_INT(got[0], tag);
		CHECK_INT(got[1], k);
		CHECK_INT(got[n - 1], prev * 7 + k);
	}
	free(big);
	free(got);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided = -1;
	pthread_t th[4];

	CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_CMP(size, <=, 64);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	CHECK_INT(pthread_create(&th[0], NULL, collectives, NULL), 0);
	CHECK_INT(pthread_create(&th[1], NULL, waiter, NULL), 0);
	CHECK_INT(pthread_create(&th[2], NULL, ring, (void *)(intptr_t)1), 0);
	CHECK_INT(pthread_create(&th[3], NULL, ring, (void *)(intptr_t)2), 0);
	for (int t = 0; t < 4; t++)
		CHECK_INT(pthread_join(th[t], NULL), 0);
	CHECK_MPI(MPI_Comm_free(&comm));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
