/* fibers_keep_each_rank_own_thread_state: when ranks outnumber cores, waiting ranks are
 * switched in user space and run on whichever carrier thread is free; each rank must still
 * see its own thread: its thread-locals and globals, errno's address, pthread_self, its
 * pthread_getspecific value and its floating-point rounding mode, after thousands of
 * blocking calls. Also checks that the switching is on where it should be (carrier threads
 * exist when ranks outnumber the cores and the CPU lets user space set %fs). */
/* ranks: 3 8 64 */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <fenv.h>
#include <pthread.h>
#include <sched.h>
#include <sys/auxv.h>
#include "check.h"

#define ROUNDS 2000

static __thread int tls_mark = -1;
static int global_mark = -1;

static int carrier_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	CHECK(d != NULL);
	while ((e = readdir(d)) != NULL) {
		char path[300], name[64] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;  /* the thread ended meanwhile */
		if (fgets(name, sizeof(name), f) && strncmp(name, "carrier ", 8) == 0)
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	int rank, size, cores, mode, sum;
	pthread_key_t key;
	pthread_t self = pthread_self();
	int *errno_at = &errno;
	cpu_set_t set;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	tls_mark = rank;
	global_mark = 1000 + rank;
	CHECK_INT(pthread_key_create(&key, NULL), 0);
	CHECK_INT(pthread_setspecific(key, &tls_mark), 0);
	mode = rank % 2 ? FE_DOWNWARD : FE_UPWARD;
	CHECK_INT(fesetround(mode), 0);

	for (int i = 0; i < ROUNDS; i++) {
		int next = (rank + 1) % size, prev = (rank + size - 1) % size, got = -1;
		volatile double one = 1.0, q;

		CHECK_MPI(MPI_Sendrecv(&i, 1, MPI_INT, next, 0, &got, 1, MPI_INT, prev, 0,
				       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(got, i);
		if (i % 100 == 0) {
			CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
			CHECK_INT(sum, size * (size - 1) / 2);
		}
		CHECK_INT(tls_mark, rank);
		CHECK_INT(global_mark, 1000 + rank);
		CHECK(&errno == errno_at);
		CHECK(pthread_equal(pthread_self(), self));
		CHECK(pthread_getspecific(key) == &tls_mark);
		CHECK_INT(fegetround(), mode);  /* the x87 control word */
		/* The SSE unit's mode (MXCSR): upward 1/3 ends in ...556, and downward -1/3
		 * too (to nearest both end in ...555). */
		q = (mode == FE_UPWARD ? one : -one) / 3.0;
		CHECK(q == (mode == FE_UPWARD ? 0x1.5555555555556p-2 : -0x1.5555555555556p-2));
	}

	CHECK_INT(sched_getaffinity(0, sizeof(set), &set), 0);
	cores = CPU_COUNT(&set);
	if (size > cores && (getauxval(AT_HWCAP2) & 2) && getenv("SHOAL_FIBERS") == NULL)
		CHECK_INT(carrier_threads() > 0, 1);
	fesetround(FE_TONEAREST);
	CHECK_MPI(MPI_Finalize());
	/* Back on its own thread after MPI_Finalize. */
	CHECK(pthread_equal(pthread_self(), self));
	CHECK_INT(tls_mark, rank);
	return 0;
}
