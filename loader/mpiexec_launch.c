/* mpiexec's side of every job (docs/offnode.md) but one under --gdb: the job secret, the
 * control listener, one launcher process per node (for a job on this host alone, one node
 * proxy forked on a socketpair instead of both), the handshake, the MPIR process table
 * once every node process runs, output and exit forwarding, hang reports gathered from
 * every node (SIGQUIT, --timeout), the deadlock check over the nodes' states, the
 * heartbeat (PING every quarter of SHOAL_PEER_TIMEOUT, a host silent for all of it is
 * gone), and ending the whole job when a node fails, is lost, stops answering, or a
 * signal, --timeout or a deadlock says so.
 * Entered by mpiexec's only thread (shl_launch_run), with the signals it waits for blocked.
 * Must not block on one node while others need service (every socket read goes through the
 * poll loop) nor leave a launcher process running when it returns. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/auth.h"
#include "io/clock.h"
#include "io/ctl.h"

extern char **environ;
#include "loader/mpiexec.h"
#include "loader/report.h"

/* Seconds every node has to connect back and say HELLO (SHOAL_LAUNCH_TIMEOUT): ssh to a
 * cold host can take several seconds; a minute says "unreachable" without a long hang. */
#define SHL_LAUNCH_CONNECT_S 60
/* Seconds a new control connection has to prove the secret before it is dropped. */
#define SHL_LAUNCH_HELLO_S 10
/* How long a hang report may take to come back from every host: a proxy gives gdb 30 s
 * (SHL_PROXY_GDB_MS) after up to 5 s for its node's description. */
#define SHL_LAUNCH_REPORT_S 40
/* Connections that may wait to prove the secret at once, beyond one per node: room for
 * every node process, while a flood of idle or slow connections from anywhere holds no
 * more descriptors than this. Past it the oldest goes, so node processes that connect
 * during a flood get in (they send HELLO at once; a flood's own connections push out each
 * other first). */
#define SHL_LAUNCH_PENDING_SPARE 64
/* Connections accepted per poll round: the HELLOs that arrived are judged between rounds. */
#define SHL_LAUNCH_ACCEPT_BATCH 16
/* How often, at most, the loop looks at its clocks (deadlines, silent hosts, PINGs). */
#define SHL_LAUNCH_TICK_MS 200

/* A node process as mpiexec sees it: its launcher and its control connection. */
struct node {
	const char *host;
	char ranks[256];       /* its world ranks, as ranges, for messages */
	pid_t agent;           /* launcher process, 0 once reaped */
	int agent_status;
	int fd;                /* control connection, -1 before HELLO and after it closed */
	bool connected;        /* said HELLO once */
	bool has_addr;
	bool exited;           /* sent EXIT */
	unsigned char addr[8]; /* its ADDR body */
	unsigned char *buf;    /* bytes received, not yet a whole record */
	size_t len;
	/* Its last STATE (the deadlock check): every rank blocked in MPI or ended, and its
	 * frame counts (io/transport.h, shl_io_count_frames). */
	bool stated, blocked;
	uint64_t sent, retired;
	bool report_wait;      /* REPORT sent, REPORTED not yet back */
	pid_t pid;             /* its node process's pid on its host (PID), 0 before */
	long heard_ms;         /* when its proxy last sent anything (PONG at least) */
};

/* A connection that has not proved the secret yet: its HELLO, then (challenged) its PROOF. */
struct pending {
	int fd;
	uint64_t seq;          /* accepted as the seq-th connection: lower is older */
	time_t deadline;
	char peer[64];
	bool challenged;       /* CHALLENGE sent: the next record must be PROOF */
	uint32_t node;         /* the node index its HELLO claims */
	unsigned char nonces[2 * SHL_IO_AUTH_NONCE];  /* its nonce, then ours */
	size_t len;
	unsigned char buf[SHL_IO_CTL_HEADER + 12 + SHL_IO_AUTH_NONCE];
};

/* The whole multi-node job. */
struct run {
	struct shl_launch *l;
	struct node *nodes;
	int nnodes;
	unsigned char secret[SHL_IO_CTL_SECRET];
	int listen;
	int sigfd;
	char addr[320];         /* IP[,IP...]:PORT the nodes dial, best address first */
	struct pending *pending;  /* pending_max slots */
	int npending, pending_max;
	uint64_t accepted;      /* connections accepted so far */
	uint64_t shed;          /* pending connections dropped for newer ones, unreported */
	time_t shed_said;       /* when the last of those was reported */
	bool listen_rest;       /* out of descriptors: the listener sits out one poll round */
	int naddr;              /* nodes that sent ADDR */
	int npid;               /* nodes that sent PID: all of them fill the MPIR table */
	bool peers_sent;
	bool ending;            /* END sent: waiting for nodes and launchers to go */
	int status;             /* mpiexec's exit status once decided */
	time_t kill_at;         /* when launchers still alive get SIGKILL, 0: not set */
	time_t connect_by;      /* every node must have said HELLO by then */
	long connect_s;         /* SHOAL_LAUNCH_TIMEOUT */
	long timeout_at_ms;     /* --timeout, by shl_mono_ms (never early by a second's rounding);
				 * 0: none */
	int stdin_node;         /* node of rank 0, which gets mpiexec's stdin */
	bool stdin_open;        /* stdin still to be read and forwarded */
	size_t stdin_inflight;  /* STDIN bytes sent, not yet acknowledged */
	long deadlock_ms;       /* SHOAL_DEADLOCK_S in ms, 0: no deadlock check */
	long changed_ms;        /* when a node's STATE last arrived (each says a change) */
	bool reporting;         /* REPORT sent: waiting for every node's REPORTED */
	time_t report_by;       /* stop waiting for REPORTED then */
	int report_then;        /* once the report is in, end the job with this; -1: go on */
	char report_end[96];    /* and this message */
	long peer_ms;           /* SHOAL_PEER_TIMEOUT in ms; 0: no heartbeat (or on one host) */
	long pinged_ms;         /* when PING last went to every node */
	long looked_ms;         /* when the loop last looked at the nodes' silence */
	long stalled_ms;        /* how long the loop last did not run, if half the bound or
				 * more (the hosts may have taken us for gone) */
	long resumed_ms;        /* when it ran again */
	char self[64];          /* this host's name, for "noticed by" */
};

/* The IPv4 address to listen on, and in run->addr the addresses the nodes dial:
 * --control-addr or SHOAL_CONTROL_ADDR, loopback for the local launcher, else chosen by
 * route to the job's hosts (loader/mpiexec_route.c). */
