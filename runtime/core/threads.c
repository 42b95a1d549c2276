/* Threads that a rank creates belong to that rank: pthread_create is interposed so the new
 * thread inherits the creator's rank binding (shl_self), which MPI_THREAD_MULTIPLE needs,
 * and the rank's thread name "rank N", which debuggers go by (docs/debugging.md).
 * Entered by any thread that calls pthread_create; must not call into MPI. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/core/rt.h"

struct start {
	void *(*fn)(void *);
	void *arg;
	struct shl_rank *rank;
};

static void *trampoline(void *p)
{
	struct start s = *(struct start *)p;
	char name[16];

	free(p);
	shl_self = s.rank;
	/* The kernel names a new thread after its creator: a carrier's name, "carrier N", if
	 * the rank ran on one (core/fiber.h). */
	snprintf(name, sizeof(name), "rank %d", s.rank->world_rank);
	pthread_setname_np(pthread_self(), name);
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
	s = malloc(sizeof(*s));
	if (s == NULL)
		return EAGAIN;
	*s = (struct start){ fn, arg, shl_self };
	rc = next(thread, attr, trampoline, s);
	if (rc != 0)
		free(s);
	return rc;
}
