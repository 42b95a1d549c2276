/* The exit family, interposed ahead of libc: in a rank thread exit/_exit/_Exit/quick_exit end
 * only that rank, with its code; elsewhere (a program run directly, shoal-node) they are libc's.
 * Entered by any thread. Must not longjmp out of dlopen/dlclose (the loader lock is held). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "io/exit.h"
#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "runtime/job.h"

/* Before any program constructor (libmpi.so is a dependency of every program and of
 * shoal-node): find libc's own definitions behind ours. */
__attribute__((constructor)) static void find_real(void)
{
	Dl_info self;

	if (dladdr((void *)find_real, &self))
		shl_loader.libmpi_base = self.dli_fbase;
	shl_loader.real_exit = (shl_exit_fn)dlsym(RTLD_NEXT, "exit");
	shl_loader.real__exit = (shl_exit_fn)dlsym(RTLD_NEXT, "_exit");
	shl_loader.real_quick_exit = (shl_exit_fn)dlsym(RTLD_NEXT, "quick_exit");
	shl_loader.real_cxa_at_quick_exit =
		(int (*)(void (*)(void), void *))dlsym(RTLD_NEXT, "__cxa_at_quick_exit");
	if (!shl_loader.real__exit)
		shl_loader.real__exit = shl_exit_group;
	if (!shl_loader.real_exit)
		shl_loader.real_exit = shl_exit_group;
	if (!shl_loader.real_quick_exit)
		shl_loader.real_quick_exit = shl_loader.real__exit;
}

/* End the calling rank: jump back to where its thread started main (or to the atexit loop),
 * which then runs what `how` asks for and records `code`. */
_Noreturn static void end_rank(struct shl_copy *c, int code, enum shl_ending how)
{
	switch (c->stage) {
	case SHL_STAGE_RUNNING:
		c->code = code;
		c->ending = how;
		longjmp(c->start, 1);
	case SHL_STAGE_FINISHING:
		/* exit() from an atexit handler: glibc goes on with the remaining handlers and
		 * the new status; _exit() there stops them. */
		c->code = code;
		c->ending = how;
		longjmp(c->finish, 1);
	default:
		break;
	}
	fflush(NULL);
	shl_job_abort(code ? code : 1, "rank %d called exit(%d) from a constructor or destructor "
		      "of its program while it was being loaded or unloaded", c->rank, code);
}

/* Library code never ends only a rank: it ends the whole process through io/exit.h, and
 * calls _exit only in a child it forked. So an exit-family call made from inside libmpi.so
 * means the whole process and is libc's. */
static bool from_libmpi(const void *caller)
{
	Dl_info info;

	return dladdr(caller, &info) && info.dli_fbase == shl_loader.libmpi_base;
}

/* The calling thread's rank when an exit-family call must end only that rank, else NULL. */
static struct shl_copy *rank_of(const void *caller)
{
	struct shl_copy *c = shl_loader_self;

	return c && !from_libmpi(caller) ? c : NULL;
}

SHL_LOADER_EXPORT _Noreturn void exit(int code)
{
	struct shl_copy *c = rank_of(__builtin_return_address(0));

	if (!c)
		shl_loader.real_exit(code);
	end_rank(c, code, SHL_END_RETURN);
}

static _Noreturn void leave_now(int code, const void *caller)
{
	struct shl_copy *c = rank_of(caller);

	if (!c)
		shl_loader.real__exit(code);
	end_rank(c, code, SHL_END_IMMEDIATE);
}

SHL_LOADER_EXPORT _Noreturn void _exit(int code)
{
	leave_now(code, __builtin_return_address(0));
}

SHL_LOADER_EXPORT _Noreturn void _Exit(int code)
{
	leave_now(code, __builtin_return_address(0));
}

SHL_LOADER_EXPORT _Noreturn void quick_exit(int code)
{
	struct shl_copy *c = rank_of(__builtin_return_address(0));
	struct shl_libc *l;

	if (!c)
		shl_loader.real_quick_exit(code);
	/* C11 7.22.4.7: handlers run in the reverse order of registration; one may register
	 * more, so re-read the count each time. */
	l = &c->libc;
	while (l->nquick > 0) {
		void (*fn)(void) = l->quick[--l->nquick].fn;

		fn();
	}
	end_rank(c, code, SHL_END_QUICK);
}

/* at_quick_exit (in libc_nonshared.a, so linked into the copy) lands here: keep the handler
 * with the calling rank instead of in libc's process-wide list. */
SHL_LOADER_EXPORT int __cxa_at_quick_exit(void (*fn)(void), void *dso)
{
	struct shl_copy *c = shl_loader_self;
	struct shl_libc *l;

	if (!c)
		return shl_loader.real_cxa_at_quick_exit ?
			shl_loader.real_cxa_at_quick_exit(fn, dso) : -1;
	l = &c->libc;
	if (l->nquick == l->capquick) {
		int cap = l->capquick ? 2 * l->capquick : 32; /* C requires at least 32 */
		struct shl_quick_handler *q = realloc(l->quick, (size_t)cap * sizeof(*q));

		if (!q)
			return -1;
		l->quick = q;
		l->capquick = cap;
	}
	l->quick[l->nquick++].fn = fn;
	return 0;
}
