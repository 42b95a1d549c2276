/* mpiexec (and mpirun): parses the command line, makes the per-job directory, starts the node
 * process (or gdb running it, with --gdb), fills the MPIR process table (shl_mpir_publish,
 * also for several hosts), forwards SIGINT/SIGTERM/SIGHUP to it, reports what every rank
 * waits for on SIGQUIT or --timeout, and exits with its status.
 * Entered by the user's shell; single-threaded. Must not leave the job directory behind or
 * wait for ever: a node that ignores a forwarded signal is killed 3 s later. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/clock.h"
#include "loader/jobdir.h"
#include "loader/loader_internal.h"
#include "loader/mpiexec.h"
#include "loader/report.h"

#define SHL_MPIEXEC_VERSION "0.1.0"
/* Grace between forwarding a signal and SIGKILL: long enough to flush stdio of a thousand
 * ranks, short enough that Ctrl-C feels immediate. */
#define SHL_MPIEXEC_KILL_GRACE_S 3
/* Exit status of a job ended by --timeout: coreutils timeout(1)'s, so scripts that already
 * treat 124 as "timed out" keep working. */
#define SHL_MPIEXEC_TIMEOUT_EXIT 124

/* The MPIR process acquisition interface (MPI Forum, "The MPIR Process Acquisition
 * Interface", 2010): a parallel debugger that starts or attaches to mpiexec reads these by
 * name. Every rank of a node is a thread of the one node process, so each entry of the
 * table carries its node's pid (on the node's host); a debugger attaching to it sees the
 * ranks as threads named "rank N". Not static: the debugger finds them in the symbol
 * table. Filled by shl_mpir_publish, for one node or several. */
struct MPIR_PROCDESC {
	char *host_name;
	char *executable_name;
	int pid;
};
enum { MPIR_NULL = 0, MPIR_DEBUG_SPAWNED = 1, MPIR_DEBUG_ABORTING = 2 };
struct MPIR_PROCDESC *MPIR_proctable;
int MPIR_proctable_size;
volatile int MPIR_debug_state;
volatile int MPIR_being_debugged; /* set by a debugger that starts mpiexec */
int MPIR_i_am_starter = 1;        /* mpiexec is not itself a rank */
int MPIR_partial_attach_ok = 1;   /* attaching to the node attaches to every rank anyway */
char MPIR_debug_abort_string[256];
void MPIR_Breakpoint(void);

/* Spellings of the placement and launch options (Open MPI's, then MPICH Hydra's). */
static const char *const host_opts[] = { "--host", "-host", "-H", "-hosts", "--hosts", NULL };
static const char *const hostfile_opts[] = {
	"--hostfile", "-hostfile", "--machinefile", "-machinefile", "-f", NULL };
static const char *const ppn_opts[] = { "-ppn", "--ppn", "-N", "--npernode", "-npernode", NULL };
static const char *const map_opts[] = { "--map-by", "-map-by", NULL };
static const char *const bind_opts[] = { "--bind-to", "-bind-to", "-binding", NULL };
static const char *const output_opts[] = {
	"--output-filename", "-output-filename", "--output-directory", NULL };
static const char *const launcher_opts[] = { "--launcher", "-launcher", "-bootstrap", NULL };
static const char *const agent_opts[] = {
	"--launcher-agent", "-launcher-exec", "-bootstrap-exec", NULL };

/* Open MPI / MPICH options that do not apply to one node: accepted with a warning so their
 * scripts run. The ones in ignored_with_arg take a value. */
static const char *const ignored_flags[] = {
	"--oversubscribe", "-oversubscribe", "--allow-run-as-root", "--timestamp-output",
	"--display-allocation", "--use-hwthread-cpus", "--nooversubscribe",
	"-q", "--quiet", "-v", "--verbose", "--merge-stderr-to-stdout",
	"--noprefix", "-disable-auto-cleanup", "--enable-recovery", NULL,
};
static const char *const ignored_with_arg[] = {
	"--rank-by", "-rank-by", "--prefix", "-prefix", "-iface", "--cpus-per-proc", "--cpus-per-rank", "--personality",
	NULL,
};

