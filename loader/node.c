/* The node process: checks the program, copies it once per rank, runs each rank's main in
 * its own thread (keeping the libraries the copies bring in loaded, and a copy mapped while
 * threads its rank created live) and turns the ranks' ends into the node's exit status; a
 * program mpicc did not build goes to loader/node_exec.c instead, a process per rank.
 * Entered by shoal-node's main thread (shl_node_main) and by the rank threads it starts.
 * Must not know MPI semantics beyond shl_job_*; ends the process only through io/exit.h
 * (exit() would end a rank). */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "loader/rank_objects.h"
#include "loader/report.h"
#include "io/exit.h"
#include "io/mesh.h"
#include "runtime/job.h"

/* glibc's default thread stack is RLIMIT_STACK, 8 MiB on Debian; ranks get the same by
 * default so a program that runs as a process also runs as a rank. */
#define SHL_LOADER_STACK_DEFAULT (8UL << 20)
/* Below this, dlopen and a crash report alone can overflow the stack (glibc needs ~16 KiB). */
#define SHL_LOADER_STACK_MIN (64UL << 10)

struct shl_node_state shl_loader = {
	.first_failed = -1,
	.single_lock = PTHREAD_MUTEX_INITIALIZER,
	.proxy = -1,
	.proxy_lock = PTHREAD_MUTEX_INITIALIZER,
};

/* MPIR process acquisition interface: a parallel debugger that started mpiexec (which then
 * sets SHOAL_DEBUG_STOP=gate) attaches to the node and sets this to 1 to let ranks enter
 * main. Exported under its standard name so the debugger finds it. */
SHL_LOADER_EXPORT volatile int MPIR_debug_gate;

__thread struct shl_copy *shl_loader_self __attribute__((tls_model("initial-exec")));

extern char **environ;

struct shl_libc *shl_loader_libc(void)
{
	struct shl_copy *c = shl_loader_self;

	return c ? &c->libc : &shl_loader.single;
}

/* SHOAL_STACK_SIZE: bytes, with an optional K, M or G suffix. */
static size_t stack_size(void)
{
	const char *s = getenv("SHOAL_STACK_SIZE");
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return SHL_LOADER_STACK_DEFAULT;
	errno = 0;
	v = strtoull(s, &end, 0);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (errno || *end || v < SHL_LOADER_STACK_MIN) {
		fprintf(stderr, "shoal: ignoring SHOAL_STACK_SIZE=%s (want bytes >= %lu, "
			"suffix K/M/G allowed)\n", s, SHL_LOADER_STACK_MIN);
		return SHL_LOADER_STACK_DEFAULT;
	}
	return (size_t)v;
}

/* An executable's code addresses std::cout and its kin through copies of them in the
 * program, which the dynamic linker fills from libstdc++'s objects as it relocates each
 * copy, before any constructor of the copy runs: the streams must be constructed by then,
 * as they are in a process before main. Main thread, once, after the ranks' stdout and
 * stderr are set up (the streams write through them). The one reference taken here is never
 * dropped, so the streams live as long as the node. */
static int construct_cxx_streams(void)
{
	static char init_object; /* std::ios_base::Init has no data of its own */
	void *cxx = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	void (*init)(void *) = cxx ? (void (*)(void *))dlsym(cxx, "_ZNSt8ios_base4InitC1Ev")
				   : NULL;

	if (!init) {
		fprintf(stderr, "shoal: cannot construct C++'s standard streams for %s: %s\n",
			shl_loader.program, dlerror());
		return -1;
	}
	init(&init_object);
	return 0;
}

/* The rank's own argv: a process gets a private argv, and programs write into it. */
static char **copy_argv(int argc, char **argv)
{
	size_t bytes = (size_t)(argc + 1) * sizeof(char *);
	char **v, *p;

	for (int i = 0; i < argc; i++)
		bytes += strlen(argv[i]) + 1;
	v = malloc(bytes);
	if (!v)
		return NULL;
	p = (char *)(v + argc + 1);
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		v[i] = memcpy(p, argv[i], n);
		p += n;
	}
	v[argc] = NULL;
	return v;
}

/* Run this copy's atexit handlers and static destructors (registered with its __dso_handle)
 * outside the loader lock, so one of them may still call exit(): that comes back to
 * c->finish and the loop goes on with the remaining handlers, as glibc's exit does. */
