/* Threads that a rank creates belong to that rank: pthread_create is interposed so the new
 * thread inherits the creator's rank binding (shl_self), which MPI_THREAD_MULTIPLE needs,
 * and the rank's thread name "rank N", which debuggers go by (docs/debugging.md); it runs on
 * every CPU of the node unless mpiexec --bind-to asked for its rank's core
 * (shl_job_free_threads). Each
 * rank counts its threads that have not ended (shl_job_rank_threads): the loader keeps the
 * rank's copy of the program mapped while any may still run its code.
 * Entered by any thread that calls pthread_create, and by those threads as they end;
 * must not call into MPI.
 *
 * Under a sanitizer (make SAN=asan|tsan) the runtime's pthread_create interceptor comes
 * first: the node's executable links it ahead of libmpi, so every pthread_create of the node
 * process (libmpi's own, a rank program's, the sanitizer's) reaches the interceptor, which
 * hands on to the next definition after it, this one, which hands on to libc's. A new thread
 * thus runs `trampoline` before the sanitizer has set it up (the interceptor's start
 * function is the `fn` passed here): ThreadSanitizer has no state for the thread yet, so
 * trampoline is not instrumented and calls nothing it intercepts. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/core/rt.h"
#include "runtime/job.h"

/* What a new thread of a rank starts from, then (from its trampoline on) its ending
 * record: the count of its rank drops when the thread ends. */
struct start {
	void *(*fn)(void *);
	void *arg;
	struct shl_rank *rank;
	int rounds;  /* destructor rounds passed (thread_ending) */
};

/* Rounds of thread-specific destructors a counted thread lets pass before it counts as
 * ended: destructors of other keys (the program's among them) run in the earlier rounds.
 * Two re-arms keep within the 4 rounds POSIX guarantees (PTHREAD_DESTRUCTOR_ITERATIONS). */
#define SHL_THREAD_END_ROUNDS 3

/* Process-wide, created once: its value in a counted thread is the thread's rank; its
 * destructor is the last thing such a thread runs before it ends. */
static pthread_key_t ending_key;
static pthread_once_t ending_once = PTHREAD_ONCE_INIT;
static int ending_err;  /* pthread_key_create's error, written once under ending_once */

static void thread_ending(void *p)
{
	struct start *e = p;

	if (++e->rounds < SHL_THREAD_END_ROUNDS && pthread_setspecific(ending_key, e) == 0)
		return;
	atomic_fetch_sub_explicit(&e->rank->threads, 1, memory_order_release);
	free(e);
}

static void make_ending_key(void)
{
	ending_err = pthread_key_create(&ending_key, thread_ending);
}

/* Not instrumented by ThreadSanitizer (see the head of this file): GCC leaves out the whole
 * pass with no_sanitize, clang keeps function entries unless told with
 * disable_sanitizer_instrumentation. */
#if defined(__clang__) && defined(__has_attribute)
#if __has_attribute(disable_sanitizer_instrumentation)
#define SHL_THREAD_START_UNCHECKED __attribute__((disable_sanitizer_instrumentation))
#endif
#endif
#ifndef SHL_THREAD_START_UNCHECKED
#define SHL_THREAD_START_UNCHECKED __attribute__((no_sanitize("thread")))
#endif

/* "rank N" into name (16 bytes, the kernel's limit): snprintf is intercepted by TSan. */
SHL_THREAD_START_UNCHECKED static void rank_thread_name(char *name, int rank)
{
	char digits[12];
	int n = 0, i = 0;
	unsigned v = (unsigned)rank;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0 && n < (int)sizeof(digits));
	for (const char *p = "rank "; *p; p++)
		name[i++] = *p;
	while (n > 0 && i < 15)
		name[i++] = digits[--n];
	name[i] = '\0';
}

SHL_THREAD_START_UNCHECKED static void *trampoline(void *p)
{
	struct start s = *(struct start *)p;
	char name[16];

	/* The start block becomes the thread's ending record: the count drops when the thread
	 * ends, by return, pthread_exit or cancellation. */
	pthread_setspecific(ending_key, p);
	shl_self = s.rank;
	/* A rank's own thread bound to a core by default (loader/node_bind.c): its threads
	 * (an OpenMP team) spread over the node's CPUs. */
	if (shl_job.free_threads)
		sched_setaffinity(0, sizeof(shl_job.cpus), &shl_job.cpus);
	/* The kernel names a new thread after its creator: a carrier's name, "carrier N", if
	 * the rank ran on one (core/fiber.h). */
	rank_thread_name(name, s.rank->world_rank);
	/* The calling thread's own name (pthread_setname_np is intercepted by TSan). */
	syscall(SYS_prctl, PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
	return s.fn(s.arg);
}

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

SHL_API int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			   void *(*fn)(void *), void *arg)
{
	static _Atomic(create_fn *) real;  /* process-wide: libc's pthread_create, found once */
	create_fn *next = atomic_load_explicit(&real, memory_order_acquire);
	struct start *s;
	int rc;

	if (next == NULL) {
		next = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
		atomic_store_explicit(&real, next, memory_order_release);
	}
	if (shl_self == NULL)
		return next(thread, attr, fn, arg);
	pthread_once(&ending_once, make_ending_key);
	if (ending_err != 0)
		return ending_err;
	s = malloc(sizeof(*s));
	if (s == NULL)
		return EAGAIN;
	*s = (struct start){ fn, arg, shl_self, 0 };
	/* Counted before it exists: the rank's end must not miss a thread starting. */
	atomic_fetch_add_explicit(&shl_self->threads, 1, memory_order_relaxed);
	rc = next(thread, attr, trampoline, s);
	if (rc != 0) {
		atomic_fetch_sub_explicit(&s->rank->threads, 1, memory_order_relaxed);
		free(s);
	}
	return rc;
}

void shl_job_free_threads(const cpu_set_t *cpus)
{
	shl_job.cpus = *cpus;
	shl_job.free_threads = true;
}

int shl_job_rank_threads(int rank)
{
	return atomic_load_explicit(&shl_job.ranks[rank]->threads, memory_order_acquire);
}