/* The whole job as mpiexec sees it. */
struct job {
	long nranks;
	char *program;       /* resolved path */
	char **args;         /* argv from the program on */
	char dir[PATH_MAX];  /* per-job directory, "" until made */
	pid_t node;          /* the node process, or gdb running it (--gdb) */
	bool gdb;            /* --gdb: run the node under gdb with Shoal's extension */
	const char *gdb_x;   /* --gdb-x FILE: gdb commands to run in batch mode after the stop */
	long timeout;        /* --timeout SECONDS (SHOAL_TIMEOUT), 0 for none */
	char ext[PATH_MAX];  /* Shoal's gdb extension (lib/shoal/shoal_gdb.py) */
	sigset_t old_mask;   /* the mask to give children (mpiexec blocks what it waits for) */
	bool nranks_given;   /* -n was on the command line */
	struct shl_place place;  /* hosts from --host/-H/--hostfile; nhosts 0 if none */
	long ppn;            /* -ppn N, 0 if not given */
	bool by_node;        /* --map-by node */
	bool show_placement; /* --show-placement: print where ranks go, run nothing */
	bool display_map;    /* --display-map: print where ranks go on stderr, then run */
	const char *launcher;      /* --launcher NAME, or NULL */
	const char *agent;         /* --launcher-agent CMD, or NULL */
	const char *control_addr;  /* --control-addr IP, or NULL */
	const char *label;   /* SHOAL_OUTPUT_LABEL for --tag-output ("tag") or -l ("rank") */
	const char **env;    /* names given to -x, -genv, -genvlist: sent to every host */
	int nenv;
	bool env_all;        /* -genvall: send every variable */
};

/* Called once the table is filled (MPIR_debug_state says why); a debugger breaks here.
 * The asm keeps the empty call from being optimized away. */
__attribute__((noinline)) void MPIR_Breakpoint(void)
{
	__asm__ volatile("" ::: "memory");
}

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
		"  -genvlist A,B               export A and B for the ranks (on every host)\n"
		"  --tag-output                prefix each line with [1,RANK]<stdout>: (or <stderr>)\n"
		"  -l, -prepend-rank           prefix each line with '[RANK] '\n"
		"  -genvall                    export all of mpiexec's environment to every host\n"
		"  -wdir DIR, --wdir DIR       run the ranks in DIR\n"
		"  --gdb                       run the job under gdb with Shoal's extension, stopped\n"
		"                              before the ranks enter main (docs/debugging.md)\n"
		"  --gdb-x FILE                with --gdb: run gdb commands from FILE in batch mode\n"
		"  --timeout S                 after S seconds report what every rank waits for and\n"
		"                              end the job with status 124 (also SHOAL_TIMEOUT)\n"
		"  --host A,B / -H A:4,B:4     hosts, a name once per slot or NAME:SLOTS\n"
		"  --hostfile FILE             hosts, 'host slots=N' or 'host:N' a line, # comments\n"
		"  -ppn N                      N ranks per host (overrides slots)\n"
		"  --map-by slot|node|ppr:N:node   fill each host's slots (default), round-robin,\n"
		"                              or N ranks per host\n"
		"  --bind-to none|core|hwthread    bind each rank's threads to a core (or CPU) of\n"
		"                              its host, round-robin (default none)\n"
		"  --report-bindings           print each rank's CPUs on stderr\n"
		"  --output-filename DIR       also write each rank's output to\n"
		"                              DIR/1/rank.N/stdout and stderr\n"
		"  --display-map, -print-rank-map   print where ranks go on stderr, then run\n"
		"  --show-placement            print the hosts each rank goes to and exit\n"
		"  --launcher local|ssh|slurm  how node processes start on hosts (default ssh;\n"
		"                              slurm inside an allocation without hosts given)\n"
		"  --launcher-agent 'CMD'      start node processes as CMD HOST shoal-node ...\n"
		"  --control-addr IP           address node processes connect back to\n"
		"  --help, --version\n"
		"All ranks of a node run as threads of one process (shoal-node), each with its own\n"
		"copy of the program; the program must be built with mpicc.\n"
		"Environment: SHOAL_STACK_SIZE (rank stack, default 8M), SHOAL_GDB (gdb to use).\n"
		"kill -QUIT <mpiexec pid> prints what every rank waits for; the job goes on.\n"
		"Only rank 0 reads mpiexec's stdin; other ranks read end-of-file.\n"
		"Jobs on several hosts: docs/offnode.md.\n");
}

