/* canary_rank_race_is_reported: a thread of the rank fills a buffer while the rank's main
 * thread sends from it, with no synchronisation: a data race on purpose between the
 * program's memset (which ThreadSanitizer intercepts) and the library's copy. make test-san
 * runs this under the ThreadSanitizer build (build-tsan) and fails unless TSan reports a data
 * race: the proof that the tool is live in the node process, in the library and in the
 * threads a rank creates (runtime/core/threads.c). Must never be fixed. */
/* ranks: 1 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <mpi.h>

#define BYTES 4096
#define ROUNDS 2000

static char buf[BYTES], in[BYTES];
static volatile size_t fill_bytes = BYTES;  /* keeps memset a call TSan intercepts */
static atomic_int stop;

static void *fill(void *arg)
{
	for (int i = 0; i < ROUNDS && !atomic_load_explicit(&stop, memory_order_relaxed); i++)
		memset(buf, i, fill_bytes);
	return arg;
}

int main(int argc, char **argv)
{
	int provided;
	pthread_t t;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	pthread_create(&t, NULL, fill, NULL);
	for (int i = 0; i < ROUNDS; i++)
		MPI_Sendrecv(buf, BYTES, MPI_BYTE, 0, 0, in, BYTES, MPI_BYTE, 0, 0, MPI_COMM_SELF,
			     MPI_STATUS_IGNORE);
	atomic_store_explicit(&stop, 1, memory_order_relaxed);
	pthread_join(t, NULL);
	printf("sent from a buffer another thread filled: ThreadSanitizer is not live\n");
	MPI_Finalize();
	return 0;
}
