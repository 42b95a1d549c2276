/* Ranks that are processes: a program mpicc did not build (a system command, a #! script,
 * an interpreter such as python3, a static program) runs as one process per rank, forked
 * and exec'd by the node process of the rank's host, each in a process group of its own.
 * The node gives each its rank and size in the environment, rank 0 the node's stdin, passes
 * their output on line by line (labelled as for thread ranks), forwards stop signals to
 * their groups and ends with the job's status by the rules of thread ranks.
 * Entered by the node's main thread (shl_node_exec_run, which never returns once ranks
 * start) and by the stdin thread it may start. Must not call exit() (libmpi interposes it):
 * the node ends through shl_exit_now (io/exit.h), a child through real__exit. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/exit.h"
#include "loader/loader.h"
#include "loader/loader_internal.h"

/* How long ranks told to stop (a stop signal, or another rank killed by a signal) have to
 * end before their process groups get SIGKILL. Below mpiexec's own grace before it kills
 * the node (3 s), so the node is still there to kill what a rank started. */
#define SHL_EXEC_STOP_GRACE_MS 2000
/* Bytes read from a rank's pipe at a time: a Linux pipe's default capacity. */
#define SHL_EXEC_READ (64 * 1024)
/* What is left in a rank's pipes when it ends is read up to this much: a process it started
 * that goes on writing would otherwise hold the node for ever. */
#define SHL_EXEC_DRAIN_MAX (4 << 20)

/* The variables a process rank finds its rank and size in: Shoal's, and those Open MPI's and
 * MPICH's launchers set, so job scripts written for them keep working. */
enum { V_RANK, V_SIZE, V_LOCAL_RANK, V_LOCAL_SIZE };
static const struct { const char *name; int what; } rank_vars[] = {
	{ "SHOAL_RANK", V_RANK },
	{ "SHOAL_SIZE", V_SIZE },
	{ "SHOAL_LOCAL_RANK", V_LOCAL_RANK },
	{ "SHOAL_LOCAL_SIZE", V_LOCAL_SIZE },
	{ "OMPI_COMM_WORLD_RANK", V_RANK },
	{ "OMPI_COMM_WORLD_SIZE", V_SIZE },
	{ "OMPI_COMM_WORLD_LOCAL_RANK", V_LOCAL_RANK },
	{ "OMPI_COMM_WORLD_LOCAL_SIZE", V_LOCAL_SIZE },
	{ "OMPI_COMM_WORLD_NODE_RANK", V_LOCAL_RANK },
	{ "PMI_RANK", V_RANK },
	{ "PMI_SIZE", V_SIZE },
	{ "MPI_LOCALRANKID", V_LOCAL_RANK },
	{ "MPI_LOCALNRANKS", V_LOCAL_SIZE },
};
#define NVARS (sizeof(rank_vars) / sizeof(rank_vars[0]))

/* One rank process. Only the main thread touches these. */
struct proc {
	pid_t pid;      /* its pid, which is also its process group; 0 once reaped */
	int out, err;   /* read ends of its stdout and stderr pipes, -1 once closed */
	bool killed;    /* ended by a signal of its own (reported as it ended) */
};

static struct proc *procs;
static int live;            /* ranks not reaped yet */
static int stop_sig;        /* the stop signal the node got (ranks were told), or 0 */
static bool ending;         /* a rank was killed by a signal: the others were told to stop */
static long kill_at;        /* CLOCK_MONOTONIC ms when the groups still here get SIGKILL */
static struct rlimit files; /* RLIMIT_NOFILE as the node got it: the ranks get it back */

extern char **environ;

void shl_node_exec_unset_env(void)
{
	for (size_t i = 0; i < NVARS; i++)
		unsetenv(rank_vars[i].name);
}

static bool is_rank_var(const char *entry)
{
	for (size_t i = 0; i < NVARS; i++) {
		size_t n = strlen(rank_vars[i].name);

		if (!strncmp(entry, rank_vars[i].name, n) && entry[n] == '=')
			return true;
	}
	return false;
}

/* The environment of local rank `k`: the node's, with the rank variables set for it. One
 * allocation (pointers, then strings), built before fork: the child only execs. */