static int pick_addr(struct run *run, struct in_addr *ip)
{
	const char *a = run->l->control_addr ? run->l->control_addr : getenv("SHOAL_CONTROL_ADDR");
	const char **hosts;

	ip->s_addr = htonl(INADDR_LOOPBACK);
	if (a && *a) {
		if (inet_pton(AF_INET, a, ip) != 1)
			return -EINVAL;
	} else if (!run->l->launcher || strcmp(run->l->launcher, "local")) {
		hosts = calloc((size_t)run->nnodes, sizeof(*hosts));
		if (!hosts)
			return -ENOMEM;
		for (int k = 0; k < run->nnodes; k++)
			hosts[k] = run->nodes[k].host;
		shl_route_control_addrs(hosts, run->nnodes, ip, run->addr, sizeof(run->addr));
		free(hosts);
		return 0;
	}
	inet_ntop(AF_INET, ip, run->addr, sizeof(run->addr));
	return 0;
}

static int open_listener(struct run *run)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	size_t used;

	if (pick_addr(run, &sa.sin_addr) < 0) {
		fprintf(stderr, "mpiexec: bad control address (want an IPv4 address)\n");
		return -EINVAL;
	}
	run->listen = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (run->listen < 0 || bind(run->listen, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(run->listen, 128) < 0 ||
	    getsockname(run->listen, (struct sockaddr *)&sa, &len) < 0) {
		int err = errno;

		fprintf(stderr, "mpiexec: cannot listen on %s for node processes: %s\n", run->addr,
			strerror(err));
		return -err;
	}
	used = strlen(run->addr);
	snprintf(run->addr + used, sizeof(run->addr) - used, ":%u", ntohs(sa.sin_port));
	return 0;
}

/* Single-quote `s` for a remote shell (ssh runs its command through one). */
static char *shell_quote(const char *s)
{
	size_t n = 3;
	char *q, *o;

	for (const char *c = s; *c; c++)
		n += *c == '\'' ? 4 : 1;
	q = o = malloc(n);
	if (!q)
		return NULL;
	*o++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *s;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

/* Append to argv from index n the node process's command: shoal-node with the control
 * address, node index `node`, `hostopt host` (--host, or --hosts with slurm), the working
 * directory, then the program and its arguments. Returns the new count. */
static int node_command(struct run *run, char **argv, int n, char *node, const char *hostopt,
			char *host, char *cwd)
{
	struct shl_launch *l = run->l;

	argv[n++] = (char *)l->node_path;
	argv[n++] = "--connect";
	argv[n++] = run->addr;
	argv[n++] = "--node";
	argv[n++] = node;
	argv[n++] = (char *)hostopt;
	argv[n++] = host;
	argv[n++] = "--wdir";
	argv[n++] = cwd;
	if (l->here) {
		argv[n++] = "--jobdir";
		argv[n++] = (char *)l->jobdir;
	}
	argv[n++] = (char *)l->program;
	for (int i = 1; l->args[0] && l->args[i]; i++)
		argv[n++] = l->args[i];
	return n;
}

/* The launcher command line of node `k` (see docs/offnode.md, "Launch"). */
static char **agent_argv(struct run *run, int k, char *nodeidx, char *cwd)
{
	struct shl_launch *l = run->l;
	const char *launcher = l->launcher ? l->launcher : "ssh";
	char *agent = NULL, *save;
	int nargs = 0, n = 0;
	bool ssh = !l->here && !l->agent && (!strcmp(launcher, "ssh") || !strcmp(launcher, "rsh"));
	char **argv;

	while (l->args[nargs])
		nargs++;
	argv = calloc((size_t)nargs + 64, sizeof(char *));
	if (!argv)
		return NULL;
	if (l->agent) {
		agent = strdup(l->agent);
		for (char *w = strtok_r(agent, " \t", &save); w && n < 48;
		     w = strtok_r(NULL, " \t", &save))
			argv[n++] = w;
		argv[n++] = (char *)run->nodes[k].host;
	} else if (ssh) {
		argv[n++] = !strcmp(launcher, "rsh") ? "rsh" : "ssh";
		if (strcmp(launcher, "rsh")) {
			argv[n++] = "-o";
			argv[n++] = "BatchMode=yes";
		}
		argv[n++] = (char *)run->nodes[k].host;
	}
	n = node_command(run, argv, n, nodeidx, "--host", (char *)run->nodes[k].host, cwd);
	if (ssh) {  /* the remote shell splits the words again: quote each */
		int first = strcmp(launcher, "rsh") ? 4 : 2;

		for (int i = first; i < n; i++)
			argv[i] = shell_quote(argv[i]);
	}
	return argv;
}

/* The srun command line that starts every node process at once (--launcher slurm): one task
 * per node; each proxy finds its node index from its Slurm node name in `hosts`. */
static char **srun_argv(struct run *run, char *cwd, char **hosts)
{
	struct shl_launch *l = run->l;
	size_t len = 1;
	int nargs = 0, n = 0;
	char **argv;

	for (int k = 0; k < run->nnodes; k++)
		len += strlen(run->nodes[k].host) + 1;
	*hosts = calloc(1, len);
	while (l->args[nargs])
		nargs++;
	argv = calloc((size_t)nargs + 32, sizeof(char *));
	if (!argv || !*hosts)
		return NULL;
	for (int k = 0; k < run->nnodes; k++) {
		if (k)
			strcat(*hosts, ",");
		strcat(*hosts, run->nodes[k].host);
	}
	argv[n++] = "srun";
	if (asprintf(&argv[n++], "--nodes=%d", run->nnodes) < 0 ||
	    asprintf(&argv[n++], "--ntasks=%d", run->nnodes) < 0 ||
	    asprintf(&argv[n++], "--nodelist=%s", *hosts) < 0)
		return NULL;
	argv[n++] = "--ntasks-per-node=1";
	argv[n++] = "--kill-on-bad-exit=1";
	argv[n++] = "--input=all";        /* the secret line reaches every task */
	argv[n++] = "--cpu-bind=none";    /* ranks are threads: not one CPU for the node */
	argv[n++] = "--mpi=none";
	node_command(run, argv, n, "slurm", "--hosts", *hosts, cwd);
	return argv;
}

static int send_assign(struct run *run, struct node *n);
static int send_env(struct run *run, struct node *n);
static void close_node(struct node *n);
static void end_job(struct run *run, int status, int sig, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A job on this host alone: the control connection of its one node is a socketpair, made
 * before the proxy is forked. The proxy's end, without close-on-exec, is named on its
 * command line (--connect fd:N) and closed here once the proxy is forked. Returns it, with
 * our end in *ours, or -errno. */
static int here_channel(struct run *run, int *ours)
{
	int sv[2], fd;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	fd = fcntl(sv[1], F_DUPFD, 3);
	close(sv[1]);
	if (fd < 0) {
		close(sv[0]);
		return -errno;
	}
	*ours = sv[0];
	snprintf(run->addr, sizeof(run->addr), "fd:%d", fd);
	return fd;
}

/* The proxy on this host is forked: node 0's connection is ours already. Nobody else can
 * hold a socketpair's end, so it skips HELLO, CHALLENGE and PROOF (the job secret proves
 * nothing here) and starts at ASSIGN and ENV, as a node that proved the secret. */
static void here_joined(struct run *run, int fd)
{
	struct node *n = &run->nodes[0];

	n->fd = fd;
	n->connected = true;
	if (send_assign(run, n) < 0 || send_env(run, n) < 0) {
		close_node(n);
		end_job(run, 1, SIGTERM, "shoal: cannot send the node process its ranks: %s",
			strerror(errno));
	}
}

/* Fork node k's launcher with the secret on its stdin (with slurm: the one srun, k 0; on
 * this host alone: the node proxy itself). */
static int start_node(struct run *run, int k)
{
	char nodeidx[16], cwd[PATH_MAX], hex[2 * SHL_IO_CTL_SECRET + 2];
	char **argv, *hosts = NULL;
	bool slurm = run->l->launcher && !strcmp(run->l->launcher, "slurm") && !run->l->agent;
	int in[2], here = -1, ours = -1;
	pid_t pid;

	if (run->l->here && (here = here_channel(run, &ours)) < 0)
		return here;
	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "/");
	snprintf(nodeidx, sizeof(nodeidx), "%d", k);
	argv = slurm ? srun_argv(run, cwd, &hosts) : agent_argv(run, k, nodeidx, cwd);
	if (!argv || pipe2(in, O_CLOEXEC) < 0)
		return -ENOMEM;
	for (int i = 0; i < SHL_IO_CTL_SECRET; i++)
		snprintf(hex + 2 * i, 3, "%02x", run->secret[i]);
	hex[2 * SHL_IO_CTL_SECRET] = '\n';
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* Its own process group: the terminal's signals reach mpiexec only, which
		 * forwards them as END. It dies with mpiexec, even by SIGKILL. */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigprocmask(SIG_SETMASK, &run->l->old_mask, NULL);
		dup2(in[0], STDIN_FILENO);
		execvp(argv[0], argv);
		fprintf(stderr, "mpiexec: cannot run %s for host %s: %s\n", argv[0],
			slurm ? hosts : run->nodes[k].host, strerror(errno));
		_exit(127);
	}
	close(in[0]);
	if (here >= 0)
		close(here);
	if (pid > 0) {
		/* A launcher that already ended (ssh to an unknown host) must not kill mpiexec
		 * with SIGPIPE: its exit is reported when it is reaped. */
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);

		if (write(in[1], hex, 2 * SHL_IO_CTL_SECRET + 1) < 0 && errno != EPIPE)
			fprintf(stderr, "mpiexec: cannot give the job secret to the launcher for "
				"host %s: %s\n", slurm ? hosts : run->nodes[k].host, strerror(errno));
		signal(SIGPIPE, old);
	}
	close(in[1]);
	free(argv);  /* srun's asprintf'd words stay: a few bytes, once */
	free(hosts);
	if (pid < 0) {
		if (ours >= 0)
			close(ours);
		return -errno;
	}
	if (ours >= 0)
		here_joined(run, ours);
	for (int i = slurm ? 0 : k; i < (slurm ? run->nnodes : k + 1); i++)
		run->nodes[i].agent = pid;  /* reap() clears it on every node srun served */
	return 0;
}

