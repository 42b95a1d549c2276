/* Signals in the node process: a crash in any rank is reported once (rank, signal, address,
 * or a stack overflow naming SHOAL_STACK_SIZE; symbolized backtrace) and ends the node; SIGINT/SIGTERM/SIGHUP flush stdio and end it.
 * Entered by the main thread (install), by any faulting thread (handler), and by the one
 * signal thread. Must not return from a crash handler or let two threads report. */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "io/exit.h"
#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "runtime/job.h"

/* Frames printed; deeper stacks are almost always runaway recursion. */
#define SHL_LOADER_BACKTRACE_MAX 64
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
/* " on host NAME" in a job of several hosts (SHOAL_HOST, set by the node's proxy), else
 * "": written by the main thread at install, before ranks start. */
static char on_host[80];

/* Signal handler context: format into `buf` and write it in one write(2). */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0 && write(STDERR_FILENO, buf, (size_t)n) < 0)
		return;
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : (path ? path : "?");
}

/* One frame: "#3 0x7f.. compute+0x1c (prog.rank2+0x1149)". The offset inside the object is
 * what `addr2line -f -e prog 0x1149` takes. A return address points after its call, so the
 * symbol is looked up at pc-1 except for the faulting frame. */
static void frame(int i, uintptr_t pc, bool exact)
{
	Dl_info info;
	uintptr_t look = exact ? pc : pc - 1, base;
	unsigned long start = 0;
	const char *sym;

	if (!dladdr((void *)look, &info) || !info.dli_fname) {
		say("  #%-2d 0x%016lx\n", i, (unsigned long)pc);
		return;
	}
	base = (uintptr_t)info.dli_fbase;
	sym = shl_loader_symbolize(info.dli_fname, look - base, &start);
	if (sym)
		start += base;
	else if (info.dli_sname) {
		sym = info.dli_sname;
		start = (uintptr_t)info.dli_saddr;
	}
	if (sym)
		say("  #%-2d 0x%016lx %s+0x%lx (%s+0x%lx)\n", i, (unsigned long)pc, sym,
		    (unsigned long)(pc - start), base_name(info.dli_fname),
		    (unsigned long)(pc - base));
	else
		say("  #%-2d 0x%016lx (%s+0x%lx)\n", i, (unsigned long)pc,
		    base_name(info.dli_fname), (unsigned long)(pc - base));
}

/* Source lines of the crashing rank's frames in one of its copies: addr2line (binutils)
 * reads the copy's debug information (a rank's copy is a link to the node's shared copy, the
 * whole file). The handler forks it and prints "#i function at file:line" for each
 * frame it can place; nothing is printed when the program has no debug information. */
static void source_lines(const char *copy, const int *index, const uintptr_t *off, int n)
{
	char hex[SHL_LOADER_BACKTRACE_MAX][24], out[8192];
	char *argv[6 + SHL_LOADER_BACKTRACE_MAX] = { "addr2line", "-f", "-C", "-e", (char *)copy };
	int fds[2], len = 0, status;
	pid_t pid;

	if (n == 0 || pipe(fds) < 0)
		return;
	for (int i = 0; i < n; i++) {
		snprintf(hex[i], sizeof(hex[i]), "0x%lx", (unsigned long)off[i]);
		argv[5 + i] = hex[i];
	}
	argv[5 + n] = NULL;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fds[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(fds[0]);
		execvp("addr2line", argv);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return;
	}
	for (ssize_t got; len < (int)sizeof(out) - 1 &&
			  (got = read(fds[0], out + len, sizeof(out) - 1 - (size_t)len)) != 0;)
		if (got > 0)
			len += (int)got;
		else if (errno != EINTR)
			break;
	close(fds[0]);
	waitpid(pid, &status, 0);
	out[len] = '\0';
	/* addr2line prints two lines per address: the function, then file:line. */
	char *line = out;
	for (int i = 0; i < n && line && *line; i++) {
		char *fn = line, *where = strchr(fn, '\n');
		if (!where)
			break;
		*where++ = '\0';
		line = strchr(where, '\n');
		if (line)
			*line++ = '\0';
		if (where[0] != '?')
			say("  #%-2d %s at %s\n", index[i], fn, where);
	}
}