static char **rank_env(int k, int world_size)
{
	long value[4] = { shl_loader.copies[k].rank, world_size, k, shl_loader.nranks };
	size_t n = 0, bytes;
	char **env, *p;
	int e = 0;

	while (environ[n])
		n++;
	bytes = (n + NVARS + 1) * sizeof(char *) + NVARS * 64;
	env = malloc(bytes);
	if (!env)
		return NULL;
	p = (char *)(env + n + NVARS + 1);
	for (size_t i = 0; i < n; i++)
		if (!is_rank_var(environ[i]))
			env[e++] = environ[i];
	for (size_t i = 0; i < NVARS; i++) {
		env[e++] = p;
		p += snprintf(p, 64, "%s=%ld", rank_vars[i].name, value[rank_vars[i].what]) + 1;
	}
	env[e] = NULL;
	return env;
}

/* In the child of fork: become local rank `k` and exec the program. Only async-signal-safe
 * calls: the node may have another thread (stdin's). */
static _Noreturn void become_rank(int k, char **argv, char **env, int in, int out, int err,
				  pid_t node, const cpu_set_t *cpus)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	char msg[512];
	int n, code;

	setpgid(0, 0);
	/* The node gone (even by SIGKILL), the rank must not run on unattended. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != node)
		shl_loader.real__exit(1);
	/* Ignored signals (mpiexec's SIGQUIT, a proxy's SIGPIPE) and the node's mask would
	 * survive exec: the program gets a process's defaults. */
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setrlimit(RLIMIT_NOFILE, &files);
	if (cpus != NULL)
		sched_setaffinity(0, sizeof(*cpus), cpus);
	if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    dup2(err, STDERR_FILENO) < 0)
		shl_loader.real__exit(126);
	if (close_range(3, ~0U, 0) < 0)
		for (int fd = 3; fd < (int)files.rlim_cur && fd < 65536; fd++)
			close(fd);
	execve(argv[0], argv, env);
	code = errno == ENOENT ? 127 : 126;  /* as a shell */
	n = snprintf(msg, sizeof(msg), "shoal: rank %d: cannot run %s: %s\n",
		     shl_loader.copies[k].rank, argv[0], strerror(errno));
	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
		code = 126;
	shl_loader.real__exit(code);
}

/* The stdin thread: a terminal stays with the node (a rank in a process group of its own
 * would be stopped reading it), and what it gives goes to rank 0 through a pipe. */
static void *feed_stdin(void *arg)
{
	int to = (int)(intptr_t)arg;
	char buf[SHL_EXEC_READ];
	ssize_t r;

	pthread_setname_np(pthread_self(), "shoal stdin");
	while ((r = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		for (ssize_t off = 0, w; off < r; off += w) {
			w = write(to, buf + off, (size_t)(r - off));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0)  /* rank 0 ended (EPIPE): the rest is not read */
				goto out;
		}
	}
out:
	close(to);
	return NULL;
}

/* What rank 0 reads from: the node's stdin, or a pipe the stdin thread feeds from the
 * terminal. Returns the descriptor for the child (0 or the pipe's read end) or -1. */