static void send_end(struct run *run, int sig)
{
	unsigned char b[4];

	shl_io_ctl_put32(b, (uint32_t)sig);
	for (int k = 0; k < run->nnodes; k++)
		if (run->nodes[k].fd >= 0 && !run->nodes[k].exited)
			shl_io_ctl_send(run->nodes[k].fd, SHL_IO_CTL_END, b, sizeof(b));
}

/* Decide the job's end: the first cause gives the status and the message. */
static void end_job(struct run *run, int status, int sig, const char *fmt, ...)
{
	va_list ap;

	if (run->ending)
		return;
	run->ending = true;
	run->status = status;
	if (fmt) {
		fflush(stdout);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	send_end(run, sig);
	run->kill_at = shl_mono_s() + SHL_LAUNCH_KILL_GRACE_S;
}

static void close_node(struct node *n)
{
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
	free(n->buf);
	n->buf = NULL;
	n->len = 0;
}

static void drop_pending(struct run *run, int i, const char *why)
{
	struct pending *c = &run->pending[i];

	if (why)
		fprintf(stderr, "mpiexec: dropped control connection from %s: %s\n", c->peer, why);
	close(c->fd);
	run->pending[i] = run->pending[--run->npending];
}

/* Drop the oldest pending connection that has not been challenged (no valid HELLO yet),
 * else the oldest. Returns false if there is none. */
static bool shed_oldest(struct run *run)
{
	int old = -1;

	for (int i = 0; i < run->npending; i++) {
		const struct pending *c = &run->pending[i], *o = &run->pending[old < 0 ? i : old];

		if (old < 0 || c->challenged < o->challenged ||
		    (c->challenged == o->challenged && c->seq < o->seq))
			old = i;
	}
	if (old < 0)
		return false;
	run->shed++;
	drop_pending(run, old, NULL);
	return true;
}

/* Report the pending connections dropped for newer ones, at most once a second unless
 * `now_too`. */
static void say_shed(struct run *run, bool now_too)
{
	time_t t = shl_mono_s();

	if (run->shed == 0 || (!now_too && t == run->shed_said))
		return;
	fprintf(stderr, "mpiexec: dropped %llu control connections that had not proved the job "
		"secret, the oldest first (at most %d wait at once)\n",
		(unsigned long long)run->shed, run->pending_max);
	run->shed = 0;
	run->shed_said = t;
}

static void accept_all(struct run *run)
{
	for (int taken = 0; taken < SHL_LAUNCH_ACCEPT_BATCH;) {
		struct sockaddr_in sa;
		socklen_t len = sizeof(sa);
		int fd = accept4(run->listen, (struct sockaddr *)&sa, &len,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);
		struct pending *c;
		char ip[INET_ADDRSTRLEN];

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			/* Out of descriptors: the oldest pending connection gives its own, else
			 * the listener (readable until then) rests a round instead of spinning. */
			if ((errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			     errno == ENOMEM) && shed_oldest(run)) {
				taken++;
				continue;
			}
			run->listen_rest = true;
			break;
		}
		taken++;
		if (run->npending == run->pending_max)
			shed_oldest(run);
		c = &run->pending[run->npending++];
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->seq = run->accepted++;
		c->deadline = shl_mono_s() + SHL_LAUNCH_HELLO_S;
		inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof(ip));
		snprintf(c->peer, sizeof(c->peer), "%s:%u", ip, ntohs(sa.sin_port));
	}
	say_shed(run, false);
}