/* Remember `name` for forwarding to the node processes (once each). */
static void forward(struct job *job, const char *name, size_t len)
{
	char *n;

	for (int i = 0; i < job->nenv; i++)
		if (strlen(job->env[i]) == len && !strncmp(job->env[i], name, len))
			return;
	n = strndup(name, len);
	job->env = realloc(job->env, (size_t)(job->nenv + 1) * sizeof(*job->env));
	if (!n || !job->env || !len || memchr(n, '=', len)) {
		fprintf(stderr, "mpiexec: bad environment variable name '%.*s'\n", (int)len, name);
		exit(2);
	}
	job->env[job->nenv++] = n;
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

static long seconds(const char *s)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || n < 0) {
		fprintf(stderr, "mpiexec: bad timeout '%s' (want whole seconds)\n", s);
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

/* A program that is here but cannot run ends mpiexec as a shell would (status 126), one
 * built with another MPI with status 1, before any node starts. One that is not here is
 * left to the hosts that run it. */
static void check_runnable(const char *program)
{
	char why[PATH_MAX + 256];
	struct stat st;

	if (stat(program, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "mpiexec: %s: is a directory\n", program);
		exit(126);
	}
	if (access(program, X_OK) < 0) {
		fprintf(stderr, "mpiexec: %s: %s\n", program, strerror(errno));
		exit(126);
	}
	/* Built with another MPI: refused once, here, rather than by every node. */
	if (shl_loader_check_program(program, why, sizeof(why)) == -EPROTO) {
		fprintf(stderr, "mpiexec: %s\n", why);
		exit(1);
	}
}

static void parse(int argc, char **argv, struct job *job)
{
	char why[2 * SHL_PLACE_HOST_MAX + PATH_MAX];
	int i;

	job->nranks = 1;
	if (getenv("SHOAL_TIMEOUT") && *getenv("SHOAL_TIMEOUT"))
		job->timeout = seconds(getenv("SHOAL_TIMEOUT"));
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-n") || !strcmp(a, "-np") || !strcmp(a, "--np") ||
			   !strcmp(a, "--n") || !strcmp(a, "-c")) {
			job->nranks = count(need(argc, argv, i));
			job->nranks_given = true;
			i++;
		} else if (!strncmp(a, "-n=", 3) || !strncmp(a, "--n=", 4) ||
			   !strncmp(a, "-np=", 4) || !strncmp(a, "--np=", 5)) {
			job->nranks = count(strchr(a, '=') + 1);
			job->nranks_given = true;
		} else if (in(a, host_opts)) {
			if (shl_place_add_list(&job->place, need(argc, argv, i++), why,
					       sizeof(why)) < 0)
				goto bad_place;
		} else if (in(a, hostfile_opts)) {
			if (shl_place_add_file(&job->place, need(argc, argv, i++), why,
					       sizeof(why)) < 0)
				goto bad_place;
		} else if (in(a, ppn_opts)) {
			job->ppn = count(need(argc, argv, i++));
		} else if (in(a, map_opts)) {
			const char *m = need(argc, argv, i++);

			char tail[16] = "";
			long ppr = 0;

			if (!strncmp(m, "ppr:", 4) &&
			    sscanf(m + 4, "%ld:%15s", &ppr, tail) == 2 && ppr > 0 &&
			    !strcmp(tail, "node")) {
				job->ppn = ppr;  /* Open MPI's N per node */
			} else if (!strcmp(m, "node")) {
				job->by_node = true;
			} else if (strcmp(m, "slot") && strcmp(m, "core") && strcmp(m, "hwthread") &&
				   strcmp(m, "socket") && strcmp(m, "numa")) {
				fprintf(stderr, "mpiexec: --map-by %s: want slot, node or ppr:N:node\n",
					m);
				exit(2);
			}
		} else if (in(a, bind_opts)) {
			char kind[32];
			const char *b = need(argc, argv, i++);

			snprintf(kind, sizeof(kind), "%.*s", (int)strcspn(b, ":"), b);
			if (!strcmp(kind, "core") || !strcmp(kind, "hwthread") ||
			    !strcmp(kind, "none")) {
				setenv("SHOAL_BIND", kind, 1);
			} else if (!strcmp(kind, "socket") || !strcmp(kind, "numa") ||
				   !strcmp(kind, "l3cache") || !strcmp(kind, "board")) {
				fprintf(stderr, "mpiexec: warning: --bind-to %s is not supported; ranks "
					"are not bound (use core or hwthread)\n", b);
				setenv("SHOAL_BIND", "none", 1);
			} else {
				fprintf(stderr, "mpiexec: --bind-to %s: want none, core or hwthread\n", b);
				exit(2);
			}
			forward(job, "SHOAL_BIND", strlen("SHOAL_BIND"));
		} else if (!strcmp(a, "--report-bindings") || !strcmp(a, "-report-bindings")) {
			setenv("SHOAL_REPORT_BINDINGS", "1", 1);
			forward(job, "SHOAL_REPORT_BINDINGS", strlen("SHOAL_REPORT_BINDINGS"));
		} else if (in(a, output_opts)) {
			const char *d = need(argc, argv, i++);
			char *abs = *d == '/' ? strdup(d) : NULL;

			if (*d != '/') {
				char cwd[PATH_MAX];

				if (getcwd(cwd, sizeof(cwd)) && asprintf(&abs, "%s/%s", cwd, d) < 0)
					abs = NULL;
			}
			if (!abs) {
				fprintf(stderr, "mpiexec: %s %s: cannot make the path absolute\n", a, d);
				exit(2);
			}
			setenv("SHOAL_OUTPUT_DIR", abs, 1);
			forward(job, "SHOAL_OUTPUT_DIR", strlen("SHOAL_OUTPUT_DIR"));
		} else if (!strcmp(a, "--show-placement")) {
			job->show_placement = true;
		} else if (!strcmp(a, "--display-map") || !strcmp(a, "-display-map") ||
			   !strcmp(a, "-print-rank-map") || !strcmp(a, "--print-rank-map")) {
			job->display_map = true;  /* Open MPI's: print the map, then run */
		} else if (in(a, launcher_opts)) {
			job->launcher = need(argc, argv, i++);
			if (strcmp(job->launcher, "local") && strcmp(job->launcher, "ssh") &&
			    strcmp(job->launcher, "rsh") && strcmp(job->launcher, "slurm")) {
				fprintf(stderr, "mpiexec: --launcher %s: want local, ssh or slurm\n",
					job->launcher);
				exit(2);
			}
		} else if (in(a, agent_opts)) {
			job->agent = need(argc, argv, i++);
		} else if (!strcmp(a, "--control-addr")) {
			job->control_addr = need(argc, argv, i++);
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help") || !strcmp(a, "-help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version") || !strcmp(a, "-version")) {
			printf("mpiexec (Shoal) %s\n", SHL_MPIEXEC_VERSION);
			exit(0);
		} else if (!strcmp(a, "--gdb") || !strcmp(a, "-gdb")) {
			job->gdb = true;
		} else if (!strcmp(a, "--gdb-x")) {
			job->gdb = true;
			job->gdb_x = need(argc, argv, i++);
		} else if (!strcmp(a, "--timeout") || !strcmp(a, "-timeout")) {
			job->timeout = seconds(need(argc, argv, i++));
		} else if (!strncmp(a, "--timeout=", 10)) {
			job->timeout = seconds(a + 10);
		} else if (!strcmp(a, "-x")) {
			char *v = need(argc, argv, i++);
			char *eq = strchr(v, '=');

			if (eq) {
				*eq = '\0';
				setenv(v, eq + 1, 1);
			}
			forward(job, v, strlen(v));
		} else if (!strcmp(a, "-genv") || !strcmp(a, "-env")) {
			if (i + 2 >= argc) {
				fprintf(stderr, "mpiexec: %s needs a name and a value\n", a);
				exit(2);
			}
			setenv(argv[i + 1], argv[i + 2], 1);
			forward(job, argv[i + 1], strlen(argv[i + 1]));
			i += 2;
		} else if (!strcmp(a, "-genvlist") || !strcmp(a, "-envlist")) {
			const char *l = need(argc, argv, i++);

			while (*l) {
				size_t n = strcspn(l, ",");

				if (n)
					forward(job, l, n);
				l += n + (l[n] == ',');
			}
		} else if (!strcmp(a, "-genvall") || !strcmp(a, "-envall")) {
			job->env_all = true;
		} else if (!strcmp(a, "-genvnone") || !strcmp(a, "-envnone")) {
			job->env_all = false;
		} else if (!strcmp(a, "--tag-output") || !strcmp(a, "-tag-output")) {
			job->label = "tag";
		} else if (!strcmp(a, "-l") || !strcmp(a, "-prepend-rank") ||
			   !strcmp(a, "--prepend-rank")) {
			job->label = "rank";
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
	job->program = *argv[i] ? resolve(argv[i]) : NULL;
	if (!job->program) {
		fprintf(stderr, "mpiexec: %s: command not found\n", *argv[i] ? argv[i] : "''");
		exit(127);
	}
	check_runnable(job->program);
	job->args = argv + i;
	return;
bad_place:
	fprintf(stderr, "mpiexec: %s\n", why);
	exit(2);
}

/* <dir of the real mpiexec>/../lib/shoal/<name>, so an installed tree works anywhere. */
static int lib_path(const char *name, char *buf, size_t len)
{
	char self[PATH_MAX];
	char *slash;

	if (!realpath("/proc/self/exe", self))
		return -1;
	slash = strrchr(self, '/');
	*slash = '\0';
	if ((size_t)snprintf(buf, len, "%s/../lib/shoal/%s", self, name) >= len)
		return -1;
	return access(buf, R_OK);
}

/* The gdb command line of --gdb: the extension, its start command, the user's commands. */
static int gdb_args(const struct job *job, char **argv)
{
	const char *gdb = getenv("SHOAL_GDB");
	int k = 0;

	argv[k++] = (char *)(gdb && *gdb ? gdb : "gdb");
	argv[k++] = "-q";
	if (job->gdb_x) {
		argv[k++] = "-batch";
		argv[k++] = "-nx";
	}
	argv[k++] = "-x";
	argv[k++] = (char *)job->ext;
	argv[k++] = "-ex";
	argv[k++] = "shoal-start";
	if (job->gdb_x) {
		argv[k++] = "-x";
		argv[k++] = (char *)job->gdb_x;
	}
	argv[k++] = "--args";
	return k;
}

static pid_t start(struct job *job, const char *node, const sigset_t *old)
{
	int nargs = 0, k = 0;
	char **argv, nbuf[24];
	pid_t pid;

	while (job->args[nargs])
		nargs++;
	argv = calloc((size_t)nargs + 20, sizeof(char *));
	if (!argv)
		return -1;
	if (job->gdb) {
		k = gdb_args(job, argv);
		setenv("SHOAL_DEBUG_STOP", "1", 1);
	}
	snprintf(nbuf, sizeof(nbuf), "%ld", job->nranks);
	argv[k] = job->gdb ? (char *)node : "shoal-node";
	argv[k + 1] = job->dir;
	argv[k + 2] = nbuf;
	argv[k + 3] = job->program;
	for (int i = 1; i < nargs; i++)
		argv[k + 3 + i] = job->args[i];
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* If mpiexec dies (even by SIGKILL) the node must not run on unattended. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigprocmask(SIG_SETMASK, old, NULL);
		/* Ctrl-\ reaches the whole process group: mpiexec reports, the node goes on. */
		if (!job->gdb)
			signal(SIGQUIT, SIG_IGN);
		if (job->gdb)
			execvp(argv[0], argv);
		else
			execv(node, argv);
		fprintf(stderr, "mpiexec: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	return pid;
}

void shl_mpir_publish(const struct shl_place *p, const char *program, const pid_t *node_pid)
{
	MPIR_proctable = calloc((size_t)p->nranks, sizeof(*MPIR_proctable));
	if (!MPIR_proctable)
		return;
	for (long r = 0; r < p->nranks; r++) {
		uint32_t k = p->node_of[r];

		MPIR_proctable[r].host_name = p->hosts[p->host_of_node[k]].name;
		MPIR_proctable[r].executable_name = (char *)program;
		MPIR_proctable[r].pid = (int)node_pid[k];
	}
	MPIR_proctable_size = (int)p->nranks;
	MPIR_debug_state = MPIR_DEBUG_SPAWNED;
	MPIR_Breakpoint();
}

/* Print on stderr what every rank waits for: gdb attaches to the node for a moment with
 * Shoal's extension (the ranks are stopped meanwhile) and runs info ranks and mpi queues. */
static void report(const struct job *job, const char *why)
{
	pid_t g;
	int status;

	fprintf(stderr, "shoal: hang report (%s): what every rank is waiting for\n", why);
	fflush(stderr);
	g = shl_report_start(job->node, job->ext, STDERR_FILENO, &job->old_mask);
	if (g > 0)
		while (waitpid(g, &status, 0) < 0 && errno == EINTR)
			;
}

/* Wait for the node, forwarding stop signals; returns its wait status. */
static int supervise(const struct job *job, const sigset_t *set, bool *timed_out,
		     bool *deadlocked)
{
	struct timespec tick = { .tv_sec = 0, .tv_nsec = 200 * 1000 * 1000 };
	const long grace_ms = 1000 * SHL_MPIEXEC_KILL_GRACE_S;
	long kill_at = 0, end_at = job->timeout ? shl_mono_ms() + 1000 * job->timeout : 0;
	pid_t node = job->node;
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
		if (sig == SIGQUIT && !job->gdb)
			report(job, "SIGQUIT");
		if (sig == SIGUSR1 && si.si_pid == node && !*deadlocked) {
			/* The node's watchdog saw every rank blocked for good. */
			*deadlocked = true;
			report(job, "likely deadlock");
			kill(node, SIGTERM);
			kill_at = shl_mono_ms() + grace_ms;
		}
		/* Under gdb the terminal's Ctrl-C belongs to gdb (it interrupts the ranks). */
		if ((sig == SIGINT && !job->gdb) || sig == SIGTERM || sig == SIGHUP) {
			kill(node, sig);
			if (!kill_at)
				kill_at = shl_mono_ms() + grace_ms;
		}
		if (end_at && shl_mono_ms() >= end_at && !*timed_out) {
			char why[64];

			*timed_out = true;
			snprintf(why, sizeof(why), "--timeout %ld s expired", job->timeout);
			if (!job->gdb)
				report(job, why);
			kill(node, SIGTERM);
			kill_at = shl_mono_ms() + grace_ms;
		}
		if (kill_at && shl_mono_ms() >= kill_at)
			kill(node, SIGKILL);
	}
}

/* Whether `name` is this machine: the single-node path needs no launcher for it. */
static bool is_this_host(const char *name)
{
	char self[SHL_PLACE_HOST_MAX] = "";
	size_t n;

	if (!strcmp(name, "localhost") || !strcmp(name, "127.0.0.1"))
		return true;
	if (gethostname(self, sizeof(self) - 1) < 0)
		return false;
	n = strcspn(self, ".");
	return !strcmp(name, self) || (strlen(name) == n && !strncmp(name, self, n));
}

/* Map the ranks on the hosts given (or on this host alone); returns whether the job needs
 * one node process per host started through a launcher. */
static bool place(struct job *job)
{
	bool hosts = job->place.nhosts > 0;
	char why[64], self[SHL_PLACE_HOST_MAX] = "localhost";

	if (!hosts) {
		gethostname(self, sizeof(self) - 1);
		shl_place_add_list(&job->place, self, why, sizeof(why));
	} else if (!job->nranks_given) {
		job->nranks = shl_place_slots(&job->place, job->ppn);
		if (job->nranks > 1000000) {
			fprintf(stderr, "mpiexec: %ld slots is more than a job may have\n",
				job->nranks);
			exit(2);
		}
	}
	if (shl_place_map(&job->place, job->nranks, hosts ? job->ppn : 0, job->by_node) < 0) {
		fprintf(stderr, "mpiexec: out of memory placing %ld ranks\n", job->nranks);
		exit(1);
	}
	return job->launcher || job->agent ||
	       (hosts && (job->place.nnodes > 1 ||
			  !is_this_host(job->place.hosts[job->place.host_of_node[0]].name)));
}

int main(int argc, char **argv)
{
	struct job job = { 0 };
	char node[PATH_MAX];
	sigset_t set, old;
	int status, code;
	bool timed_out = false, deadlocked = false, multi;

	parse(argc, argv, &job);
	if (job.label) {
		setenv("SHOAL_OUTPUT_LABEL", job.label, 1);
		forward(&job, "SHOAL_OUTPUT_LABEL", strlen("SHOAL_OUTPUT_LABEL"));
	} else {
		unsetenv("SHOAL_OUTPUT_LABEL");
	}
	/* mpiexec judges deadlocks across hosts; the nodes' watchdogs must agree on "off". */
	if (getenv("SHOAL_DEADLOCK_S"))
		forward(&job, "SHOAL_DEADLOCK_S", strlen("SHOAL_DEADLOCK_S"));
	if (!job.place.nhosts && !job.agent &&
	    (job.launcher ? !strcmp(job.launcher, "slurm") : shl_slurm_inside())) {
		/* Inside an allocation without hosts given: its nodes, started by srun. */
		char why[PATH_MAX];

		if (!shl_slurm_inside()) {
			fprintf(stderr, "mpiexec: --launcher slurm: not inside a Slurm allocation "
				"(no SLURM_JOB_ID and SLURM_JOB_NODELIST); run it under salloc or "
				"sbatch, or give hosts\n");
			return 2;
		}
		if (shl_slurm_hosts(&job.place, why, sizeof(why)) < 0) {
			fprintf(stderr, "mpiexec: %s\n", why);
			return 1;
		}
		/* An allocation of only this host runs here, as a job on one node does (Open
		 * MPI's mpirun starts no daemon there either), unless srun was asked for. */
		if (job.launcher || job.place.nhosts > 1 || !is_this_host(job.place.hosts[0].name))
			job.launcher = "slurm";
	}
	multi = place(&job);
	if (job.show_placement) {
		shl_place_print(&job.place, stdout);
		return 0;
	}
	if (job.display_map)
		shl_place_print(&job.place, stderr);
	if (multi && job.gdb) {
		fprintf(stderr, "mpiexec: --gdb runs one node only; it cannot be used with a "
			"launcher or several hosts yet\n");
		return 2;
	}
	if (lib_path("shoal_gdb.py", job.ext, sizeof(job.ext)) < 0 && job.gdb) {
		fprintf(stderr, "mpiexec: cannot find Shoal's gdb extension at %s\n", job.ext);
		return 1;
	}
	if (lib_path("shoal-node", node, sizeof(node)) < 0) {
		fprintf(stderr, "mpiexec: cannot find the node program at %s\n", node);
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	job.old_mask = old;
	if (MPIR_being_debugged && !job.gdb) {
		/* A parallel debugger started us: the ranks of every node wait before main
		 * until it sets MPIR_debug_gate in their node process (docs/debugging.md). */
		setenv("SHOAL_DEBUG_STOP", "gate", 1);
		forward(&job, "SHOAL_DEBUG_STOP", strlen("SHOAL_DEBUG_STOP"));
	}
	if (multi) {
		struct shl_launch l = {
			.place = &job.place, .node_path = node, .program = job.program,
			.args = job.args, .launcher = job.launcher, .agent = job.agent,
			.control_addr = job.control_addr, .timeout = job.timeout,
			.env = job.env, .nenv = job.nenv, .env_all = job.env_all,
			.old_mask = old, .waited = &set,
		};

		return shl_launch_run(&l);
	}
	int err = shl_jobdir_make("shoal", job.dir, sizeof(job.dir));
	if (err < 0) {
		fprintf(stderr, "mpiexec: cannot create a job directory in /dev/shm, $TMPDIR or "
			"/tmp: %s\n", strerror(-err));
		return 1;
	}
	job.node = start(&job, node, &old);
	if (job.node < 0) {
		fprintf(stderr, "mpiexec: cannot start the node process: %s\n", strerror(errno));
		shl_jobdir_remove(job.dir);
		return 1;
	}
	if (!job.gdb) {  /* under --gdb, gdb is the node's debugger already */
		pid_t pid = job.node;

		shl_mpir_publish(&job.place, job.program, &pid);
	}
	status = supervise(&job, &set, &timed_out, &deadlocked);
	shl_jobdir_remove(job.dir);
	if (deadlocked) {
		fprintf(stderr, "shoal: job ended as a likely deadlock\n");
		return SHL_REPORT_DEADLOCK_EXIT;  /* the node found it (it asks with SIGUSR1) */
	}
	if (timed_out) {
		fprintf(stderr, "shoal: job ended by --timeout after %ld s\n", job.timeout);
		return SHL_MPIEXEC_TIMEOUT_EXIT;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "shoal: node process killed by signal %s (%s)\n",
			sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?",
			strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	code = WEXITSTATUS(status);
	return code;
}
