/* comm_create_concurrent_threads_unique_contexts: threads of every rank create and free
 * communicators at once (dup, split, idup, create_group) on distinct parents; the contexts
 * never collide, checked by ring traffic with one tag whose payload names the thread. */
/* ranks: 2 4 8 */
/* timeout: 120 */
#include <pthread.h>
#include "check.h"

#define THREADS 4
#define ROUNDS 40

static MPI_Comm parents[THREADS];
static int rank, size;

static void ring(MPI_Comm c, int t, int round)
{
	int r, n, out[2] = { t, round }, in[2] = { -1, -1 };

	MPI_Comm_rank(c, &r);
	MPI_Comm_size(c, &n);
	CHECK_MPI(MPI_Sendrecv(out, 2, MPI_INT, (r + 1) % n, 0, in, 2, MPI_INT, (r + n - 1) % n, 0,
			       c, MPI_STATUS_IGNORE));
	CHECK_INT(in[0], t);
	CHECK_INT(in[1], round);
}

static void *work(void *arg)
{
	int t = (int)(intptr_t)arg;
	MPI_Comm p = parents[t], c;
	MPI_Group g;

	CHECK_MPI(MPI_Comm_group(p, &g));
	for (int i = 0; i < ROUNDS; i++) {
		switch (i % 4) {
		case 0:
			CHECK_MPI(MPI_Comm_dup(p, &c));
			break;
		case 1:
			CHECK_MPI(MPI_Comm_split(p, 0, -rank, &c));
			break;
		case 2: {
			MPI_Request q;
			CHECK_MPI(MPI_Comm_idup(p, &c, &q));
			CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
			break;
		}
		default:
			CHECK_MPI(MPI_Comm_create_group(p, g, t, &c));
			break;
		}
		ring(c, t, i);
		CHECK_MPI(MPI_Comm_free(&c));
	}
	MPI_Group_free(&g);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided;
	pthread_t th[THREADS];

	CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int t = 0; t < THREADS; t++)
		CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]));
	for (int t = 0; t < THREADS; t++)
		CHECK_INT(pthread_create(&th[t], NULL, work, (void *)(intptr_t)t), 0);
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	for (int t = 0; t < THREADS; t++)
		CHECK_MPI(MPI_Comm_free(&parents[t]));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