static void run_atexit(struct shl_copy *c)
{
	shl_copy_stage_set(c, SHL_STAGE_FINISHING);
	setjmp(c->finish);
	if (c->libc.dso && c->ending == SHL_END_RETURN)
		__cxa_finalize(c->libc.dso);
}

/* The libraries a copy brings in (libgomp, libstdc++, ...) are loaded once per node and
 * shared by every rank's copy; the last copy's dlclose would unmap them while threads they
 * started (an OpenMP pool, which ends only after the rank's thread) or their destructors
 * registered for the rank's thread still need their code. So every library loaded with
 * the copy stays loaded until the node ends: RTLD_NODELETE on each, found with
 * dl_iterate_phdr. The copies themselves (files in the job directory) are not pinned. */
struct pin_list {
	const char *copies;  /* job directory with its slash: names under it are copies */
	size_t copies_len;
	char **names;
	size_t n, cap;
};

static int collect_library(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct pin_list *l = arg;
	const char *name = info->dlpi_name;

	(void)size;
	if (!name || !name[0] || !strncmp(name, l->copies, l->copies_len))
		return 0;  /* the node's executable, or a rank's copy */
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **more = realloc(l->names, cap * sizeof(*more));

		if (!more)
			return 1;
		l->names = more;
		l->cap = cap;
	}
	l->names[l->n] = strdup(name);
	if (l->names[l->n])
		l->n++;
	return 0;
}

/* Rank thread, once its copy is loaded. dlopen is not called inside dl_iterate_phdr (which
 * holds the loader's list lock): names are collected first, then each loaded one is
 * pinned; one that went away meanwhile (RTLD_NOLOAD fails) needs no pin. */