/* The thread writing the crash report, and where a fault inside the report itself goes
 * (the unwinder reading memory that is gone): written by that thread alone. */
static _Atomic pid_t reporter;
static sigjmp_buf report_escape;
static volatile sig_atomic_t escape_armed;

/* Whether the page holding `addr` is mapped (mincore fails with ENOMEM where it is not). */
static bool mapped(uintptr_t addr)
{
	unsigned char v;
	long page = sysconf(_SC_PAGESIZE);

	return mincore((void *)(addr & ~(uintptr_t)(page - 1)), 1, &v) == 0 || errno != ENOMEM;
}

/* Whether `ra` looks like a return address: inside a loaded object, just after a call
 * (e8 rel32, or ff /2 through a register or memory operand of 2 to 7 bytes). */
static bool after_call(uintptr_t ra)
{
	Dl_info info;
	const unsigned char *p = (const unsigned char *)ra;

	if (ra < 8 || !dladdr((void *)(ra - 1), &info) || !mapped(ra - 8))
		return false;
	if (p[-5] == 0xe8)
		return true;
	for (int len = 2; len <= 7; len++)
		if (p[-len] == 0xff && ((p[-len + 1] >> 3) & 7) == 2)
			return true;
	return false;
}

/* The copy of the rank that the calling thread belongs to (its main thread or a thread it
 * created), for the source lines of its frames; NULL in the node's own threads. */
static struct shl_copy *copy_of_thread(void)
{
	int rank = shl_job_my_rank();

	if (shl_loader_self)
		return shl_loader_self;
	for (int k = 0; rank >= 0 && k < shl_loader.nranks; k++)
		if (shl_loader.copies[k].rank == rank)
			return &shl_loader.copies[k];
	return NULL;
}

/* Frames of the crashing rank's own copies (its program's and its private libraries'), for
 * source_lines. */
struct own_frames {
	int index[SHL_LOADER_BACKTRACE_MAX];
	uintptr_t off[SHL_LOADER_BACKTRACE_MAX];
	const char *file[SHL_LOADER_BACKTRACE_MAX];  /* the copy: the dynamic linker's name */
	int n;
};

/* Whether `file` is one of the copies of rank `c`: in its program copy's directory, named
 * `<object>.rank<R>` (loader/rank_load.c). */
static bool rank_copy(const struct shl_copy *c, const char *file)
{
	const char *slash = strrchr(c->path, '/'), *dot = strrchr(file, '.');
	size_t dir = slash ? (size_t)(slash - c->path) + 1 : 0;
	char *end;

	if (strncmp(file, c->path, dir) || strchr(file + dir, '/') || !dot ||
	    strncmp(dot, ".rank", 5))
		return false;
	return strtol(dot + 5, &end, 10) == c->rank && end != dot + 5 && !*end;
}

/* Print frame `i` at `pc` (`exact`: the faulting pc, not a return address) and note it if it
 * lies in one of the copies of `c`. */
static void own_frame(struct own_frames *own, struct shl_copy *c, int i, uintptr_t pc,
		      bool exact)
{
	uintptr_t at = pc - (exact ? 0 : 1);
	Dl_info info;

	frame(i, pc, exact);
	if (c && own->n < SHL_LOADER_BACKTRACE_MAX && dladdr((void *)at, &info) &&
	    info.dli_fname && rank_copy(c, info.dli_fname)) {
		own->index[own->n] = i;
		own->file[own->n] = info.dli_fname;
		own->off[own->n++] = at - (uintptr_t)info.dli_fbase;
	}
}