static int rank0_stdin(void)
{
	int fds[2];
	pthread_t t;

	if (!isatty(STDIN_FILENO))
		return STDIN_FILENO;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	if (pthread_create(&t, NULL, feed_stdin, (void *)(intptr_t)fds[1]) != 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	pthread_detach(t);
	return fds[0];
}

/* Signal every rank process's group still running (a stop, or the end of the job). */
static void signal_ranks(int sig)
{
	for (int k = 0; k < shl_loader.nranks; k++)
		if (procs[k].pid > 0 && kill(-procs[k].pid, sig) < 0)
			kill(procs[k].pid, sig);  /* it left its group (setsid) */
	if (sig != SIGKILL && !kill_at)
		kill_at = shl_mono_ms() + SHL_EXEC_STOP_GRACE_MS;
}

/* Pass on what rank `k`'s pipe `*fd` holds (up to `max` bytes); close it at end-of-file or
 * when `last` (the rank ended). */
static void pump(int k, int *fd, bool err, size_t max, bool last)
{
	static char buf[SHL_EXEC_READ];
	size_t done = 0;

	while (*fd >= 0 && done < max) {
		ssize_t r = read(*fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r > 0) {
			shl_loader_stdio_put(k, err, buf, (size_t)r);
			done += (size_t)r;
			continue;
		}
		if (r == 0 || errno != EAGAIN || last) {
			close(*fd);
			*fd = -1;
		}
		return;
	}
	if (last && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Rank `k` ended with wait status `status`: its output so far goes out, and the job's
 * status follows the rules of thread ranks (docs/process-model.md). */
static void rank_ended(int k, int status)
{
	struct shl_copy *c = &shl_loader.copies[k];
	const char *host = getenv("SHOAL_HOST");
	int none = -1;

	pump(k, &procs[k].out, false, SHL_EXEC_DRAIN_MAX, true);
	pump(k, &procs[k].err, true, SHL_EXEC_DRAIN_MAX, true);
	shl_loader_stdio_rank_done(c);
	procs[k].pid = 0;
	live--;
	shl_copy_stage_set(c, SHL_STAGE_DONE);
	if (WIFEXITED(status)) {
		c->code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		c->code = 128 + sig;
		if (stop_sig || ending)
			return;  /* told to stop: not a failure of its own */
		fprintf(stderr, "shoal: rank %d%s%s: killed by signal SIG%s (%s)\n", c->rank,
			host ? " on host " : "", host ? host : "",
			sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", strsignal(sig));
		/* As a crashing thread rank ends its node: the other ranks are stopped. */
		procs[k].killed = true;
		ending = true;
		atomic_compare_exchange_strong(&shl_loader.first_failed, &none, k);
		signal_ranks(SIGTERM);
		return;
	}
	if (c->code != 0 && !stop_sig && !ending)
		atomic_compare_exchange_strong(&shl_loader.first_failed, &none, k);
}

static void reap(void)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (int k = 0; k < shl_loader.nranks; k++)
			if (procs[k].pid == pid) {
				rank_ended(k, status);
				break;
			}
}

/* The node's signals: SIGCHLD, the stop signals and SIGPIPE, read from `sfd`. */
static void take_signals(int sfd)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		int sig = (int)si.ssi_signo;

		if (sig == SIGCHLD)
			continue;
		if (!stop_sig)
			stop_sig = sig;
		signal_ranks(sig);
	}
	reap();
}

/* Start every rank's process; a failure ends the ranks already started. */
static int start_ranks(int world_size, char **argv)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC), in0 = -1;
	pid_t node = getpid();

	if (null < 0) {
		fprintf(stderr, "shoal: cannot open /dev/null: %s\n", strerror(errno));
		return -1;
	}
	for (int k = 0; k < shl_loader.nranks; k++) {
		int out[2], err[2], in = null;
		char **env = rank_env(k, world_size);
		cpu_set_t cpus;
		bool bound = shl_loader_bind_cpus(k, shl_loader.copies[k].rank, &cpus);
		pid_t pid;

		if (shl_loader.copies[k].rank == 0 && (in = in0 = rank0_stdin()) < 0) {
			fprintf(stderr, "shoal: cannot pass stdin to rank 0: %s\n", strerror(errno));
			return -1;
		}
		if (!env || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
			fprintf(stderr, "shoal: cannot start rank %d: %s\n",
				shl_loader.copies[k].rank, strerror(errno));
			return -1;
		}
		pid = fork();
		if (pid == 0)
			become_rank(k, argv, env, in, out[1], err[1], node, bound ? &cpus : NULL);
		free(env);
		close(out[1]);
		close(err[1]);
		if (in0 > STDIN_FILENO && in == in0)
			close(in0);  /* the stdin thread's pipe: rank 0's alone now */
		if (pid < 0) {
			fprintf(stderr, "shoal: cannot start rank %d of %d: %s\n",
				shl_loader.copies[k].rank, world_size, strerror(errno));
			close(out[0]);
			close(err[0]);
			return -1;
		}
		setpgid(pid, pid);  /* also here: a signal sent at once must find the group */
		fcntl(out[0], F_SETFL, O_NONBLOCK);
		fcntl(err[0], F_SETFL, O_NONBLOCK);
		procs[k] = (struct proc){ .pid = pid, .out = out[0], .err = err[0] };
		shl_copy_stage_set(&shl_loader.copies[k], SHL_STAGE_RUNNING);
		live++;
	}
	close(null);
	return 0;
}