static void pin_libraries(struct shl_copy *c)
{
	const char *slash = strrchr(c->path, '/');
	struct pin_list l = { .copies = c->path,
			      .copies_len = slash ? (size_t)(slash - c->path) + 1 : 0 };

	dl_iterate_phdr(collect_library, &l);
	for (size_t i = 0; i < l.n; i++) {
		/* Never closed: the reference and the pin last as long as the node. */
		(void)shl_loader_dlopen(l.names[i], RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
		free(l.names[i]);
	}
	free(l.names);
}

/* ThreadSanitizer does not see ld.so unmap a copy (its own system calls): a copy mapped
 * later at the same addresses would inherit what TSan knows of this one's memory, and the
 * new rank's first writes to its globals would be reported as racing with the rank that
 * ended. Under TSan every copy ends as one whose threads live on: destructors run, mapped. */
#if defined(__SANITIZE_THREAD__)
#define SHL_LOADER_KEEP_MAPPED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHL_LOADER_KEEP_MAPPED 1
#endif
#endif
#ifndef SHL_LOADER_KEEP_MAPPED
#define SHL_LOADER_KEEP_MAPPED 0
#endif

/* Rank thread, after the copy's atexit handlers and static destructors: end the copy as
 * dlclose does. While threads the rank created are still alive (an OpenMP pool waiting for
 * work, a detached thread blocked in a call) they may still run the copy's code, as a
 * process's threads do until its exit: the copy's destructors run and it stays mapped
 * until the node ends. */
static void unload_copy(struct shl_copy *c)
{
	shl_rank_unload(c, SHL_LOADER_KEEP_MAPPED || shl_job_rank_threads(c->rank) > 0);
}

/* Called from pthread_exit in the rank's main: a process whose main thread calls pthread_exit
 * ends with status 0 once its threads end; here the rank simply ends. */
static void on_pthread_exit(void *arg)
{
	struct shl_copy *c = arg;

	shl_job_rank_home();
	if (c->reported)
		return;
	c->code = 0;
	shl_copy_stage_set(c, SHL_STAGE_DONE);
	shl_loader_rank_ended(c);
	shl_loader_stdio_rank_done(c);
}

/* Rank thread, at its start: where its stack is, for the crash handler to tell a stack
 * overflow (loader/node_signals.c). */
static void stack_bounds(struct shl_copy *c)
{
	pthread_attr_t attr;
	void *lo;
	size_t len, guard = 0;

	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return;
	if (pthread_attr_getstack(&attr, &lo, &len) == 0 &&
	    pthread_attr_getguardsize(&attr, &guard) == 0) {
		c->stack_guard = guard;
		c->stack_hi = (uintptr_t)lo + len;
		c->stack_lo = (uintptr_t)lo;
	}
	pthread_attr_destroy(&attr);
}

static void *run_rank(void *arg)
{
	struct shl_copy *c = arg;
	int (*entry)(int, char **, char **);
	char name[16];

	shl_job_bind_rank(c->rank);
	shl_loader_self = c;
	snprintf(name, sizeof(name), "rank %d", c->rank);
	pthread_setname_np(pthread_self(), name);
	c->altstack = shl_job_signal_stack();
	stack_bounds(c);

	shl_copy_stage_set(c, SHL_STAGE_LOADING);
	pthread_cleanup_push(on_pthread_exit, c);
	if (setjmp(c->start) == 0) {
		/* Constructors of the copies run here, in the rank's thread, after binding. */
		shl_rank_load_program(c);
		pin_libraries(c);
		entry = (int (*)(int, char **, char **))dlsym(c->objects[0], "main");
		if (!entry)
			shl_job_abort(1, "rank %d: %s has no main: %s", c->rank, shl_loader.program,
				      dlerror());
		if (shl_loader.debug_stop && pthread_barrier_wait(&shl_loader.loaded) ==
						 PTHREAD_BARRIER_SERIAL_THREAD) {
			shl_node_ranks_loaded(shl_loader.nranks);
			while (shl_loader.debug_gate && !MPIR_debug_gate)
				usleep(10 * 1000);
			pthread_barrier_wait(&shl_loader.loaded);
		} else if (shl_loader.debug_stop) {
			pthread_barrier_wait(&shl_loader.loaded); /* until the hook returns */
		}
		shl_copy_stage_set(c, SHL_STAGE_RUNNING);
		c->code = entry(c->argc, c->argv, environ);
		c->ending = SHL_END_RETURN;
	}
	pthread_cleanup_pop(0);
	shl_job_rank_home();

	if (c->ending == SHL_END_RETURN)
		run_atexit(c);
	shl_job_rank_exit(c->rank);
	shl_copy_stage_set(c, SHL_STAGE_UNLOADING);
	shl_loader_rank_ended(c);
	/* _exit and quick_exit leave the copies mapped: their destructors must not run. What
	 * the destructors print is the rank's output still, as at a process's exit. */
	if (c->ending == SHL_END_RETURN)
		unload_copy(c);
	shl_loader_stdio_rank_done(c);
	shl_copy_stage_set(c, SHL_STAGE_DONE);
	return NULL;
}

void shl_loader_rank_ended(struct shl_copy *c)
{
	int none = -1;

	if (c->reported)
		return;
	c->reported = true;
	if ((c->code & 0xff) != 0) /* a process's status keeps the low 8 bits */
		atomic_compare_exchange_strong(&shl_loader.first_failed, &none,
					       (int)(c - shl_loader.copies));
	if (shl_loader.world_size > 1 && shl_job_phase(c->rank) == SHL_PHASE_IN_MPI)
		shl_job_abort(c->code ? c->code : 1,
			      "rank %d exited (code %d) without calling MPI_Finalize", c->rank, c->code);
}

__attribute__((noinline)) void shl_node_ranks_loaded(int nranks)
{
	/* An empty call the optimizer must keep: the debugger's breakpoint lands here. */
	__asm__ volatile("" : : "r"(nranks) : "memory");
}

static int usage(void)
{
	fprintf(stderr, "usage: shoal-node <job dir> <nranks> <program> [args...]\n"
		"       shoal-node --connect IP[,IP...]:PORT --node I --host NAME [--wdir DIR] "
		"<program> [args...]\n"
		"shoal-node is started by mpiexec; run programs with: mpiexec -n N program\n");
	return 2;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Start every rank thread, each with a stack of `stack` bytes; a failure to start one
 * aborts the job (the others may already be inside MPI_Init waiting for it). argv is the
 * program's, argv[0] its path. */
static void start_ranks(const char *jobdir, const int *world, int argc, char **argv,
			size_t stack)
{
	pthread_attr_t attr;
	int err;

	pthread_attr_init(&attr);
	err = pthread_attr_setstacksize(&attr, stack);
	if (err)
		shl_job_abort(1, "cannot use a stack of %zu bytes: %s", stack, strerror(err));
	/* Every copy's rank is set (shl_node_run) and is only read from here on: a running
	 * rank's output finds its copy by rank among all of them (node_stdio.c local_index). */
	for (int k = 0; k < shl_loader.nranks; k++) {
		struct shl_copy *c = &shl_loader.copies[k];

		c->argc = argc;
		c->argv = copy_argv(argc, argv);
		if (asprintf(&c->path, "%s/%s.rank%d", jobdir, base_name(argv[0]), c->rank) < 0 ||
		    !c->argv)
			shl_job_abort(1, "out of memory starting rank %d", k);
		err = shl_loader_bind_rank(&attr, k, c->rank);
		if (err)
			shl_job_abort(1, "cannot bind rank %d: %s", c->rank, strerror(err));
		err = pthread_create(&c->thread, &attr, run_rank, c);
		if (err)
			shl_job_abort(1, "cannot start rank %d of %d: %s (stack %zu bytes; try a "
				      "smaller SHOAL_STACK_SIZE)", c->rank, shl_loader.world_size,
				      strerror(err),
				      stack);
	}
	pthread_attr_destroy(&attr);
}

/* How often the deadlock watchdog samples the ranks. */
#define SHL_LOADER_WATCH_MS 250

/* Whether no rank can move again: each has ended or is blocked in MPI with nothing to
 * receive. *sig summarises the ranks' wake counters, to see that nothing moved since. */
static bool all_blocked(uint64_t *sig)
{
	*sig = 0;
	for (int k = 0; k < shl_loader.nranks; k++) {
		uint32_t seq;

		if (__atomic_load_n(&shl_loader.copies[k].stage, __ATOMIC_RELAXED) ==
		    SHL_STAGE_DONE)
			continue;
		if (!shl_job_rank_blocked(shl_loader.copies[k].rank, &seq))
			return false;
		*sig = *sig * 1000003u + seq + 1;
	}
	return true;
}

/* The watchdog thread of a node process run without a proxy (shoal-node JOBDIR N PROGRAM
 * by hand, as under callgrind; mpiexec always starts one): a node whose every rank stays
 * blocked in MPI for shl_loader.deadlock_ms can never progress. Report what each rank
 * waits for, then end the node with status 125. */
static void *watch(void *arg)
{
	struct timespec tick = { 0, SHL_LOADER_WATCH_MS * 1000000L };
	unsigned blocked_ms = 0;
	uint64_t last = 0, sig;

	pthread_setname_np(pthread_self(), "shoal watchdog");
	for (;;) {
		nanosleep(&tick, NULL);
		if (!all_blocked(&sig) || sig != last) {
			last = sig;
			blocked_ms = 0;
			continue;
		}
		blocked_ms += SHL_LOADER_WATCH_MS;
		if (blocked_ms >= shl_loader.deadlock_ms)
			break;
	}
	fflush(NULL);
	fprintf(stderr, "shoal: likely deadlock: every rank has been blocked in MPI for %u s and "
		"none can progress (SHOAL_DEADLOCK_S=0 turns this check off)\n",
		shl_loader.deadlock_ms / 1000);
	for (int k = 0; k < shl_loader.nranks; k++)
		if (__atomic_load_n(&shl_loader.copies[k].stage, __ATOMIC_RELAXED) != SHL_STAGE_DONE)
			shl_job_describe_rank(shl_loader.copies[k].rank, stderr);
	shl_exit_now(SHL_REPORT_DEADLOCK_EXIT);
	return arg;
}

/* Watchdog or main thread: send this node's state to its proxy if it changed since the last
 * one sent (always, with `final`: the ranks have all ended and every frame is written;
 * nothing is sent after that). A changed wake count of a blocked rank is a change: mpiexec
 * calls a job deadlocked only once no node's state changed for SHOAL_DEADLOCK_S. */
static void tell_proxy(bool final)
{
	/* Process-wide, under proxy_lock: the last state sent. */
	static struct { bool sent_once, blocked; uint64_t sig, sent, retired; } last;
	unsigned char m[1 + SHL_WATCH_STATE_BYTES];
	uint64_t sig, sent, retired;
	bool blocked;

	pthread_mutex_lock(&shl_loader.proxy_lock);
	if (shl_loader.proxy_final)
		goto unlock;
	/* Ranks first: a rank's post counts as sent before the rank can sleep again. */
	blocked = all_blocked(&sig);
	shl_io_count_frames(&sent, &retired);
	if (!blocked)
		sig = 0;
	if (!final && last.sent_once && last.blocked == blocked && last.sig == sig &&
	    last.sent == sent && last.retired == retired)
		goto unlock;
	last.sent_once = true;
	last.blocked = blocked;
	last.sig = sig;
	last.sent = sent;
	last.retired = retired;
	m[0] = SHL_WATCH_STATE;
	shl_io_ctl_put32(m + 1, blocked);
	shl_io_ctl_put32(m + 5, (uint32_t)sent);
	shl_io_ctl_put32(m + 9, (uint32_t)(sent >> 32));
	shl_io_ctl_put32(m + 13, (uint32_t)retired);
	shl_io_ctl_put32(m + 17, (uint32_t)(retired >> 32));
	send(shl_loader.proxy, m, sizeof(m), MSG_NOSIGNAL);
	shl_loader.proxy_final = final;
unlock:
	pthread_mutex_unlock(&shl_loader.proxy_lock);
}

/* Watchdog thread, the proxy asking (mpiexec judged the job deadlocked, so every rank not
 * ended is blocked): what each waits for, as the single-node watchdog prints it. */
static void describe_to_proxy(void)
{
	unsigned char m[1 + SHL_WATCH_PIECE];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f) {
		for (int k = 0; k < shl_loader.nranks; k++)
			if (__atomic_load_n(&shl_loader.copies[k].stage, __ATOMIC_RELAXED) !=
			    SHL_STAGE_DONE)
				shl_job_describe_rank(shl_loader.copies[k].rank, f);
		fclose(f);
	}
	pthread_mutex_lock(&shl_loader.proxy_lock);
	m[0] = SHL_WATCH_DESCRIBE;
	for (size_t off = 0; text && off < len; off += SHL_WATCH_PIECE) {
		size_t n = len - off < SHL_WATCH_PIECE ? len - off : SHL_WATCH_PIECE;

		memcpy(m + 1, text + off, n);
		send(shl_loader.proxy, m, 1 + n, MSG_NOSIGNAL);
	}
	m[0] = SHL_WATCH_DESCRIBED;
	send(shl_loader.proxy, m, 1, MSG_NOSIGNAL);
	pthread_mutex_unlock(&shl_loader.proxy_lock);
	free(text);
}

/* The watchdog thread of a node started by a proxy: the judge is mpiexec, the only one
 * that sees every node (a node's ranks all blocked may wait for another node). Every
 * SHL_LOADER_WATCH_MS, tell the proxy this node's state if it changed; describe the ranks
 * when the proxy asks. Ends when the proxy closes the socket. */
static void *watch_for_proxy(void *arg)
{
	pthread_setname_np(pthread_self(), "shoal watchdog");
	for (;;) {
		struct pollfd pfd = { .fd = shl_loader.proxy, .events = POLLIN };
		unsigned char m[16];

		if (poll(&pfd, 1, SHL_LOADER_WATCH_MS) > 0) {
			ssize_t r = recv(shl_loader.proxy, m, sizeof(m), MSG_DONTWAIT);

			if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
				return arg;
			if (r > 0 && m[0] == SHL_WATCH_DESCRIBE)
				describe_to_proxy();
		}
		tell_proxy(false);
	}
}

int shl_node_main(int argc, char **argv)
{
	char *end;
	long n;

	if (argc >= 2 && !strcmp(argv[1], "--connect"))
		return shl_node_proxy_main(argc, argv);
	if (argc < 4)
		return usage();
	n = strtol(argv[2], &end, 10);
	if (*end || n < 1 || n > INT_MAX / 2)
		return usage();
	return shl_node_run(argv[1], (int)n, (int)n, NULL, NULL, argc - 3, argv + 3);
}

/* Every rank's files, the ranks' output pipes and the mesh's connections share the node's
 * descriptors: the soft limit goes up to the hard one, as far as a process may raise it
 * itself (a default soft limit of 1024 is one process's worth, not a node's). */
static void more_files(void)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
		lim.rlim_cur = lim.rlim_max;
		setrlimit(RLIMIT_NOFILE, &lim);
	}
}

