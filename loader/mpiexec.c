/* mpiexec (and mpirun): the options (one table: the parser and --help), the placement, the
 * per-job directory of a job on this host, and the MPIR process table (shl_mpir_publish).
 * Every job runs through the launch code (loader/mpiexec_launch.c, shl_launch_run), on
 * this host alone too, but one under --gdb: gdb runs that node and owns the terminal, and
 * mpiexec only waits for it (run_gdb).
 * Entered by the user's shell; single-threaded. Must not leave the job directory behind or
 * wait for ever: gdb ignoring a forwarded signal is killed 3 s later. */
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

#define SHL_MPIEXEC_VERSION "0.1.0"

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

/* What mpiexec does with an option. */
enum opt_kind {
	OPT_TAKEN,    /* acted on */
	OPT_IGNORED,  /* Open MPI's or MPICH's, meaningless here: a warning, the job runs */
	OPT_REFUSED,  /* asks for what Shoal cannot do: an error naming it */
};

/* What a taken option sets; parse() acts on it. */
enum opt_id {
	O_NONE, O_NP, O_HOST, O_HOSTFILE, O_PPN, O_MAP_BY, O_SHOW_PLACEMENT, O_DISPLAY_MAP,
	O_LAUNCHER, O_AGENT, O_CONTROL_ADDR, O_HELP, O_VERSION, O_GDB, O_GDB_X, O_TIMEOUT,
	O_EXPORT, O_GENV, O_GENVLIST, O_GENVALL, O_GENVNONE, O_TAG_OUTPUT, O_PREPEND_RANK,
	O_WDIR, O_BIND_TO, O_REPORT_BINDINGS, O_OUTPUT_DIR, O_PRIVATE_LIB,
};

/* One option: its spellings (Shoal's first, then Open MPI's and MPICH Hydra's), the words
 * it takes after it (0, 1 or 2; one word may also follow `=`: --np=4), what they are
 * called in --help, and its help text (lines after the first start with a tab). The
 * parser and --help are both made from this table, so one cannot list what the other
 * does not take. */
struct opt {
	const char *names[7];
	int nargs;
	const char *arg;
	enum opt_kind kind;
	enum opt_id id;
	const char *help;
};

