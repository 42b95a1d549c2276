/* Signals in the node process: a crash in any rank is reported once (rank, signal, address,
 * symbolized backtrace) and ends the node; SIGINT/SIGTERM/SIGHUP flush stdio and end it.
 * Entered by the main thread (install), by any faulting thread (handler), and by the one
 * signal thread. Must not return from a crash handler or let two threads report. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <execinfo.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Source lines of the crashing rank's own frames: addr2line (binutils) reads the copy's
 * debug information. The handler forks it and prints "#i function at file:line" for each
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

static void on_crash(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	struct shl_copy *c = shl_loader_self;
	void *pcs[SHL_LOADER_BACKTRACE_MAX];
	uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	char who[128];
	int n, first = 0;

	/* Only the first crashing thread reports; the others wait for it to end the process. */
	if (atomic_exchange(&shl_loader.crashing, 1))
		for (;;)
			pause();
	if (c)
		snprintf(who, sizeof(who), "rank %d%s", c->rank, on_host);
	else if (shl_job_my_rank() >= 0) /* a thread the rank created */
		snprintf(who, sizeof(who), "rank %d (thread %d)%s", shl_job_my_rank(), gettid(),
			 on_host);
	else
		snprintf(who, sizeof(who), "node process%s", on_host);
	if (sig == SIGABRT || si->si_code <= 0) /* sent, not a fault: no address */
		say("shoal: %s: killed by signal SIG%s (%s)\n", who, sigabbrev_np(sig),
		    sigdescr_np(sig));
	else
		say("shoal: %s: killed by signal SIG%s (%s) at %p\n", who, sigabbrev_np(sig),
		    sigdescr_np(sig), si->si_addr);
	n = backtrace(pcs, SHL_LOADER_BACKTRACE_MAX);
	/* Skip this handler and the signal trampoline: start at the interrupted pc. */
	for (int i = 0; i < n; i++)
		if ((uintptr_t)pcs[i] == pc) {
			first = i;
			break;
		}
	int own[SHL_LOADER_BACKTRACE_MAX], nown = 0;
	uintptr_t offs[SHL_LOADER_BACKTRACE_MAX];
	for (int i = first; i < n; i++) {
		uintptr_t at = (uintptr_t)pcs[i] - (i == first ? 0 : 1);
		Dl_info info;

		frame(i - first, (uintptr_t)pcs[i], i == first);
		if (c && dladdr((void *)at, &info) && info.dli_fname &&
		    !strcmp(info.dli_fname, c->path)) {
			own[nown] = i - first;
			offs[nown++] = at - (uintptr_t)info.dli_fbase;
		}
	}
	if (nown > 0) {
		say("  source lines of the program's frames:\n");
		source_lines(c->path, own, offs, nown);
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