int shl_node_run(const char *jobdir, int world_size, int nlocal, const int *world,
		 const struct shl_io_config *mesh, int argc, char **argv)
{
	char why[256];
	const char *stop;
	int err, failed, code = 0;
	void *warm[4];
	long n = nlocal;
	size_t stack;

	err = shl_loader_check_program(argv[0], &shl_loader.elf, why, sizeof(why));
	if (err < 0) {
		fprintf(stderr, "shoal: %s\n", why);
		return err == -ENOENT ? 127 : (err == -EACCES ? 126 : 1);
	}
	/* Not built by mpicc: its ranks are processes, which join no mesh and no job table. */
	if (err == SHL_PROGRAM_PROCESSES)
		return shl_node_exec_run(world_size, nlocal, world, argc, argv);
	shl_node_exec_unset_env();
	more_files();
	stack = stack_size();
	err = shl_objects_setup(jobdir, argv[0]);
	if (err)
		return err;
	if (shl_node_room(jobdir, argv[0], nlocal, stack) < 0)
		return 1;
	shl_loader.stack = stack;
	/* The first backtrace() loads libgcc_s; do it now, not inside a crash handler. */
	backtrace(warm, 4);

	shl_loader.program = argv[0];
	shl_loader.nranks = nlocal;
	shl_loader.world_size = world_size;
	shl_loader.copies = calloc((size_t)n, sizeof(struct shl_copy));
	if (!shl_loader.copies) {
		fprintf(stderr, "shoal: out of memory for %ld ranks\n", n);
		return 1;
	}
	/* First: every thread started from here on (carriers, the completion thread) inherits
	 * the mask that leaves SIGINT/SIGTERM/SIGHUP to the node's signal thread. */
	err = shl_loader_install_crash_handlers();
	if (err) {
		fprintf(stderr, "shoal: cannot install crash handlers: %s\n", strerror(-err));
		return 1;
	}
	err = shl_job_create_part(world_size, nlocal, world);
	if (err) {
		fprintf(stderr, "shoal: cannot create a job of %ld ranks: %s\n", n, strerror(-err));
		return 1;
	}
	for (int k = 0; k < n; k++)
		shl_loader.copies[k].rank = world ? world[k] : k;
	/* Before the mesh's thread starts: it may report on stderr, which this replaces. */
	err = shl_loader_stdio_setup();
	if (err) {
		fprintf(stderr, "shoal: cannot set up the ranks' stdin and stdout: %s\n",
			strerror(-err));
		return 1;
	}
	if (mesh != NULL && (err = shl_job_connect(mesh)) < 0) {
		fprintf(stderr, "shoal: node %u cannot join the other nodes: %s\n", mesh->node,
			strerror(-err));
		return 1;
	}
	stop = getenv("SHOAL_DEBUG_STOP");
	shl_loader.debug_stop = shl_job_debug_stop();
	shl_loader.debug_gate = stop && !strcmp(stop, "gate");
	if (shl_loader.debug_stop && pthread_barrier_init(&shl_loader.loaded, NULL, (unsigned)n)) {
		fprintf(stderr, "shoal: cannot make the SHOAL_DEBUG_STOP barrier\n");
		return 1;
	}
	if (shl_loader_bind_setup(true) < 0)
		return 1;
	if (shl_loader.elf.pie_flag_at >= 0 && shl_loader.elf.cxx && construct_cxx_streams() < 0)
		return 1;
	start_ranks(jobdir, world, argc, argv, stack);
	/* Ranks of a node blocked together may wait on other nodes: with a proxy, the
	 * watchdog only reports to mpiexec, which judges the whole job (watch_for_proxy). */
	shl_loader.deadlock_ms = world_size > nlocal && shl_loader.proxy < 0 ? 0 :
		1000 * (unsigned)shl_report_env_seconds("SHOAL_DEADLOCK_S", SHL_REPORT_DEADLOCK_S, 0);
	if (shl_loader.deadlock_ms > 0 && !shl_loader.debug_stop) {
		pthread_t w;
		if (pthread_create(&w, NULL, shl_loader.proxy >= 0 ? watch_for_proxy : watch,
				   NULL) == 0)
			pthread_detach(w);
	}
	for (int k = 0; k < n; k++)
		pthread_join(shl_loader.copies[k].thread, NULL);
	/* Sends that completed when posted may still be queued for other nodes. 10 s: a
	 * node that reads nothing for that long is stuck or gone. */
	if (mesh != NULL && shl_io_finish(10000) < 0)
		fprintf(stderr, "shoal: node %u: messages for other nodes were still unsent after "
			"10 s\n", mesh->node);
	/* The last word on this node's frames: its ranks' sends count even once it is gone. */
	if (shl_loader.proxy >= 0)
		tell_proxy(true);

	fflush(NULL);
	failed = atomic_load(&shl_loader.first_failed);
	if (failed >= 0) {
		code = shl_loader.copies[failed].code & 0xff;
		fprintf(stderr, "shoal: rank %d exited with code %d\n", shl_loader.copies[failed].rank,
			code);
	}
	/* No atexit handler runs: those left by ranks that called _exit or quick_exit point
	 * into copies that must not run them. */
	shl_exit_now(code);
}