static const struct opt opts[] = {
	{ { "-n", "-np", "--np", "--n", "-c" }, 1, "N", OPT_TAKEN, O_NP,
	  "number of ranks (default 1, or the hosts'\n\tslots)" },
	{ { "-x" }, 1, "NAME[=VALUE]", OPT_TAKEN, O_EXPORT,
	  "export NAME (set to VALUE) to every host" },
	{ { "-genv", "-env" }, 2, "NAME VALUE", OPT_TAKEN, O_GENV,
	  "set NAME to VALUE for the ranks, every host" },
	{ { "-genvlist", "-envlist" }, 1, "A,B", OPT_TAKEN, O_GENVLIST,
	  "export A and B to every host" },
	{ { "-genvall", "-envall" }, 0, NULL, OPT_TAKEN, O_GENVALL,
	  "export all of mpiexec's environment" },
	{ { "-genvnone", "-envnone" }, 0, NULL, OPT_TAKEN, O_GENVNONE,
	  "undo -genvall: export only what is named" },
	{ { "--tag-output", "-tag-output" }, 0, NULL, OPT_TAKEN, O_TAG_OUTPUT,
	  "prefix each line with [1,RANK]<stdout>:\n\t(or <stderr>:)" },
	{ { "-l", "-prepend-rank", "--prepend-rank" }, 0, NULL, OPT_TAKEN, O_PREPEND_RANK,
	  "prefix each line with '[RANK] '" },
	{ { "-wdir", "--wdir", "-wd" }, 1, "DIR", OPT_TAKEN, O_WDIR,
	  "run the ranks in DIR" },
	{ { "--private-lib" }, 1, "NAME", OPT_TAKEN, O_PRIVATE_LIB,
	  "load library NAME once per rank, as the\n"
	  "\tprogram (a soname, file name, path or stem;\n"
	  "\trepeat it, or NAME:NAME); every host gets\n"
	  "\tSHOAL_PRIVATE_LIBS with these names added" },
	{ { "--timeout", "-timeout" }, 1, "S", OPT_TAKEN, O_TIMEOUT,
	  "after S seconds report what every rank waits\n"
	  "\tfor and end the job with status 124 (also\n\tSHOAL_TIMEOUT)" },
	{ { "--gdb", "-gdb" }, 0, NULL, OPT_TAKEN, O_GDB,
	  "run the job under gdb with Shoal's extension,\n"
	  "\tstopped before the ranks enter main\n\t(docs/debugging.md)" },
	{ { "--gdb-x" }, 1, "FILE", OPT_TAKEN, O_GDB_X,
	  "--gdb, then gdb's commands from FILE (batch)" },
	{ { "--host", "-host", "-H", "-hosts", "--hosts" }, 1, "HOSTS", OPT_TAKEN, O_HOST,
	  "hosts, comma-separated: a name once per slot,\n\tor NAME:SLOTS" },
	{ { "--hostfile", "-hostfile", "--machinefile", "-machinefile", "-f" }, 1, "FILE",
	  OPT_TAKEN, O_HOSTFILE, "hosts, 'host slots=N' or 'host:N' a line,\n\t# comments" },
	{ { "-ppn", "--ppn", "-N", "--npernode", "-npernode" }, 1, "N", OPT_TAKEN, O_PPN,
	  "N ranks per host (overrides slots)" },
	{ { "--map-by", "-map-by" }, 1, "slot|node|ppr:N:node", OPT_TAKEN, O_MAP_BY,
	  "fill each host's slots (default; also core,\n"
	  "\thwthread, socket, numa), deal the ranks\n\tround-robin over the hosts, or N a host" },
	{ { "--bind-to", "-bind-to", "-binding" }, 1, "none|core|hwthread", OPT_TAKEN, O_BIND_TO,
	  "bind each rank's threads to a core (or CPU)\n"
	  "\tof its host, round-robin (default none;\n\tsocket, numa, ... warn and bind none)" },
	{ { "--report-bindings", "-report-bindings" }, 0, NULL, OPT_TAKEN, O_REPORT_BINDINGS,
	  "print each rank's CPUs on stderr" },
	{ { "--output-filename", "-output-filename", "--output-directory" }, 1, "DIR", OPT_TAKEN,
	  O_OUTPUT_DIR, "also write each rank's output to\n\tDIR/1/rank.N/stdout and stderr" },
	{ { "--show-placement" }, 0, NULL, OPT_TAKEN, O_SHOW_PLACEMENT,
	  "print the hosts each rank goes to and exit" },
	{ { "--display-map", "-display-map", "-print-rank-map", "--print-rank-map" }, 0, NULL,
	  OPT_TAKEN, O_DISPLAY_MAP,
	  "print where ranks go on stderr, then run" },
	{ { "--launcher", "-launcher", "-bootstrap" }, 1, "local|ssh|slurm", OPT_TAKEN,
	  O_LAUNCHER, "how node processes start on hosts (default\n"
	  "\tssh; slurm inside an allocation without hosts\n\tgiven; rsh too)" },
	{ { "--launcher-agent", "-launcher-exec", "-bootstrap-exec" }, 1, "CMD", OPT_TAKEN,
	  O_AGENT, "start node processes as CMD HOST shoal-node" },
	{ { "--control-addr" }, 1, "IP", OPT_TAKEN, O_CONTROL_ADDR,
	  "address node processes connect back to" },
	{ { "-h", "--help", "-help" }, 0, NULL, OPT_TAKEN, O_HELP, "print this and exit" },
	{ { "-V", "--version", "-version" }, 0, NULL, OPT_TAKEN, O_VERSION,
	  "print mpiexec's version and exit" },
	{ { "--oversubscribe", "-oversubscribe", "--nooversubscribe" }, 0, NULL, OPT_IGNORED,
	  O_NONE, "ranks are threads: any number fits a host" },
	{ { "--allow-run-as-root", "--use-hwthread-cpus" }, 0, NULL, OPT_IGNORED, O_NONE,
	  "Shoal runs as any user, on every CPU" },
	{ { "--display-allocation" }, 0, NULL, OPT_IGNORED, O_NONE,
	  "a report Shoal does not make" },
	{ { "-q", "--quiet", "-v", "--verbose", "--timestamp-output" }, 0, NULL, OPT_IGNORED,
	  O_NONE, "Shoal's output is its own" },
	{ { "--merge-stderr-to-stdout", "--noprefix", "-disable-auto-cleanup" }, 0, NULL,
	  OPT_IGNORED, O_NONE, "Shoal's output and clean-up are its own" },
	{ { "--enable-recovery" }, 0, NULL, OPT_IGNORED, O_NONE,
	  "a failed rank ends the job" },
	{ { "--cpus-per-proc", "--cpus-per-rank" }, 1, "X", OPT_IGNORED, O_NONE,
	  "a rank is bound to one CPU at most" },
	{ { "--rank-by", "-rank-by", "--personality" }, 1, "X", OPT_IGNORED, O_NONE,
	  "ranks are numbered as they are placed" },
	{ { "--prefix", "-prefix", "-iface" }, 1, "X", OPT_IGNORED, O_NONE,
	  "Shoal finds itself and picks its own address" },
	{ { "--mca", "-mca", "--gmca" }, 2, "KEY VALUE", OPT_IGNORED, O_NONE,
	  "Open MPI's parameters" },
	{ { "--app", "-app", "-configfile" }, 1, "FILE", OPT_REFUSED, O_NONE,
	  "several programs in one job are not\n\tsupported yet" },
};