static int send_assign(struct run *run, struct node *n)
{
	struct shl_place *pl = run->l->place;
	size_t len = 8 + 4 * (size_t)pl->nranks;
	unsigned char *b = malloc(len);
	struct timeval tv = { .tv_sec = 10 };
	int one = 1, flags, err;

	if (!b)
		return -ENOMEM;
	shl_io_ctl_put32(b, (uint32_t)pl->nranks);
	shl_io_ctl_put32(b + 4, (uint32_t)pl->nnodes);
	for (long r = 0; r < pl->nranks; r++)
		shl_io_ctl_put32(b + 8 + 4 * r, pl->node_of[r]);
	/* mpiexec's writes block, bounded: records to nodes are few and small but this one. */
	flags = fcntl(n->fd, F_GETFL);
	fcntl(n->fd, F_SETFL, flags & ~O_NONBLOCK);
	setsockopt(n->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(n->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	err = shl_io_ctl_send(n->fd, SHL_IO_CTL_ASSIGN, b, len);
	free(b);
	return err;
}

/* The variables named by -x, -genv, -genvlist, with mpiexec's values: the agent (ssh) need
 * not carry mpiexec's environment, so they travel in the control channel. */
static int send_env(struct run *run, struct node *n)
{
	char *b = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&b, &len);
	int err;

	if (!f)
		return -ENOMEM;
	if (run->l->env_all) {  /* -genvall: all of it, named ones included */
		for (char **e = environ; *e; e++)
			if (**e != '=' && strchr(*e, '='))  /* the proxy refuses others */
				fprintf(f, "%s%c", *e, '\0');
	} else {
		for (int i = 0; i < run->l->nenv; i++) {
			const char *v = getenv(run->l->env[i]);

			if (v)
				fprintf(f, "%s=%s%c", run->l->env[i], v, '\0');
		}
	}
	/* Every host's proxy and node process bound a silent peer alike (last: it wins). One
	 * host has no bound, and its proxy inherits our environment as it is. */
	if (!run->l->here)
		fprintf(f, "SHOAL_PEER_TIMEOUT=%ld%c", run->peer_ms / 1000, '\0');
	if (fclose(f) != 0) {
		free(b);
		return -ENOMEM;
	}
	err = shl_io_ctl_send(n->fd, SHL_IO_CTL_ENV, b, len);
	free(b);
	return err;
}

/* A valid HELLO from pending connection i: challenge it with our nonce and our own answer
 * to its nonce (it checks that we know the secret too). */
static void challenge(struct run *run, int i, const unsigned char *body)
{
	struct pending *c = &run->pending[i];
	unsigned char b[SHL_IO_AUTH_NONCE + SHL_IO_AUTH_PROOF];
	int flags = fcntl(c->fd, F_GETFL);
	int err;

	c->node = shl_io_ctl_get32(body + 8);
	memcpy(c->nonces, body + 12, SHL_IO_AUTH_NONCE);
	if (shl_io_auth_nonce(c->nonces + SHL_IO_AUTH_NONCE) < 0 ||
	    shl_io_auth_proof(run->secret, SHL_IO_AUTH_CTL_MPIEXEC, c->node, 0, c->nonces,
			      c->nonces + SHL_IO_AUTH_NONCE, b + SHL_IO_AUTH_NONCE) < 0) {
		drop_pending(run, i, "cannot make a challenge");
		return;
	}
	memcpy(b, c->nonces + SHL_IO_AUTH_NONCE, SHL_IO_AUTH_NONCE);
	/* 69 bytes into a fresh socket's buffer: a blocking send that cannot block. */
	fcntl(c->fd, F_SETFL, flags & ~O_NONBLOCK);
	err = shl_io_ctl_send(c->fd, SHL_IO_CTL_CHALLENGE, b, sizeof(b));
	fcntl(c->fd, F_SETFL, flags);
	if (err < 0) {
		drop_pending(run, i, "closed before proving the job secret");
		return;
	}
	c->challenged = true;
	c->len = 0;
}

/* Judge the HELLO, then the PROOF, of pending connection i once each is all there. */
static void judge_hello(struct run *run, int i)
{
	struct pending *c = &run->pending[i];
	ssize_t r = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
	const unsigned char *body;
	size_t blen;
	uint8_t type;
	long used;
	uint32_t k;
	struct node *n;

	if (r <= 0) {
		if (r == 0 || (errno != EAGAIN && errno != EINTR))
			drop_pending(run, i, "closed before proving the job secret");
		return;
	}
	c->len += (size_t)r;
	used = shl_io_ctl_take(c->buf, c->len, &type, &body, &blen);
	if (used == 0 && c->len < sizeof(c->buf))
		return;
	if (!c->challenged) {
		if (used <= 0 || type != SHL_IO_CTL_HELLO || blen < 8 ||
		    shl_io_ctl_get32(body) != SHL_IO_CTL_MAGIC) {
			drop_pending(run, i, "not a Shoal node process");
		} else if (shl_io_ctl_get32(body + 4) != SHL_IO_CTL_VERSION ||
			   blen != 12 + SHL_IO_AUTH_NONCE) {
			drop_pending(run, i, "another version of Shoal");
		} else if (shl_io_ctl_get32(body + 8) >= (uint32_t)run->nnodes) {
			drop_pending(run, i, "unknown or duplicate node index");
		} else {
			challenge(run, i, body);
		}
		return;
	}
	if (used <= 0 || type != SHL_IO_CTL_PROOF || blen != SHL_IO_AUTH_PROOF ||
	    !shl_io_auth_check(run->secret, SHL_IO_AUTH_CTL_NODE, c->node, 0, c->nonces,
			       c->nonces + SHL_IO_AUTH_NONCE, body)) {
		drop_pending(run, i, "wrong job secret (wrong answer to the challenge)");
		return;
	}
	/* Judged after the proof: an answer that is right but for a node already there says
	 * so, which lets a test tell a replayed answer (wrong) from a fresh one. */
	k = c->node;
	if (run->nodes[k].connected) {
		drop_pending(run, i, "unknown or duplicate node index");
		return;
	}
	n = &run->nodes[k];
	n->fd = c->fd;
	n->connected = true;
	shl_io_ctl_keepalive(n->fd, run->peer_ms / 1000);
	run->pending[i] = run->pending[--run->npending];
	if (send_assign(run, n) < 0 || send_env(run, n) < 0) {
		close_node(n);
		end_job(run, 1, SIGTERM, "shoal: cannot send node process on host %s its ranks",
			n->host);
	}
}

static void ping(struct run *run);

/* Write a node's output line to our stdout or stderr. A reader that does not read (a pager
 * on hold) blocks us, not the job: meanwhile the nodes still get their PINGs, so their
 * proxies do not take us for gone (their writes to us wait, as the job's output does). */
static void write_out(struct run *run, int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		ssize_t w;

		if (run->peer_ms && poll(&pfd, 1, 0) == 0) {
			long now = shl_mono_ms();

			/* We run, and ping, but read nothing meanwhile: no silence counts. */
			ping(run);
			run->looked_ms = now;
			for (int k = 0; k < run->nnodes; k++)
				run->nodes[k].heard_ms = now;
			poll(&pfd, 1, SHL_LAUNCH_TICK_MS);
			continue;
		}
		/* Writable: a pipe takes PIPE_BUF bytes without blocking. */
		w = write(fd, p, run->peer_ms && n > PIPE_BUF ? PIPE_BUF : n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* Every node said where it listens: tell everyone, which also says "go". */
static void send_peers(struct run *run)
{
	unsigned char *b = malloc(8 * (size_t)run->nnodes);

	if (!b) {
		end_job(run, 1, SIGTERM, "shoal: out of memory");
		return;
	}
	for (int k = 0; k < run->nnodes; k++)
		memcpy(b + 8 * k, run->nodes[k].addr, 8);
	for (int k = 0; k < run->nnodes; k++) {
		if (run->nodes[k].fd >= 0)
			shl_io_ctl_send(run->nodes[k].fd, SHL_IO_CTL_PEERS, b, 8 * (size_t)run->nnodes);
		/* It waited for PEERS: its silence counts from now. */
		run->nodes[k].heard_ms = shl_mono_ms();
	}
	free(b);
	run->peers_sent = true;
}

/* Every node process runs: the MPIR table for a parallel debugger. */
static void publish(struct run *run)
{
	pid_t *pid = malloc((size_t)run->nnodes * sizeof(*pid));

	if (!pid)
		return;  /* no table, as shl_mpir_publish out of memory: the job goes on */
	for (int k = 0; k < run->nnodes; k++)
		pid[k] = run->nodes[k].pid;
	shl_mpir_publish(run->l->place, run->l->program, pid);
	free(pid);
}

static void on_record(struct run *run, struct node *n, uint8_t type, const unsigned char *b,
		      size_t len)
{
	switch (type) {
	case SHL_IO_CTL_ADDR:
		if (len != 8 || n->has_addr)
			break;
		memcpy(n->addr, b, 8);
		n->has_addr = true;
		if (++run->naddr == run->nnodes && !run->ending)
			send_peers(run);
		return;
	case SHL_IO_CTL_PID:
		if (len != 4 || n->pid || !shl_io_ctl_get32(b) || shl_io_ctl_get32(b) > INT_MAX)
			break;
		n->pid = (pid_t)shl_io_ctl_get32(b);
		if (++run->npid == run->nnodes && !run->ending)
			publish(run);
		return;
	case SHL_IO_CTL_OUT:
		if (len < 8)
			break;
		fflush(stdout);
		write_out(run, shl_io_ctl_get32(b) == 2 ? STDERR_FILENO : STDOUT_FILENO, b + 8,
			  len - 8);
		return;
	case SHL_IO_CTL_PONG:  /* heard: read_node noted it */
		if (len != 0)
			break;
		return;
	case SHL_IO_CTL_STATE:
		if (len != 20)
			break;
		n->stated = true;
		n->blocked = shl_io_ctl_get32(b) != 0;
		n->sent = shl_io_ctl_get32(b + 4) | (uint64_t)shl_io_ctl_get32(b + 8) << 32;
		n->retired = shl_io_ctl_get32(b + 12) | (uint64_t)shl_io_ctl_get32(b + 16) << 32;
		run->changed_ms = shl_mono_ms();
		return;
	case SHL_IO_CTL_REPORTED:
		if (len != 0)
			break;
		n->report_wait = false;
		return;
	case SHL_IO_CTL_STDIN_ACK:
		if (len != 4 || n != &run->nodes[run->stdin_node])
			break;
		run->stdin_inflight -= shl_io_ctl_get32(b) < run->stdin_inflight ?
			shl_io_ctl_get32(b) : run->stdin_inflight;
		return;
	case SHL_IO_CTL_EXIT: {
		bool signaled = len == 8 && shl_io_ctl_get32(b) == 1;
		int code = len == 8 ? (int)shl_io_ctl_get32(b + 4) : 1;

		n->exited = true;
		if (signaled)
			end_job(run, 128 + code, SIGTERM, "shoal: node process on host %s (ranks %s) "
				"killed by signal %s (%s)", n->host, n->ranks,
				sigabbrev_np(code) ? sigabbrev_np(code) : "?", strsignal(code));
		else if (code != 0)
			/* Its own stderr said why (an abort, a rank's exit code). */
			end_job(run, code & 0xff, SIGTERM, NULL);
		return;
	}
	}
	close_node(n);
	end_job(run, 1, SIGTERM, "shoal: node process on host %s sent a malformed record", n->host);
}

static void read_node(struct run *run, struct node *n)
{
	unsigned char tmp[65536];
	ssize_t r = read(n->fd, tmp, sizeof(tmp));
	const unsigned char *body;
	size_t blen, off = 0;
	uint8_t type;
	long used;

	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0) {
		close_node(n);
		/* Right after a stall of ours, its proxy has mostly given up on us. */
		if (!n->exited && run->stalled_ms && shl_mono_ms() - run->resumed_ms < 2000)
			end_job(run, 1, SIGTERM, "shoal: lost node process on host %s (ranks %s): "
				"mpiexec (host %s) did not run for %ld s, and that host took it for "
				"gone (SHOAL_PEER_TIMEOUT, %ld s)", n->host, n->ranks, run->self,
				run->stalled_ms / 1000, run->peer_ms / 1000);
		else if (!n->exited)
			end_job(run, 1, SIGTERM, "shoal: lost node process on host %s (ranks %s)",
				n->host, n->ranks);
		return;
	}
	n->heard_ms = shl_mono_ms();
	unsigned char *nb = realloc(n->buf, n->len + (size_t)r);
	if (!nb) {
		close_node(n);
		end_job(run, 1, SIGTERM, "shoal: out of memory reading host %s", n->host);
		return;
	}
	n->buf = nb;
	memcpy(n->buf + n->len, tmp, (size_t)r);
	n->len += (size_t)r;
	while (n->fd >= 0 &&
	       (used = shl_io_ctl_take(n->buf + off, n->len - off, &type, &body, &blen)) > 0) {
		on_record(run, n, type, body, blen);
		off += (size_t)used;
	}
	if (n->fd < 0)
		return;
	if (used < 0) {
		close_node(n);
		end_job(run, 1, SIGTERM, "shoal: node process on host %s sent an oversized record",
			n->host);
		return;
	}
	memmove(n->buf, n->buf + off, n->len - off);
	n->len -= off;
}

/* Forward what mpiexec's stdin has now to rank 0's node; at its end, say end-of-file. */
static void pump_stdin(struct run *run)
{
	struct node *n = &run->nodes[run->stdin_node];
	size_t room = SHL_IO_CTL_STDIN_WINDOW - run->stdin_inflight;
	unsigned char buf[65536];
	ssize_t r = read(STDIN_FILENO, buf, room < sizeof(buf) ? room : sizeof(buf));

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (r <= 0)
		run->stdin_open = false;
	if (n->fd < 0 || n->exited) {
		run->stdin_open = false;
		return;
	}
	if (shl_io_ctl_send(n->fd, SHL_IO_CTL_STDIN, buf, r > 0 ? (size_t)r : 0) < 0)
		run->stdin_open = false;  /* the node is gone: its end is reported elsewhere */
	else if (r > 0)
		run->stdin_inflight += (size_t)r;
}

/* Whether mpiexec's stdin is to be read: not when it is closed, nor when it is a terminal
 * of which mpiexec is in the background (reading would stop mpiexec with SIGTTIN). */
static bool stdin_usable(void)
{
	if (fcntl(STDIN_FILENO, F_GETFD) < 0)
		return false;
	return !isatty(STDIN_FILENO) || tcgetpgrp(STDIN_FILENO) == getpgrp();
}

static void reap(struct run *run)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (int k = 0; k < run->nnodes; k++) {
			struct node *n = &run->nodes[k];

			if (n->agent != pid)
				continue;
			n->agent = 0;
			n->agent_status = status;
			if (!n->connected)
				end_job(run, 1, SIGTERM, "shoal: cannot start the node process on "
					"host %s (ranks %s): launcher %s %d", n->host, n->ranks,
					WIFSIGNALED(status) ? "killed by signal" : "exited with status",
					WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		}
}

/* Ask every node that still runs for its part of a hang report (REPORT `what`), after a
 * header naming `why`; once all have answered (or SHL_LAUNCH_REPORT_S passed), end the job
 * with status `then` and message `end` unless `then` is -1. Returns false if no node can
 * be asked (none runs yet or any more): the caller ends the job itself. */
static bool start_report(struct run *run, const char *why, uint32_t what, int then,
			 const char *end)
{
	unsigned char b[4];
	bool asked = false;

	if (run->ending || !run->peers_sent)
		return false;
	if (then >= 0 && run->report_then < 0) {  /* the report under way will do */
		run->report_then = then;
		snprintf(run->report_end, sizeof(run->report_end), "%s", end);
	}
	if (run->reporting)
		return true;
	fflush(stdout);
	fprintf(stderr, "shoal: hang report (%s): what every rank is waiting for\n", why);
	shl_io_ctl_put32(b, what);
	for (int k = 0; k < run->nnodes; k++) {
		struct node *n = &run->nodes[k];

		n->report_wait = n->fd >= 0 && !n->exited &&
				 shl_io_ctl_send(n->fd, SHL_IO_CTL_REPORT, b, sizeof(b)) == 0;
		asked |= n->report_wait;
	}
	if (!asked) {
		run->report_then = -1;
		return false;
	}
	run->reporting = true;
	run->report_by = shl_mono_s() + SHL_LAUNCH_REPORT_S;
	return true;
}

/* The report under way is complete once every node asked has answered, ended or gone. */
static void check_report(struct run *run)
{
	bool late = shl_mono_s() >= run->report_by;

	if (!run->reporting)
		return;
	for (int k = 0; k < run->nnodes; k++) {
		struct node *n = &run->nodes[k];

		if (n->report_wait && n->fd >= 0 && !n->exited && !late)
			return;
		n->report_wait = false;
	}
	run->reporting = false;
	if (late)
		fprintf(stderr, "shoal: some hosts did not report within %d s\n",
			SHL_LAUNCH_REPORT_S);
	if (run->report_then >= 0)
		end_job(run, run->report_then, SIGTERM, "%s", run->report_end);
	run->report_then = -1;
}

/* A job on several hosts is deadlocked when every rank of every node is blocked in MPI (or
 * has ended), no frame is on its way between nodes (the sums of the nodes' sent and
 * retired counts are equal), and no node's state changed for SHOAL_DEADLOCK_S. Each node
 * reads its state at one moment, but the nodes at different moments: only states that
 * held still for that long, together, describe one moment of the job. A frame a node's
 * completion thread makes itself (DATA after a CTS) counts as sent before the frame that
 * caused it is retired (shl_io_count_frames), and a frame a rank posts counts before the
 * rank can sleep, so the sums are never level while a frame is still to be sent. Then
 * report what every rank waits for and end the job with status 125. */
static void check_deadlock(struct run *run)
{
	uint64_t sent = 0, retired = 0;
	char hosts[512] = "";
	size_t off = 0;
	bool live = false;

	if (!run->deadlock_ms || run->ending || run->reporting || !run->peers_sent ||
	    shl_mono_ms() - run->changed_ms < run->deadlock_ms)
		return;
	for (int k = 0; k < run->nnodes; k++) {
		struct node *n = &run->nodes[k];

		if (!n->stated || !n->blocked)
			return;
		sent += n->sent;
		retired += n->retired;
		if (n->exited)
			continue;  /* its last STATE, with its final counts, came before its EXIT */
		live = true;
		if (off < sizeof(hosts))
			off += (size_t)snprintf(hosts + off, sizeof(hosts) - off, "%s%s",
						off ? ", " : "", n->host);
	}
	if (!live || sent != retired)
		return;
	fflush(stdout);
	if (run->nnodes == 1)
		fprintf(stderr, "shoal: likely deadlock: every rank has been blocked in MPI for "
			"%ld s and none can progress (SHOAL_DEADLOCK_S=0 turns this check off)\n",
			run->deadlock_ms / 1000);
	else
		fprintf(stderr, "shoal: likely deadlock: every rank on hosts %s has been blocked "
			"in MPI for %ld s with no message in flight between them "
			"(SHOAL_DEADLOCK_S=0 turns this check off)\n", hosts, run->deadlock_ms / 1000);
	if (!start_report(run, "likely deadlock", SHL_IO_CTL_REPORT_DEADLOCK,
			  SHL_REPORT_DEADLOCK_EXIT, "shoal: job ended as a likely deadlock"))
		end_job(run, SHL_REPORT_DEADLOCK_EXIT, SIGTERM,
			"shoal: job ended as a likely deadlock");
}

static void on_signal(struct run *run)
{
	struct signalfd_siginfo si;

	while (read(run->sigfd, &si, sizeof(si)) == sizeof(si)) {
		int sig = (int)si.ssi_signo;

		if (sig == SIGCHLD)
			reap(run);
		else if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
			end_job(run, 128 + sig, sig, NULL);
		else if (sig == SIGQUIT && !run->peers_sent && !run->ending)
			fprintf(stderr, "shoal: hang report (SIGQUIT): no rank runs yet: %d of %d "
				"node processes have started\n", run->naddr, run->nnodes);
		else if (sig == SIGQUIT)  /* the job goes on */
			start_report(run, "SIGQUIT", SHL_IO_CTL_REPORT_HANG, -1, NULL);
	}
}

static void check_clocks(struct run *run)
{
	time_t t = shl_mono_s();

	if (!run->ending && t >= run->connect_by)
		for (int k = 0; k < run->nnodes; k++)
			if (!run->nodes[k].connected) {
				end_job(run, 1, SIGTERM, "shoal: node process on host %s (ranks %s) "
					"did not connect back to %s within %ld s", run->nodes[k].host,
					run->nodes[k].ranks, run->addr, run->connect_s);
				break;
			}
	if (run->timeout_at_ms && shl_mono_ms() >= run->timeout_at_ms) {
		char why[64], end[64];

		run->timeout_at_ms = 0;
		snprintf(why, sizeof(why), "--timeout %ld s expired", run->l->timeout);
		snprintf(end, sizeof(end), "shoal: job ended by --timeout after %ld s",
			 run->l->timeout);
		if (!start_report(run, why, SHL_IO_CTL_REPORT_HANG, SHL_LAUNCH_TIMEOUT_EXIT, end))
			end_job(run, SHL_LAUNCH_TIMEOUT_EXIT, SIGTERM, "%s", end);
	}
	for (int i = run->npending - 1; i >= 0; i--)
		if (t >= run->pending[i].deadline)
			drop_pending(run, i, "no HELLO in time");
	say_shed(run, true);
	if (run->kill_at && t >= run->kill_at) {
		for (int k = 0; k < run->nnodes; k++) {
			if (run->nodes[k].agent > 0)
				kill(run->nodes[k].agent, SIGKILL);
			close_node(&run->nodes[k]);  /* a proxy that lost us kills its node */
		}
		run->kill_at = 0;
	}
}

/* A PING to every node connected, every quarter of the bound: their proxies take a
 * silence of the whole bound for mpiexec gone and end their nodes. One that cannot take
 * five bytes now (its link is down, or its proxy does not read) is skipped: a blocking
 * send would hold up every other node's. */
static void ping(struct run *run)
{
	long now = shl_mono_ms();

	/* Not before PEERS: a proxy reads the handshake's records in their order. */
	if (!run->peer_ms || !run->peers_sent || now - run->pinged_ms < run->peer_ms / 4)
		return;
	run->pinged_ms = now;
	for (int k = 0; k < run->nnodes; k++) {
		struct pollfd pfd = { .fd = run->nodes[k].fd, .events = POLLOUT };

		if (pfd.fd >= 0 && poll(&pfd, 1, 0) == 1 && pfd.revents == POLLOUT)
			shl_io_ctl_send(pfd.fd, SHL_IO_CTL_PING, NULL, 0);
	}
}

/* Right after each poll: a host whose proxy said nothing (not even PONG) for the bound
 * has stopped answering: its link is down, its machine gone, or its proxy stopped. The
 * job ends naming it; its launcher is killed at once (ip netns exec, ssh: the proxy, or
 * its connection; srun, every node's, only after the grace of END) and its proxy, if it
 * still runs, ends its node when it hears nothing from us either. A silence we were not running to hear (mpiexec stopped, or starved, or
 * held by a blocking write) proves nothing about the hosts, unless it lasted the whole
 * bound: then they have ended the job already, and we say so. */
static void check_silence(struct run *run)
{
	long now = shl_mono_ms(), gap = now - run->looked_ms;

	run->looked_ms = now;
	if (!run->peer_ms || !run->peers_sent)
		return;  /* until PEERS, SHOAL_LAUNCH_TIMEOUT bounds the wait */
	if (gap > run->peer_ms / 2) {
		for (int k = 0; k < run->nnodes; k++)
			run->nodes[k].heard_ms = now;
		run->stalled_ms = gap;
		run->resumed_ms = now;
	}
	if (gap > run->peer_ms && run->peers_sent)
		end_job(run, 1, SIGTERM, "shoal: mpiexec (host %s) did not run for %ld s, longer "
			"than SHOAL_PEER_TIMEOUT (%ld s): the hosts took it for gone and ended their "
			"node processes", run->self, gap / 1000, run->peer_ms / 1000);
	if (run->ending)
		return;
	for (int k = 0; k < run->nnodes; k++) {
		struct node *n = &run->nodes[k];

		/* A node that ended needs nothing of its host any more. */
		if (n->fd < 0 || n->exited || now - n->heard_ms <= run->peer_ms)
			continue;
		close_node(n);  /* no END for it: its send buffer may be full */
		end_job(run, 1, SIGTERM, "shoal: host %s stopped answering (no reply for %ld s, "
			"SHOAL_PEER_TIMEOUT); noticed by host %s (mpiexec)", n->host,
			(now - n->heard_ms) / 1000, run->self);
		/* Not srun, which serves every node: the others end by END first. */
		bool shared = false;
		for (int j = 0; j < run->nnodes; j++)
			shared |= j != k && run->nodes[j].agent == n->agent;
		if (n->agent > 0 && !shared)
			kill(n->agent, SIGKILL);
		return;
	}
}

/* Once every node process has ended (said EXIT), close the control connections: the
 * proxies wait for that before they leave, keeping their mesh listeners open until no node
 * can still be connecting (docs/offnode.md). */
static void release(struct run *run)
{
	for (int k = 0; k < run->nnodes; k++)
		if (!run->nodes[k].exited && (run->nodes[k].fd >= 0 || !run->nodes[k].connected))
			return;
	for (int k = 0; k < run->nnodes; k++)
		close_node(&run->nodes[k]);
}

/* The job is over once every launcher is reaped and every connection closed or done. */
static bool over(struct run *run)
{
	for (int k = 0; k < run->nnodes; k++) {
		struct node *n = &run->nodes[k];

		if (n->agent > 0 || (n->fd >= 0 && !n->exited))
			return false;
	}
	return true;
}

static int loop(struct run *run)
{
	struct pollfd *fds = calloc((size_t)run->nnodes + (size_t)run->pending_max + 3, sizeof(*fds));

	if (!fds)
		return 1;
	while (!over(run)) {
		int nf = 0, first_node, first_pending;
		bool in = run->stdin_open && run->peers_sent && !run->ending &&
			  run->stdin_inflight < SHL_IO_CTL_STDIN_WINDOW;

		fds[nf++] = (struct pollfd){ .fd = run->sigfd, .events = POLLIN };
		fds[nf++] = (struct pollfd){ .fd = run->listen_rest ? -1 : run->listen,
					     .events = POLLIN };
		run->listen_rest = false;
		fds[nf++] = (struct pollfd){ .fd = in ? STDIN_FILENO : -1, .events = POLLIN };
		first_node = nf;
		for (int k = 0; k < run->nnodes; k++)
			fds[nf++] = (struct pollfd){ .fd = run->nodes[k].fd, .events = POLLIN };
		first_pending = nf;
		for (int i = 0; i < run->npending; i++)
			fds[nf++] = (struct pollfd){ .fd = run->pending[i].fd, .events = POLLIN };
		if (poll(fds, (nfds_t)nf, SHL_LAUNCH_TICK_MS) < 0 && errno != EINTR)
			break;
		check_silence(run);
		ping(run);
		if (fds[0].revents)
			on_signal(run);
		for (int k = 0; k < run->nnodes; k++)
			if (fds[first_node + k].revents && run->nodes[k].fd >= 0)
				read_node(run, &run->nodes[k]);
		/* Backwards: judging may move the last pending connection into slot i. */
		for (int i = run->npending - 1; i >= 0; i--)
			if (first_pending + i < nf && fds[first_pending + i].revents &&
			    fds[first_pending + i].fd == run->pending[i].fd)
				judge_hello(run, i);
		if (fds[1].revents)
			accept_all(run);
		if (fds[2].revents && in)
			pump_stdin(run);
		check_clocks(run);
		check_report(run);
		check_deadlock(run);
		release(run);
	}
	free(fds);
	for (int k = 0; k < run->nnodes; k++)
		close_node(&run->nodes[k]);
	for (int i = run->npending - 1; i >= 0; i--)
		drop_pending(run, i, NULL);
	return run->status;
}

int shl_launch_run(struct shl_launch *l)
{
	struct run run = { .l = l, .listen = -1, .sigfd = -1 };
	struct shl_place *pl = l->place;
	int status;

	if (getrandom(run.secret, sizeof(run.secret), 0) != (ssize_t)sizeof(run.secret)) {
		fprintf(stderr, "mpiexec: cannot make a job secret: %s\n", strerror(errno));
		return 1;
	}
	run.nnodes = pl->nnodes;
	run.nodes = calloc((size_t)run.nnodes, sizeof(*run.nodes));
	run.pending_max = run.nnodes + SHL_LAUNCH_PENDING_SPARE;
	run.pending = calloc((size_t)run.pending_max, sizeof(*run.pending));
	run.sigfd = signalfd(-1, l->waited, SFD_CLOEXEC | SFD_NONBLOCK);
	if (!run.nodes || !run.pending || run.sigfd < 0) {
		fprintf(stderr, "mpiexec: cannot set up the job: %s\n", strerror(errno));
		return 1;
	}
	run.connect_s = shl_report_env_seconds("SHOAL_LAUNCH_TIMEOUT", SHL_LAUNCH_CONNECT_S, 1);
	run.connect_by = shl_mono_s() + run.connect_s;
	run.timeout_at_ms = l->timeout ? shl_mono_ms() + 1000 * l->timeout : 0;
	run.deadlock_ms = 1000 * shl_report_env_seconds("SHOAL_DEADLOCK_S",
							  SHL_REPORT_DEADLOCK_S, 0);
	run.changed_ms = shl_mono_ms();
	run.report_then = -1;
	/* One host: a socketpair to a proxy on this machine, nothing that can go silent. */
	run.peer_ms = 1000 * shl_report_env_seconds("SHOAL_PEER_TIMEOUT", SHL_IO_PEER_TIMEOUT_S,
						     0);
	if (l->here)
		run.peer_ms = 0;
	run.pinged_ms = run.looked_ms = shl_mono_ms();
	if (gethostname(run.self, sizeof(run.self) - 1) < 0)
		strcpy(run.self, "?");
	run.stdin_node = (int)pl->node_of[0];
	run.stdin_open = true;
	if (!stdin_usable()) {
		/* Rank 0 reads end-of-file at once, as from /dev/null. */
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (null >= 0 && null != STDIN_FILENO) {
			dup2(null, STDIN_FILENO);
			close(null);
		}
	}
	for (int k = 0; k < run.nnodes; k++) {
		run.nodes[k].host = pl->hosts[pl->host_of_node[k]].name;
		run.nodes[k].fd = -1;
		shl_place_ranks(pl, k, run.nodes[k].ranks, sizeof(run.nodes[k].ranks));
	}
	if (!l->here && open_listener(&run) < 0)
		return 1;
	bool slurm = l->launcher && !strcmp(l->launcher, "slurm") && !l->agent;

	for (int k = 0; k < (slurm ? 1 : run.nnodes) && !run.ending; k++)
		if (start_node(&run, k) < 0)
			end_job(&run, 1, SIGTERM, "shoal: cannot start a launcher for host %s: %s",
				run.nodes[k].host, strerror(errno));
	status = loop(&run);
	close(run.listen);
	close(run.sigfd);
	free(run.nodes);
	free(run.pending);
	return status;
}