/* source_lines for each copy among the frames, in the order they first appear. */
static void copies_lines(struct own_frames *own)
{
	for (int i = 0; i < own->n; i++) {
		int index[SHL_LOADER_BACKTRACE_MAX], n = 0;
		uintptr_t off[SHL_LOADER_BACKTRACE_MAX];
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(own->file[j], own->file[i]);
		for (int j = i; j < own->n && !seen; j++)
			if (!strcmp(own->file[j], own->file[i])) {
				index[n] = own->index[j];
				off[n++] = own->off[j];
			}
		if (!seen)
			source_lines(own->file[i], index, off, n);
	}
}

/* Print the backtrace from the interrupted frame, frame 0 first (before anything is
 * unwound, so it shows even if unwinding faults). Code that is no longer mapped (a library
 * unloaded under a thread) cannot be unwound through: its pc is frame 0, and when the
 * stack's top holds a return address (the fault came on entering the gone code), the
 * context is moved to that caller, as a return would, and unwinding goes on from there. */
static void report_frames(struct shl_copy *c, ucontext_t *uc, struct own_frames *own)
{
	void *pcs[SHL_LOADER_BACKTRACE_MAX];
	uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	int n, first = -1, next = 1;  /* next: 1 once frame 0 is printed from the context */

	if (mapped(pc)) {
		own_frame(own, c, 0, pc, true);
	} else {
		uintptr_t ra = mapped(sp) ? *(const uintptr_t *)sp : 0;

		say("  #0  0x%016lx (not mapped: the code was unloaded)\n", (unsigned long)pc);
		if (!after_call(ra)) {
			say("  (no return address on the stack: cannot unwind past unmapped code)\n");
			return;
		}
		uc->uc_mcontext.gregs[REG_RIP] = (greg_t)ra;
		uc->uc_mcontext.gregs[REG_RSP] = (greg_t)(sp + sizeof(uintptr_t));
		pc = ra;
		next = 0;
	}
	n = backtrace(pcs, SHL_LOADER_BACKTRACE_MAX);
	/* Skip this handler and the signal trampoline: start at the interrupted pc. */
	for (int i = 0; i < n && first < 0; i++)
		if ((uintptr_t)pcs[i] == pc)
			first = i;
	if (first < 0) {
		/* Every frame unwound, this handler's first, rather than none. */
		say("  (the unwinder did not reach the interrupted frame; all frames unwound:)\n");
		for (int i = 0; i < n; i++)
			own_frame(own, c, i + 1, (uintptr_t)pcs[i], false);
		return;
	}
	/* Frame 1 on: after frame 0 where it is mapped, else from the caller taken as frame 1. */
	for (int i = first + next; i < n; i++)
		own_frame(own, c, i - first + 1 - next, (uintptr_t)pcs[i], false);
}

/* Whether fault `si` of the rank's own thread is its stack overflowing: the address, or
 * the stack pointer, at the bottom of the rank's stack or in the guard pages below it
 * (a frame larger than the guard can reach further: up to 1 MiB below is taken as one). */
static bool overflowed(const struct shl_copy *c, int sig, const siginfo_t *si,
		       const ucontext_t *uc)
{
	uintptr_t addr = (uintptr_t)si->si_addr, sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	uintptr_t floor, top;

	if (!shl_loader_self || c == NULL || c->stack_lo == 0 || si->si_code <= 0 ||
	    (sig != SIGSEGV && sig != SIGBUS))
		return false;
	floor = c->stack_lo - c->stack_guard - (1u << 20);
	top = c->stack_lo + 4096;
	return (addr >= floor && addr < top) || (sp >= floor && sp < top);
}

