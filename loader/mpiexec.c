/* mpiexec (and mpirun): parses the command line, makes the per-job directory, starts the node
 * process, forwards SIGINT/SIGTERM/SIGHUP to it and exits with its status.
 * Entered by the user's shell; single-threaded. Must not leave the job directory behind or
 * wait for ever: a node that ignores a forwarded signal is killed 3 s later. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SHL_MPIEXEC_VERSION "0.1.0"
/* Grace between forwarding a signal and SIGKILL: long enough to flush stdio of a thousand
 * ranks, short enough that Ctrl-C feels immediate. */
#define SHL_MPIEXEC_KILL_GRACE_S 3

/* Open MPI / MPICH options that do not apply to one node: accepted with a warning so their
 * scripts run. The ones in with_arg take a value. */
static const char *const ignored_flags[] = {
	"--oversubscribe", "-oversubscribe", "--allow-run-as-root", "--tag-output",
	"-tag-output", "--timestamp-output", "--report-bindings", "-report-bindings",
	"--display-map", "--display-allocation", "--use-hwthread-cpus", "--nooversubscribe",
	"-q", "--quiet", "-v", "--verbose", "-l", "-prepend-rank", "--merge-stderr-to-stdout",
	"--noprefix", "-disable-auto-cleanup", "--enable-recovery", NULL,
};
static const char *const ignored_with_arg[] = {
	"--bind-to", "-bind-to", "--map-by", "-map-by", "--rank-by", "-rank-by", "--hostfile",
	"-hostfile", "--machinefile", "-machinefile", "-f", "-H", "--host", "-host", "-hosts",
	"-ppn", "-N", "--npernode", "-npernode", "--prefix", "-prefix", "--output-filename",
	"-iface", "-launcher", "-bootstrap", "--cpus-per-proc", "--cpus-per-rank",
	"--personality", NULL,
};

/* The whole job as mpiexec sees it. */
struct job {
	long nranks;
	char *program;       /* resolved path */
	char **args;         /* argv from the program on */
	char dir[PATH_MAX];  /* per-job directory, "" until made */
	pid_t node;
};

static bool in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: mpiexec -n N [options] program [args...]\n"
		"  -n N, -np N, --np N, -c N   number of ranks (default 1)\n"
		"  -x NAME[=VALUE]             export NAME (set it to VALUE) for the ranks\n"
		"  -genv NAME VALUE, -env NAME VALUE   set NAME for the ranks\n"
		"  -wdir DIR, --wdir DIR       run the ranks in DIR\n"
		"  --help, --version\n"
		"All ranks of a node run as threads of one process (shoal-node), each with its own\n"
		"copy of the program; the program must be built with mpicc.\n"
		"Environment: SHOAL_STACK_SIZE (rank stack, default 8M).\n"
		"Open MPI / MPICH placement options (--bind-to, --map-by, --hostfile, ...) are\n"
		"accepted and ignored with a warning.\n");
}

static long count(const char *s)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || n < 1 || n > 1000000) {
		fprintf(stderr, "mpiexec: bad number of ranks '%s'\n", s);
		exit(2);
	}
	return n;
}

static char *need(int argc, char **argv, int i)
{
	if (i + 1 >= argc) {
		fprintf(stderr, "mpiexec: %s needs a value\n", argv[i]);
		exit(2);
	}
	return argv[i + 1];
}

/* Like execvp: a name without '/' is looked up in PATH. */
static char *resolve(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return strdup(name);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *end = strchrnul(path, ':');
		int len = (int)(end - path);

		snprintf(buf, sizeof(buf), "%.*s/%s", len, len ? path : ".", name);
		if (access(buf, X_OK) == 0)
			return strdup(buf);
		path = *end ? end + 1 : end;
	}
	return NULL;
}

static void parse(int argc, char **argv, struct job *job)
{
	int i;

	job->nranks = 1;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-n") || !strcmp(a, "-np") || !strcmp(a, "--np") ||
			   !strcmp(a, "--n") || !strcmp(a, "-c")) {
			job->nranks = count(need(argc, argv, i));
			i++;
		} else if (!strncmp(a, "-n=", 3) || !strncmp(a, "--n=", 4) ||
			   !strncmp(a, "-np=", 4) || !strncmp(a, "--np=", 5)) {
			job->nranks = count(strchr(a, '=') + 1);
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help") || !strcmp(a, "-help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version") || !strcmp(a, "-version")) {
			printf("mpiexec (Shoal) %s\n", SHL_MPIEXEC_VERSION);
			exit(0);
		} else if (!strcmp(a, "-x")) {
			char *v = need(argc, argv, i++);
			char *eq = strchr(v, '=');

			if (eq) {
				*eq = '\0';
				setenv(v, eq + 1, 1);
			}
		} else if (!strcmp(a, "-genv") || !strcmp(a, "-env")) {
			setenv(need(argc, argv, i), need(argc, argv, i + 1), 1);
			i += 2;
		} else if (!strcmp(a, "-wdir") || !strcmp(a, "--wdir") || !strcmp(a, "-wd")) {
			const char *d = need(argc, argv, i++);

			if (chdir(d) < 0) {
				fprintf(stderr, "mpiexec: cannot change to %s: %s\n", d, strerror(errno));
				exit(1);
			}
		} else if (!strcmp(a, "--mca") || !strcmp(a, "-mca") || !strcmp(a, "--gmca")) {
			need(argc, argv, i + 1);
			fprintf(stderr, "mpiexec: warning: ignoring %s %s %s\n", a, argv[i + 1],
				argv[i + 2]);
			i += 2;
		} else if (in(a, ignored_with_arg)) {
			fprintf(stderr, "mpiexec: warning: ignoring %s %s\n", a, need(argc, argv, i));
			i++;
		} else if (in(a, ignored_flags) || strchr(a, '=')) {
			fprintf(stderr, "mpiexec: warning: ignoring %s\n", a);
		} else {
			fprintf(stderr, "mpiexec: unknown option %s (see mpiexec --help)\n", a);
			exit(2);
		}
	}
	if (i >= argc) {
		usage(stderr);
		exit(2);
	}
	for (int k = i + 1; k < argc; k++)
		if (!strcmp(argv[k], ":")) {
			fprintf(stderr, "mpiexec: several programs (':') are not supported yet\n");
			exit(2);
		}
	job->program = resolve(argv[i]);
	if (!job->program) {
		fprintf(stderr, "mpiexec: %s: command not found\n", argv[i]);
		exit(127);
	}
	job->args = argv + i;
}