/* The whole job as mpiexec sees it. */
struct job {
	long nranks;
	char *program;       /* resolved path */
	char **args;         /* argv from the program on */
	char dir[PATH_MAX];  /* per-job directory, "" until made */
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

/* The first column of an option in --help: its spellings, then what it takes. */
static int opt_column(const struct opt *o, char *buf, size_t len)
{
	size_t off = 0;

	for (int k = 0; k < 7 && o->names[k]; k++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", k ? ", " : "",
					o->names[k]);
	if (o->arg)
		off += (size_t)snprintf(buf + off, len - off, " %s", o->arg);
	return (int)off;
}

/* --help: every option of the table, by kind, each with its help text. */
static void usage(FILE *f)
{
	static const char *const heads[] = {
		[OPT_TAKEN] = "Options:",
		[OPT_IGNORED] = "Accepted and ignored with a warning (Open MPI's and MPICH's, meaningless "
				"here):",
		[OPT_REFUSED] = "Refused with the reason:",
	};
	char col[160];

	fprintf(f, "usage: mpiexec [-n N] [options] program [args...]\n");
	for (int kind = OPT_TAKEN; kind <= OPT_REFUSED; kind++) {
		fprintf(f, "%s\n", heads[kind]);
		for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
			const struct opt *o = &opts[i];
			int w;

			if ((int)o->kind != kind)
				continue;
			w = opt_column(o, col, sizeof(col));
			fprintf(f, "  %s", col);
			if (w > 26)
				fprintf(f, "\n%30s", "");
			else
				fprintf(f, "%*s", 28 - w, "");
			for (const char *h = o->help; *h; h++) {
				if (*h == '\t')
					fprintf(f, "%30s", "");
				else
					fputc(*h, f);
			}
			fputc('\n', f);
		}
	}
	fprintf(f, "An option taking one value also takes it after '=' (--np=4). Other options\n"
		"with '=' are ignored with a warning, others still are refused.\n"
		"All ranks of a node run as threads of one process (shoal-node), each with its\n"
		"own copy of the program; the program must be built with mpicc.\n"
		"Environment: SHOAL_STACK_SIZE (rank stack, default 8M), SHOAL_GDB (gdb to use),\n"
		"SHOAL_PRIVATE_LIBS (libraries loaded once per rank, NAME:NAME).\n"
		"kill -QUIT <mpiexec pid> prints what every rank waits for; the job goes on.\n"
		"Only rank 0 reads mpiexec's stdin; other ranks read end-of-file.\n"
		"Jobs on several hosts: docs/offnode.md.\n");
}

