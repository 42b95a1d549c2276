/* The process's end (io/exit.h): the flush and report hooks, the one fatal message,
 * exit_group.
 * Entered by any thread, and by a crash handler (shl_exit_in_handler).
 * Must not call exit() or _exit(): libmpi interposes them to end only the calling rank. */
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "io/exit.h"

/* Process-wide. */
static struct {
	_Atomic(shl_exit_flush_fn) flush; /* release store by shl_exit_set_flush, acquire
					   * loads by the exits */
	_Atomic(shl_exit_flush_fn) report; /* the same, shl_exit_set_report */
	_Atomic pid_t fatal;              /* the thread printing the fatal message, or 0;
					   * compare-and-swap by shl_exit_vfatal */
} ex;

_Noreturn void shl_exit_group(int code)
{
	for (;;)
		syscall(SYS_exit_group, code & 0xff);
}

/* Block for good: another thread is ending the process. */
_Noreturn static void wait_for_end(void)
{
	for (;;)
		pause();
}

static void flush_hook(bool wait)
{
	shl_exit_flush_fn fn = atomic_load_explicit(&ex.flush, memory_order_acquire);

	if (fn != NULL)
		fn(wait);
	fn = atomic_load_explicit(&ex.report, memory_order_acquire);
	if (fn != NULL)
		fn(wait);
}

void shl_exit_set_flush(shl_exit_flush_fn fn)
{
	atomic_store_explicit(&ex.flush, fn, memory_order_release);
}

void shl_exit_set_report(shl_exit_flush_fn fn)
{
	atomic_store_explicit(&ex.report, fn, memory_order_release);
}

_Noreturn void shl_exit_now(int code)
{
	pid_t owner = atomic_load_explicit(&ex.fatal, memory_order_relaxed);

	if (owner != 0 && owner != gettid())
		wait_for_end();
	/* glibc's buffers first: the ranks' stdout and stderr pass through them into the
	 * hook's lines. */
	fflush(NULL);
	flush_hook(true);
	shl_exit_group(code);
}

_Noreturn void shl_exit_vfatal(int code, const char *fmt, va_list ap)
{
	pid_t none = 0, me = gettid();

	if (code < 1 || code > 255)
		code = 1;
	if (!atomic_compare_exchange_strong_explicit(&ex.fatal, &none, me, memory_order_relaxed,
						     memory_order_relaxed)) {
		if (none != me)
			wait_for_end();
		shl_exit_group(code);  /* a fatal end inside our own message: no second message */
	}
	fflush(NULL);
	fputs("shoal: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	shl_exit_now(code);
}

_Noreturn void shl_exit_fatal(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	shl_exit_vfatal(code, fmt, ap);
}

_Noreturn void shl_exit_in_handler(int code)
{
	flush_hook(false);
	shl_exit_group(code);
}
