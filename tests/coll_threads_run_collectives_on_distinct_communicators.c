/* coll_threads_run_collectives_on_distinct_communicators: threads of every rank run collectives on their own communicators at once */
/* ranks: 2 4 8 16 */
/* timeout: 120 */
/* Under MPI_THREAD_MULTIPLE, 4 threads per rank each run 300 mixed Barrier, Bcast, Allreduce,
 * Allgather, Alltoall and Iallreduce + Wait calls on their own duplicate of MPI_COMM_WORLD;
 * every value names its thread and round, so a meeting joined across communicators shows. */
#include <pthread.h>
#include <stdint.h>
#include "check.h"

#define THREADS 4
#define ROUNDS 300
#define MAXRANKS 64
#define LONG 2048   /* ints in the long Bcast and Allreduce rounds: 8 KiB */

static MPI_Comm comms[THREADS];
static int rank, size;

/* What rank `r` contributes in round `k` of thread `t`: distinct per thread and round, so
 * a collective that met the wrong communicator's partner shows in the values. */
static int val(int t, int k, int r)
{
	return t * 1000000 + k * 100 + r;
}

static void *work(void *arg)
{
	int t = (int)(intptr_t)arg;
	MPI_Comm c = comms[t];
	int sum_r = size * (size - 1) / 2;
	int *out = malloc(sizeof(int) * LONG), *in = malloc(sizeof(int) * LONG);

	CHECK(out != NULL && in != NULL);
	for (int k = 0; k < ROUNDS; k++) {
		int x = val(t, k, rank), y = -1, n = k / 6 % 2 ? LONG : 1;
		switch (k % 6) {
		case 0:
			CHECK_MPI(MPI_Barrier(c));
			break;
		case 1: {
			int root = k % size;
			for (int j = 0; j < n; j++)
				in[j] = rank == root ? val(t, k, root) + j : -1;
			CHECK_MPI(MPI_Bcast(in, n, MPI_INT, root, c));
			for (int j = 0; j < n; j++)
				CHECK_INT(in[j], val(t, k, root) + j);
			break;
		}
		case 2:
			for (int j = 0; j < n; j++)
				out[j] = x + j;
			CHECK_MPI(MPI_Allreduce(out, in, n, MPI_INT, MPI_SUM, c));
			for (int j = 0; j < n; j++)
				CHECK_INT(in[j], size * (t * 1000000 + k * 100 + j) + sum_r);
			break;
		case 3:
			CHECK_MPI(MPI_Allgather(&x, 1, MPI_INT, in, 1, MPI_INT, c));
			for (int j = 0; j < size; j++)
				CHECK_INT(in[j], val(t, k, j));
			break;
		case 4:
			/* out[j] goes to rank j; in[j] comes from rank j. */
			for (int j = 0; j < size; j++)
				out[j] = val(t, k, rank) * 64 + j;
			CHECK_MPI(MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, c));
			for (int j = 0; j < size; j++)
				CHECK_INT(in[j], val(t, k, j) * 64 + rank);
			break;
		case 5: {
			MPI_Request q;
			CHECK_MPI(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_MAX, c, &q));
			CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
			CHECK(q == MPI_REQUEST_NULL);
			CHECK_INT(y, val(t, k, size - 1));
			break;
		}
		}
	}
	free(out);
	free(in);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided = -1;
	pthread_t th[THREADS];

	CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_CMP(size, <=, MAXRANKS);
	/* Made in advance, in the same order on every rank: collectives creating them on
	 * MPI_COMM_WORLD from several threads at once would be erroneous. */
	for (int t = 0; t < THREADS; t++)
		CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]));
	for (int t = 0; t < THREADS; t++)
		CHECK_INT(pthread_create(&th[t], NULL, work, (void *)(intptr_t)t), 0);
	for (int t = 0; t < THREADS; t++)
		CHECK_INT(pthread_join(th[t], NULL), 0);
	for (int t = 0; t < THREADS; t++)
		CHECK_MPI(MPI_Comm_free(&comms[t]));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