/* The table's entry named `a` (or, for an option of one value, `a` up to its '=': then
 * *value is what follows), or NULL. */
static const struct opt *find_opt(const char *a, const char **value)
{
	const char *eq = strchr(a, '=');

	*value = NULL;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		for (int k = 0; k < 7 && opts[i].names[k]; k++) {
			const char *n = opts[i].names[k];

			if (!strcmp(a, n))
				return &opts[i];
			if (eq && opts[i].nargs == 1 && (size_t)(eq - a) == strlen(n) &&
			    !strncmp(a, n, strlen(n))) {
				*value = eq + 1;
				return &opts[i];
			}
		}
	return NULL;
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
 * built with another MPI or not loadable per rank with status 1, before any node starts.
 * One that is not here is left to the hosts that run it. */
static void check_runnable(const char *program)
{
	char why[PATH_MAX + 256];
	struct stat st;
	int err;

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
	/* Built with another MPI, or a Shoal executable that cannot be loaded per rank:
	 * refused once, here, rather than by every node. */
	err = shl_loader_check_program(program, NULL, why, sizeof(why));
	if (err == -EPROTO || err == -ENOEXEC) {
		fprintf(stderr, "mpiexec: %s\n", why);
		exit(1);
	}
}

/* Act on taken option `o` with its values v[0], v[1]. */
static void take(const struct opt *o, const char *name, char **v, struct job *job)
{
	char why[2 * SHL_PLACE_HOST_MAX + PATH_MAX];

	switch (o->id) {
	case O_NP:
		job->nranks = count(v[0]);
		job->nranks_given = true;
		break;
	case O_HOST:
		if (shl_place_add_list(&job->place, v[0], why, sizeof(why)) < 0)
			goto bad_place;
		break;
	case O_HOSTFILE:
		if (shl_place_add_file(&job->place, v[0], why, sizeof(why)) < 0)
			goto bad_place;
		break;
	case O_PPN:
		job->ppn = count(v[0]);
		break;
	case O_MAP_BY: {
		char tail[16] = "";
		long ppr = 0;

		if (!strncmp(v[0], "ppr:", 4) && sscanf(v[0] + 4, "%ld:%15s", &ppr, tail) == 2 &&
		    ppr > 0 && !strcmp(tail, "node")) {
			job->ppn = ppr;  /* Open MPI's N per node */
		} else if (!strcmp(v[0], "node")) {
			job->by_node = true;
		} else if (strcmp(v[0], "slot") && strcmp(v[0], "core") && strcmp(v[0], "hwthread") &&
			   strcmp(v[0], "socket") && strcmp(v[0], "numa")) {
			fprintf(stderr, "mpiexec: --map-by %s: want slot, node or ppr:N:node\n", v[0]);
			exit(2);
		}
		break;
	}
	case O_BIND_TO: {
		char kind[32];

		snprintf(kind, sizeof(kind), "%.*s", (int)strcspn(v[0], ":"), v[0]);
		if (!strcmp(kind, "core") || !strcmp(kind, "hwthread") || !strcmp(kind, "none")) {
			setenv("SHOAL_BIND", kind, 1);
		} else if (!strcmp(kind, "socket") || !strcmp(kind, "numa") ||
			   !strcmp(kind, "l3cache") || !strcmp(kind, "board")) {
			fprintf(stderr, "mpiexec: warning: --bind-to %s is not supported; ranks are "
				"not bound (use core or hwthread)\n", v[0]);
			setenv("SHOAL_BIND", "none", 1);
		} else {
			fprintf(stderr, "mpiexec: --bind-to %s: want none, core or hwthread\n", v[0]);
			exit(2);
		}
		forward(job, "SHOAL_BIND", strlen("SHOAL_BIND"));
		break;
	}
	case O_REPORT_BINDINGS:
		setenv("SHOAL_REPORT_BINDINGS", "1", 1);
		forward(job, "SHOAL_REPORT_BINDINGS", strlen("SHOAL_REPORT_BINDINGS"));
		break;
	case O_OUTPUT_DIR: {
		char *abs = v[0][0] == '/' ? strdup(v[0]) : NULL;
		char cwd[PATH_MAX];

		if (v[0][0] != '/' && getcwd(cwd, sizeof(cwd)) &&
		    asprintf(&abs, "%s/%s", cwd, v[0]) < 0)
			abs = NULL;
		if (!abs) {
			fprintf(stderr, "mpiexec: %s %s: cannot make the path absolute\n", name, v[0]);
			exit(2);
		}
		setenv("SHOAL_OUTPUT_DIR", abs, 1);
		forward(job, "SHOAL_OUTPUT_DIR", strlen("SHOAL_OUTPUT_DIR"));
		break;
	}
	case O_SHOW_PLACEMENT:
		job->show_placement = true;
		break;
	case O_DISPLAY_MAP:
		job->display_map = true;  /* Open MPI's: print the map, then run */
		break;
	case O_LAUNCHER:
		job->launcher = v[0];
		if (strcmp(v[0], "local") && strcmp(v[0], "ssh") && strcmp(v[0], "rsh") &&
		    strcmp(v[0], "slurm")) {
			fprintf(stderr, "mpiexec: --launcher %s: want local, ssh or slurm\n", v[0]);
			exit(2);
		}
		break;
	case O_AGENT:
		job->agent = v[0];
		break;
	case O_CONTROL_ADDR:
		job->control_addr = v[0];
		break;
	case O_HELP:
		usage(stdout);
		exit(0);
	case O_VERSION:
		printf("mpiexec (Shoal) %s\n", SHL_MPIEXEC_VERSION);
		exit(0);
	case O_GDB:
		job->gdb = true;
		break;
	case O_GDB_X:
		job->gdb = true;
		job->gdb_x = v[0];
		break;
	case O_TIMEOUT:
		job->timeout = seconds(v[0]);
		break;
	case O_EXPORT: {
		char *eq = strchr(v[0], '=');

		if (eq) {
			*eq = '\0';
			setenv(v[0], eq + 1, 1);
		}
		forward(job, v[0], strlen(v[0]));
		break;
	}
	case O_GENV:
		setenv(v[0], v[1], 1);
		forward(job, v[0], strlen(v[0]));
		break;
	case O_GENVLIST:
		for (const char *l = v[0]; *l;) {
			size_t n = strcspn(l, ",");

			if (n)
				forward(job, l, n);
			l += n + (l[n] == ',');
		}
		break;
	case O_GENVALL:
		job->env_all = true;
		break;
	case O_GENVNONE:
		job->env_all = false;
		break;
	case O_TAG_OUTPUT:
		job->label = "tag";
		break;
	case O_PREPEND_RANK:
		job->label = "rank";
		break;
	case O_PRIVATE_LIB: {
		/* Appended to what the variable holds already (the user's, or earlier
		 * options'); main forwards it to every host. */
		const char *old = getenv("SHOAL_PRIVATE_LIBS");
		char *names;

		if (!*v[0]) {
			fprintf(stderr, "mpiexec: %s needs a value\n", name);
			exit(2);
		}
		if (!old || !*old)
			names = strdup(v[0]);
		else if (asprintf(&names, "%s%s%s", old, old[strlen(old) - 1] == ':' ? "" : ":",
				  v[0]) < 0)
			names = NULL;
		if (!names) {
			fprintf(stderr, "mpiexec: out of memory\n");
			exit(1);
		}
		setenv("SHOAL_PRIVATE_LIBS", names, 1);
		free(names);
		break;
	}
	case O_WDIR:
		if (chdir(v[0]) < 0) {
			fprintf(stderr, "mpiexec: cannot change to %s: %s\n", v[0], strerror(errno));
			exit(1);
		}
		break;
	case O_NONE:
		fprintf(stderr, "mpiexec: %s: not an option to act on\n", name);
		exit(2);
	}
	return;
bad_place:
	fprintf(stderr, "mpiexec: %s\n", why);
	exit(2);
}

static void parse(int argc, char **argv, struct job *job)
{
	int i;

	job->nranks = 1;
	if (getenv("SHOAL_TIMEOUT") && *getenv("SHOAL_TIMEOUT"))
		job->timeout = seconds(getenv("SHOAL_TIMEOUT"));
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *value;
		const struct opt *o;
		char *v[2] = { NULL, NULL };

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		o = find_opt(a, &value);
		if (!o && strchr(a, '=')) {
			fprintf(stderr, "mpiexec: warning: ignoring %s\n", a);
			continue;
		}
		if (!o) {
			fprintf(stderr, "mpiexec: unknown option %s (see mpiexec --help)\n", a);
			exit(2);
		}
		if (value) {
			v[0] = (char *)value;
		} else if (o->nargs > 0) {
			if (i + o->nargs >= argc) {
				fprintf(stderr, o->nargs == 1 ? "mpiexec: %s needs a value\n" :
					"mpiexec: %s needs two values (%s)\n", a, o->arg);
				exit(2);
			}
			for (int k = 0; k < o->nargs; k++)
				v[k] = argv[i + 1 + k];
			i += o->nargs;
		}
		if (o->kind == OPT_IGNORED) {
			fprintf(stderr, "mpiexec: warning: ignoring %s%s%s%s%s\n", a,
				v[0] && !value ? " " : "", v[0] && !value ? v[0] : "", v[1] ? " " : "",
				v[1] ? v[1] : "");
			continue;
		}
		if (o->kind == OPT_REFUSED) {
			fprintf(stderr, "mpiexec: %s: ", a);
			for (const char *h = o->help; *h; h++)
				if (*h != '\t')
					fputc(*h == '\n' ? ' ' : *h, stderr);
			fputc('\n', stderr);
			exit(2);
		}
		take(o, a, v, job);
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

/* --gdb: gdb runs the node process and owns the terminal (the user types to it, Ctrl-C
 * interrupts the ranks), so the job has no proxy: fork gdb --args shoal-node JOBDIR N
 * PROGRAM ARGS, forward SIGTERM and SIGHUP to it (SIGKILL SHL_LAUNCH_KILL_GRACE_S later),
 * end it at --timeout, and return mpiexec's exit status. */
static int run_gdb(struct job *job, const char *node, const sigset_t *set)
{
	struct timespec tick = { .tv_sec = 0, .tv_nsec = 200 * 1000 * 1000 };
	long kill_at = 0, end_at = job->timeout ? shl_mono_ms() + 1000 * job->timeout : 0;
	int nargs = 0, k, status;
	char **argv, nbuf[24];
	bool timed_out = false;
	pid_t g;

	while (job->args[nargs])
		nargs++;
	argv = calloc((size_t)nargs + 20, sizeof(char *));
	if (!argv)
		return 1;
	k = gdb_args(job, argv);
	setenv("SHOAL_DEBUG_STOP", "1", 1);
	snprintf(nbuf, sizeof(nbuf), "%ld", job->nranks);
	argv[k] = (char *)node;
	argv[k + 1] = job->dir;
	argv[k + 2] = nbuf;
	argv[k + 3] = job->program;
	for (int i = 1; i < nargs; i++)
		argv[k + 3 + i] = job->args[i];
	fflush(NULL);
	g = fork();
	if (g == 0) {
		/* If mpiexec dies (even by SIGKILL) the session must not run on unattended. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigprocmask(SIG_SETMASK, &job->old_mask, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "mpiexec: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(argv);
	if (g < 0) {
		fprintf(stderr, "mpiexec: cannot start gdb: %s\n", strerror(errno));
		return 1;
	}
	for (;;) {
		pid_t r = waitpid(g, &status, WNOHANG);
		int sig;

		if (r == g)
			break;
		if (r < 0 && errno != EINTR)
			return 1;
		sig = sigtimedwait(set, NULL, &tick);
		if (sig == SIGTERM || sig == SIGHUP) {
			kill(g, sig);
			if (!kill_at)
				kill_at = shl_mono_ms() + 1000 * SHL_LAUNCH_KILL_GRACE_S;
		}
		if (end_at && shl_mono_ms() >= end_at && !timed_out) {
			timed_out = true;
			kill(g, SIGTERM);
			kill_at = shl_mono_ms() + 1000 * SHL_LAUNCH_KILL_GRACE_S;
		}
		if (kill_at && shl_mono_ms() >= kill_at)
			kill(g, SIGKILL);
	}
	if (timed_out) {
		fprintf(stderr, "shoal: job ended by --timeout after %ld s\n", job->timeout);
		return SHL_LAUNCH_TIMEOUT_EXIT;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "shoal: gdb killed by signal %s (%s)\n",
			sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?",
			strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

/* Whether `name` is this machine: a job on it alone needs no launcher (mpiexec forks its
 * node proxy itself). */
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
	int status;
	bool multi;

	parse(argc, argv, &job);
	if (job.label) {
		setenv("SHOAL_OUTPUT_LABEL", job.label, 1);
		forward(&job, "SHOAL_OUTPUT_LABEL", strlen("SHOAL_OUTPUT_LABEL"));
	} else {
		unsetenv("SHOAL_OUTPUT_LABEL");
	}
	/* mpiexec judges deadlocks from every node's state; the nodes' watchdogs must agree on
	 * "off" (a host's proxy does not inherit mpiexec's environment). */
	if (getenv("SHOAL_DEADLOCK_S"))
		forward(&job, "SHOAL_DEADLOCK_S", strlen("SHOAL_DEADLOCK_S"));
	/* The libraries loaded once per rank (--private-lib, or set by the user) must be the
	 * same on every host, so that each rank's library state is its own everywhere. */
	if (getenv("SHOAL_PRIVATE_LIBS"))
		forward(&job, "SHOAL_PRIVATE_LIBS", strlen("SHOAL_PRIVATE_LIBS"));
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
	if (job.gdb && lib_path("shoal_gdb.py", job.ext, sizeof(job.ext)) < 0) {
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
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	job.old_mask = old;
	if (MPIR_being_debugged && !job.gdb) {
		/* A parallel debugger started us: the ranks of every node wait before main
		 * until it sets MPIR_debug_gate in their node process (docs/debugging.md). */
		setenv("SHOAL_DEBUG_STOP", "gate", 1);
		forward(&job, "SHOAL_DEBUG_STOP", strlen("SHOAL_DEBUG_STOP"));
	}
	if (!multi) {  /* under --gdb too */
		/* The ranks' program copies: removed here, whatever ends the job; if mpiexec
		 * is killed, by the next mpiexec on this machine (shl_jobdir_make). */
		int err = shl_jobdir_make("shoal", job.dir, sizeof(job.dir));

		if (err < 0) {
			fprintf(stderr, "mpiexec: cannot create a job directory in /dev/shm, $TMPDIR "
				"or /tmp: %s\n", strerror(-err));
			return 1;
		}
	}
	if (job.gdb) {
		status = run_gdb(&job, node, &set);
	} else {
		struct shl_launch l = {
			.place = &job.place, .node_path = node, .program = job.program,
			.args = job.args, .launcher = job.launcher, .agent = job.agent,
			.control_addr = job.control_addr, .timeout = job.timeout,
			.env = job.env, .nenv = job.nenv, .env_all = job.env_all,
			.old_mask = old, .waited = &set, .here = !multi, .jobdir = job.dir,
		};

		status = shl_launch_run(&l);
	}
	shl_jobdir_remove(job.dir);
	return status;
}