/* /dev/shm when there is one (copies on tmpfs load fastest), else $TMPDIR, else /tmp. */
static int make_dir(struct job *job)
{
	const char *bases[] = { "/dev/shm", getenv("TMPDIR"), "/tmp" };
	struct stat st;

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (!bases[i] || stat(bases[i], &st) < 0 || !S_ISDIR(st.st_mode) ||
		    access(bases[i], W_OK | X_OK) < 0)
			continue;
		snprintf(job->dir, sizeof(job->dir), "%s/shoal-%d", bases[i], (int)getpid());
		if (mkdir(job->dir, 0700) == 0)
			return 0;
		if (errno == EEXIST) {
			/* a stale directory of an earlier job whose pid we reuse */
			DIR *d = opendir(job->dir);
			struct dirent *e;

			while (d && (e = readdir(d)))
				unlinkat(dirfd(d), e->d_name, 0);
			if (d)
				closedir(d);
			return 0;
		}
	}
	job->dir[0] = '\0';
	fprintf(stderr, "mpiexec: cannot create a job directory in /dev/shm, $TMPDIR or /tmp\n");
	return -1;
}

static void remove_dir(struct job *job)
{
	DIR *d;
	struct dirent *e;

	if (!job->dir[0])
		return;
	d = opendir(job->dir);
	if (d) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(job->dir);
}

/* <dir of the real mpiexec>/../lib/shoal/shoal-node, so an installed tree works anywhere. */
static int node_path(char *buf, size_t len)
{
	char self[PATH_MAX];
	char *slash;

	if (!realpath("/proc/self/exe", self))
		return -1;
	slash = strrchr(self, '/');
	*slash = '\0';
	if ((size_t)snprintf(buf, len, "%s/../lib/shoal/shoal-node", self) >= len)
		return -1;
	return access(buf, X_OK);
}

static pid_t start(struct job *job, const char *node, const sigset_t *old)
{
	int nargs = 0;
	char **argv, nbuf[24];
	pid_t pid;

	while (job->args[nargs])
		nargs++;
	argv = calloc((size_t)nargs + 5, sizeof(char *));
	if (!argv)
		return -1;
	snprintf(nbuf, sizeof(nbuf), "%ld", job->nranks);
	argv[0] = "shoal-node";
	argv[1] = job->dir;
	argv[2] = nbuf;
	argv[3] = job->program;
	for (int i = 1; i < nargs; i++)
		argv[3 + i] = job->args[i];
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* If mpiexec dies (even by SIGKILL) the node must not run on unattended. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigprocmask(SIG_SETMASK, old, NULL);
		execv(node, argv);
		fprintf(stderr, "mpiexec: cannot run %s: %s\n", node, strerror(errno));
		_exit(127);
	}
	free(argv);
	return pid;
}

/* Wait for the node, forwarding stop signals; returns its wait status. */
static int supervise(pid_t node, const sigset_t *set)
{
	struct timespec tick = { .tv_sec = 0, .tv_nsec = 200 * 1000 * 1000 };
	time_t kill_at = 0;
	int status;

	for (;;) {
		siginfo_t si;
		int sig;
		pid_t r = waitpid(node, &status, WNOHANG);

		if (r == node)
			return status;
		if (r < 0 && errno != EINTR)
			return 1 << 8;
		sig = sigtimedwait(set, &si, &tick);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			kill(node, sig);
			if (!kill_at)
				kill_at = time(NULL) + SHL_MPIEXEC_KILL_GRACE_S;
		}
		if (kill_at && time(NULL) >= kill_at)
			kill(node, SIGKILL);
	}
}

int main(int argc, char **argv)
{
	struct job job = { 0 };
	char node[PATH_MAX];
	sigset_t set, old;
	int status, code;

	parse(argc, argv, &job);
	if (node_path(node, sizeof(node)) < 0) {
		fprintf(stderr, "mpiexec: cannot find the node program at %s\n", node);
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (make_dir(&job) < 0)
		return 1;
	job.node = start(&job, node, &old);
	if (job.node < 0) {
		fprintf(stderr, "mpiexec: cannot start the node process: %s\n", strerror(errno));
		remove_dir(&job);
		return 1;
	}
	status = supervise(job.node, &set);
	remove_dir(&job);
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "shoal: node process killed by signal %s (%s)\n",
			sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?",
			strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	code = WEXITSTATUS(status);
	return code;
}