/* Descriptors the node needs: two pipes a rank, its own few. A default soft limit (1024)
 * would stop a node of a few hundred ranks; the ranks get the limit back. */
static void enough_files(int nlocal)
{
	struct rlimit more;

	if (getrlimit(RLIMIT_NOFILE, &files) < 0)
		return;
	more = files;
	if (more.rlim_cur != RLIM_INFINITY && more.rlim_cur < (rlim_t)nlocal * 2 + 64) {
		more.rlim_cur = more.rlim_max;
		setrlimit(RLIMIT_NOFILE, &more);
	}
}

int shl_node_exec_run(int world_size, int nlocal, const int *world, int argc, char **argv)
{
	struct pollfd *fds;
	sigset_t set;
	int sfd, failed, code = 0;

	shl_loader.program = argv[0];
	shl_loader.nranks = nlocal;
	shl_loader.world_size = world_size;
	shl_loader.copies = calloc((size_t)nlocal, sizeof(struct shl_copy));
	procs = calloc((size_t)nlocal, sizeof(struct proc));
	fds = calloc(2 * (size_t)nlocal + 1, sizeof(struct pollfd));
	if (!shl_loader.copies || !procs || !fds) {
		fprintf(stderr, "shoal: out of memory for %d ranks\n", nlocal);
		return 1;
	}
	for (int k = 0; k < nlocal; k++) {
		shl_loader.copies[k].rank = world ? world[k] : k;
		shl_loader.copies[k].argc = argc;
		shl_loader.copies[k].argv = argv;
	}
	/* Before any thread starts: the stdin thread inherits the mask, so the stop signals
	 * and SIGCHLD reach only the signalfd. */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	/* The node's stdout gone (`mpiexec ... | head`): its write fails with EPIPE, SIGPIPE
	 * comes here and goes on to the ranks, as they would get it writing there themselves.
	 * Blocked in the stdin thread too: rank 0 gone, its write just fails. */
	sigaddset(&set, SIGPIPE);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) < 0) {
		fprintf(stderr, "shoal: cannot take the node's signals: %s\n", strerror(errno));
		return 1;
	}
	enough_files(nlocal);
	if (shl_loader_stdio_setup() < 0) {
		fprintf(stderr, "shoal: cannot set up the ranks' output\n");
		return 1;
	}
	if (shl_loader_bind_setup(false) < 0)
		return 1;
	if (start_ranks(world_size, argv) < 0) {
		signal_ranks(SIGKILL);
		while (wait(NULL) > 0 || errno == EINTR)
			;
		shl_exit_now(1);
	}
	while (live > 0) {
		int n = 0, wait_ms = -1;

		fds[n++] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		for (int k = 0; k < nlocal; k++) {
			/* Even a closed pipe keeps its slot (fd -1 is skipped by poll). */
			fds[n++] = (struct pollfd){ .fd = procs[k].out, .events = POLLIN };
			fds[n++] = (struct pollfd){ .fd = procs[k].err, .events = POLLIN };
		}
		if (kill_at)
			wait_ms = kill_at > shl_mono_ms() ? (int)(kill_at - shl_mono_ms()) : 0;
		if (poll(fds, (nfds_t)n, wait_ms) < 0 && errno != EINTR)
			break;
		if (fds[0].revents)
			take_signals(sfd);
		for (int k = 0; k < nlocal; k++) {
			if (fds[1 + 2 * k].revents)
				pump(k, &procs[k].out, false, SHL_EXEC_READ, false);
			if (fds[2 + 2 * k].revents)
				pump(k, &procs[k].err, true, SHL_EXEC_READ, false);
		}
		if (kill_at && shl_mono_ms() >= kill_at) {
			signal_ranks(SIGKILL);
			kill_at = 0;
		}
	}
	fflush(NULL);
	failed = atomic_load(&shl_loader.first_failed);
	if (stop_sig) {
		code = 128 + stop_sig;  /* as the node of thread ranks ends on a stop signal */
	} else if (failed >= 0) {
		struct shl_copy *c = &shl_loader.copies[failed];

		code = c->code & 0xff;
		if (!procs[failed].killed)  /* a killed rank has said so already */
			fprintf(stderr, "shoal: rank %d exited with code %d\n", c->rank, code);
	}
	shl_exit_now(code);
}