static void on_crash(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	struct shl_copy *c;
	char who[128];
	sigset_t faults;
	/* static: the handler runs on a small signal stack, and only one thread reports */
	static struct own_frames own;

	/* Only the first crashing thread reports; the others wait for it to end the process.
	 * A fault inside the report comes back here in the reporting thread: it escapes to
	 * the end of the report. */
	if (atomic_exchange(&shl_loader.crashing, 1)) {
		if (atomic_load(&reporter) != gettid())
			for (;;)
				pause();
		if (escape_armed) {
			escape_armed = 0;
			siglongjmp(report_escape, 1);
		}
		shl_exit_in_handler(128 + sig);
	}
	atomic_store(&reporter, gettid());
	/* Faults of the report itself must reach this handler, not kill the process. */
	sigemptyset(&faults);
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		if (crash_signals[i] != SIGABRT)
			sigaddset(&faults, crash_signals[i]);
	pthread_sigmask(SIG_UNBLOCK, &faults, NULL);
	c = copy_of_thread();
	if (shl_loader_self)
		snprintf(who, sizeof(who), "rank %d%s", c->rank, on_host);
	else if (shl_job_my_rank() >= 0) /* a thread the rank created */
		snprintf(who, sizeof(who), "rank %d (thread %d)%s", shl_job_my_rank(), gettid(),
			 on_host);
	else
		snprintf(who, sizeof(who), "node process%s", on_host);
	if (overflowed(c, sig, si, uc))
		say("shoal: %s: stack overflow at %p (SHOAL_STACK_SIZE=%zu bytes is each rank's "
		    "stack; set SHOAL_STACK_SIZE larger, e.g. 64M, for deeper recursion or larger "
		    "local arrays)\n", who, si->si_addr, shl_loader.stack);
	else if (sig == SIGABRT || si->si_code <= 0) /* sent, not a fault: no address */
		say("shoal: %s: killed by signal SIG%s (%s)\n", who, sigabbrev_np(sig),
		    sigdescr_np(sig));
	else
		say("shoal: %s: killed by signal SIG%s (%s) at %p\n", who, sigabbrev_np(sig),
		    sigdescr_np(sig), si->si_addr);
	if (sigsetjmp(report_escape, 1) == 0) {
		escape_armed = 1;
		report_frames(c, uc, &own);
		escape_armed = 0;
	} else {
		say("  (the backtrace stops here: unwinding further faulted)\n");
	}
	if (own.n > 0 && sigsetjmp(report_escape, 1) == 0) {
		escape_armed = 1;
		say("  source lines of the rank's frames in its program and MPI libraries:\n");
		copies_lines(&own);
		escape_armed = 0;
	}
	shl_exit_in_handler(128 + sig);
}

/* The one thread that takes SIGINT/SIGTERM/SIGHUP (blocked everywhere else), so flushing
 * stdio happens in a normal context instead of a handler that may interrupt a printf. */
static void *wait_signals(void *arg)
{
	sigset_t *set = arg;
	int sig = 0;

	pthread_setname_np(pthread_self(), "shoal signals");
	while (sigwait(set, &sig) != 0)
		;
	shl_exit_now(128 + sig);
}

int shl_loader_install_crash_handlers(void)
{
	sigset_t *stop = &shl_loader.stop_signals;
	struct sigaction sa = { .sa_sigaction = on_crash, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	const char *host = getenv("SHOAL_HOST");
	pthread_t t;
	int err;

	if (host != NULL)
		snprintf(on_host, sizeof(on_host), " on host %s", host);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		if (sigaction(crash_signals[i], &sa, NULL) < 0)
			return -errno;
	shl_job_signal_stack();

	sigemptyset(stop);
	sigaddset(stop, SIGINT);
	sigaddset(stop, SIGTERM);
	sigaddset(stop, SIGHUP);
	/* Blocked before any rank starts, so every rank thread inherits the mask. */
	err = pthread_sigmask(SIG_BLOCK, stop, NULL);
	if (err)
		return -err;
	err = pthread_create(&t, NULL, wait_signals, stop);
	if (err)
		return -err;
	pthread_detach(t);
	return 0;
}
