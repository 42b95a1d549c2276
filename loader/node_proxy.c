/* The node proxy (shoal-node --connect, docs/offnode.md) of every node of a job but one
 * under mpiexec --gdb, on this host alone too (then forked by mpiexec on a socketpair,
 * --connect fd:N): joins mpiexec's control channel with the job secret (but on that
 * socketpair), forks the node process proper, forwards its pid (for mpiexec's MPIR
 * table), its stdout/stderr line by line, its watchdog's states and its end, delivers
 * mpiexec's END and STDIN, answers REPORT with the hang report of its node process
 * (gdb, run here) and PING with PONG, and ends the node when mpiexec stops answering or
 * the node process stays stopped for SHOAL_PEER_TIMEOUT (docs/offnode.md, "Failure
 * detection").
 * Entered by shoal-node's main thread only, before any rank exists; single-threaded.
 * Must not outlive mpiexec or leave its node process or job directory behind. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/auth.h"
#include "io/clock.h"
#include "io/ctl.h"
#include "io/mesh.h"
#include "loader/jobdir.h"
#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "loader/report.h"

/* How long the handshake may take before the proxy gives up: mpiexec answers at once unless
 * it is still starting other hosts' agents (ssh can take seconds each). */
#define SHL_PROXY_HANDSHAKE_S 60
/* A line longer than this is forwarded in pieces (each piece still whole in the output). */
#define SHL_PROXY_LINE_MAX (64 * 1024)
/* After the node process ended, how long its pipes may stay open (held by a process the
 * ranks started) before EXIT is sent anyway. */
#define SHL_PROXY_DRAIN_MS 2000
/* Without a pidfd for the node process (pidfd_open fails under valgrind, which does not
 * know the call, and on kernels before 5.3), how often the proxy asks waitpid whether it
 * ended. */
#define SHL_PROXY_REAP_POLL_MS 20

/* How long the node process's watchdog has to describe its ranks (it looks every 250 ms),
 * and gdb to attach and report (docs/debugging.md measured 1.0 s to attach to 256 ranks,
 * 1.4 s to 1024, on 2 cores; 2-3 s for 2 ranks on 2 busy cores here) before the report
 * goes without them. mpiexec waits longer (SHL_LAUNCH_REPORT_S). */
#define SHL_PROXY_DESCRIBE_MS 5000
#define SHL_PROXY_GDB_MS 30000
/* A report goes to mpiexec in OUT records of at most this many bytes. */
#define SHL_PROXY_REPORT_PIECE (1u << 20)

/* How often, at most, the proxy looks at its clocks (mpiexec's silence, a stopped node
 * process) while a bound on silence is set. */
#define SHL_PROXY_TICK_MS 250
/* How long a node process stopped for too long has, once sent SIGTERM and SIGCONT, to end
 * by itself (writing out its ranks' unfinished lines) before SIGKILL. */
#define SHL_PROXY_KILL_GRACE_MS 3000

/* Bytes of control records the proxy holds: a STDIN body is at most 64 KiB (mpiexec reads
 * its stdin 64 KiB at a time), plus room for the records behind it. */
#define SHL_PROXY_CTL_BUF (80 * 1024)

struct stream {
	int fd;                     /* read end of the node's stdout or stderr, -1 at EOF */
	uint32_t id;                /* 1 stdout, 2 stderr */
	size_t len;
	unsigned char buf[SHL_PROXY_LINE_MAX + 8];
};

/* The proxy's whole state (one per process, single-threaded). */
struct proxy {
	const char *connect;        /* IP[,IP...]:PORT of mpiexec */
	uint32_t node;
	const char *host;
	const char *wdir;
	bool here;                  /* forked by mpiexec on this host (--connect fd:N) */
	const char *jobdir;         /* --jobdir: mpiexec's job directory, which it removes */
	char *hosts;                /* --hosts (srun): every node's host, in node order */
	int argc;                   /* the program's argv */
	char **argv;
	unsigned char secret[SHL_IO_CTL_SECRET];
	int ctl;                    /* control connection */
	int listen;                 /* the mesh listener, inherited by the node process */
	uint32_t world_size;
	int nlocal;
	int *local;                 /* world ranks of this node */
	uint32_t nnodes;
	uint32_t *node_of;          /* node of every world rank */
	struct sockaddr_in *peers;  /* every node's mesh listener (PEERS) */
	char dir[PATH_MAX];         /* job directory for the ranks' program copies */
	pid_t child;
	struct stream out, err;
	int in;                     /* write end of the node's stdin (rank 0's node), or -1 */
	unsigned char *inq;         /* STDIN bytes not yet written to `in` */
	size_t inlen;
	bool in_eof;                /* mpiexec's stdin ended: close `in` once inq is written */
	unsigned char ctlbuf[SHL_PROXY_CTL_BUF];
	size_t ctllen;
	int watch;                  /* the node process's watch socket (SHL_WATCH_*), or -1 */
	bool ended;                 /* the node process has ended (supervise) */
	/* The REPORT being made, gathered in `text` and sent whole, so that one host's report
	 * is not interleaved with another's on mpiexec's stderr. */
	enum { REPORT_NONE, REPORT_DESCRIBE, REPORT_GDB } report;
	FILE *text;
	char *textbuf;
	size_t textlen;
	pid_t gdb;
	int gdbout;                 /* read end of gdb's output, or -1 */
	long report_by;             /* shl_mono_ms() deadline of the current phase */
	/* Failure detection (SHOAL_PEER_TIMEOUT, from mpiexec's ENV; never on one host). */
	long peer_ms;               /* the bound, 0: none */
	long heard_ms;              /* when mpiexec last sent anything */
	long tick_ms;               /* when the proxy last looked at its clocks */
	long stopped_ms;            /* since when the node process is stopped, 0: it runs */
	long kill_ms;               /* SIGKILL the node process then (it stayed stopped), 0 */
	char *gave_up;              /* why the proxy ends the node (sent before EXIT), or NULL */
};

static int fail(const struct proxy *p, const char *what, int err)
{
	fprintf(stderr, "shoal-node (host %s, node %u): %s: %s\n", p->host ? p->host : "?",
		p->node, what, strerror(err < 0 ? -err : err));
	return 1;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The secret is one line of hex on stdin. Read it a byte at a time so nothing after the
 * line is taken from whoever shares the stdin; then stdin becomes /dev/null. */
static int read_secret(struct proxy *p)
{
	char line[2 * SHL_IO_CTL_SECRET + 1];
	size_t n = 0;
	int fd;

	while (n < sizeof(line)) {
		ssize_t r = read(STDIN_FILENO, line + n, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || line[n] == '\n')
			break;
		n++;
	}
	if (n != 2 * SHL_IO_CTL_SECRET)
		return -EPERM;
	for (size_t i = 0; i < SHL_IO_CTL_SECRET; i++) {
		int hi = hexval(line[2 * i]), lo = hexval(line[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EPERM;
		p->secret[i] = (unsigned char)(hi << 4 | lo);
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	return 0;
}

/* Started by srun (--node slurm --hosts A,B,...): this node is the one whose name is
 * SLURMD_NODENAME (the Slurm node the task runs on), else this machine's host name. */
static int slurm_node(struct proxy *p)
{
	const char *me = getenv("SLURMD_NODENAME");
	char self[256] = "";
	uint32_t k = 0;

	if (!me || !*me) {
		gethostname(self, sizeof(self) - 1);
		me = self;
	}
	for (char *h = p->hosts, *end; *h; h = *end ? end + 1 : end, k++) {
		size_t n, short_me = strcspn(me, ".");

		end = strchrnul(h, ',');
		n = (size_t)(end - h);
		if ((n == strlen(me) && !strncmp(h, me, n)) ||
		    (n == short_me && !strncmp(h, me, n))) {
			*end = '\0';
			p->host = h;
			p->node = k;
			return 0;
		}
	}
	fprintf(stderr, "shoal-node: this Slurm node (%s) is not among the job's hosts %s\n", me,
		p->hosts);
	return -ENOENT;
}

static int parse(struct proxy *p, int argc, char **argv)
{
	int i;

	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--connect"))
			p->connect = argv[i + 1];
		else if (!strcmp(argv[i], "--node") && !strcmp(argv[i + 1], "slurm"))
			p->node = UINT32_MAX;  /* from --hosts and the Slurm node name */
		else if (!strcmp(argv[i], "--node"))
			p->node = (uint32_t)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--hosts"))
			p->hosts = argv[i + 1];
		else if (!strcmp(argv[i], "--host"))
			p->host = argv[i + 1];
		else if (!strcmp(argv[i], "--wdir"))
			p->wdir = argv[i + 1];
		else if (!strcmp(argv[i], "--jobdir"))
			p->jobdir = argv[i + 1];
		else
			return -EINVAL;
	}
	if (i >= argc)
		return -EINVAL;
	if (p->node == UINT32_MAX) {
		int err = p->hosts ? slurm_node(p) : -EINVAL;

		if (err)
			return err;
	}
	if (!p->connect || !p->host)
		return -EINVAL;
	p->here = !strncmp(p->connect, "fd:", 3);
	p->argc = argc - i;
	p->argv = argv + i;
	return 0;
}

/* Connect to mpiexec at p->connect, IP[,IP...]:PORT (loader/mpiexec_route.c): the first
 * address this host has a route to and that accepts; an address without a route fails at
 * once (ENETUNREACH), one that is refused is passed over. */
static int dial(struct proxy *p)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = SHL_PROXY_HANDSHAKE_S };
	char ips[320], *save, *ip;
	const char *colon = strrchr(p->connect, ':');
	int one = 1, err = -EINVAL;

	if (p->here) {  /* mpiexec's socketpair, connected already */
		char *end;
		long fd = strtol(p->connect + 3, &end, 10);

		if (*end || fd < 3 || fd > INT_MAX || fcntl((int)fd, F_SETFD, FD_CLOEXEC) < 0)
			return -EBADF;
		p->ctl = (int)fd;
		setsockopt(p->ctl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(p->ctl, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		return 0;
	}
	if (!colon || (size_t)(colon - p->connect) >= sizeof(ips))
		return -EINVAL;
	memcpy(ips, p->connect, (size_t)(colon - p->connect));
	ips[colon - p->connect] = '\0';
	sa.sin_port = htons((uint16_t)atoi(colon + 1));
	for (ip = strtok_r(ips, ",", &save); ip; ip = strtok_r(NULL, ",", &save)) {
		if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
			return -EINVAL;
		p->ctl = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (p->ctl < 0)
			return -errno;
		/* Bounds connect() and every blocking read and write of the handshake. */
		setsockopt(p->ctl, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(p->ctl, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		setsockopt(p->ctl, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (connect(p->ctl, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return 0;
		err = -errno;
		close(p->ctl);
		p->ctl = -1;
	}
	return err;
}

/* Read one whole record of `want` type into a malloc'd body. */
static int recv_record(struct proxy *p, uint8_t want, unsigned char **body, size_t *len)
{
	unsigned char head[SHL_IO_CTL_HEADER];
	size_t got = 0, n;
	uint32_t size;

	while (got < sizeof(head)) {
		ssize_t r = read(p->ctl, head + got, sizeof(head) - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? -ECONNRESET : -errno;
		got += (size_t)r;
	}
	size = shl_io_ctl_get32(head);
	if (size == 0 || size - 1 > SHL_IO_CTL_MAX || head[4] != want)
		return -EPROTO;
	n = size - 1;
	*body = malloc(n ? n : 1);
	if (!*body)
		return -ENOMEM;
	for (got = 0; got < n;) {
		ssize_t r = read(p->ctl, *body + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(*body);
			return r == 0 ? -ECONNRESET : -errno;
		}
		got += (size_t)r;
	}
	*len = n;
	return 0;
}

/* ENV: NAME=VALUE strings, each ended by NUL, set here so the node process inherits them. */
static int apply_env(unsigned char *b, size_t len)
{
	size_t off = 0;

	if (len && b[len - 1] != '\0')
		return -EPROTO;
	while (off < len) {
		char *kv = (char *)b + off, *eq = strchr(kv, '=');

		off += strlen(kv) + 1;
		if (!eq || eq == kv)
			return -EPROTO;
		*eq = '\0';
		if (setenv(kv, eq + 1, 1) < 0)
			return -errno;
	}
	return 0;
}

/* HELLO with our nonce; CHALLENGE: mpiexec's nonce and its answer to ours, checked (only
 * the real mpiexec gets our answer and our output); PROOF: our answer to its nonce.
 * Returns 0, -EACCES if mpiexec does not prove the secret, or another -errno. */
static int prove(struct proxy *p)
{
	unsigned char hello[12 + SHL_IO_AUTH_NONCE], proof[SHL_IO_AUTH_PROOF], *body;
	size_t len;
	int err;

	shl_io_ctl_put32(hello, SHL_IO_CTL_MAGIC);
	shl_io_ctl_put32(hello + 4, SHL_IO_CTL_VERSION);
	shl_io_ctl_put32(hello + 8, p->node);
	if ((err = shl_io_auth_nonce(hello + 12)) < 0)
		return err;
	err = shl_io_ctl_send(p->ctl, SHL_IO_CTL_HELLO, hello, sizeof(hello));
	if (err)
		return err;
	err = recv_record(p, SHL_IO_CTL_CHALLENGE, &body, &len);
	if (err)
		return err;
	if (len != SHL_IO_AUTH_NONCE + SHL_IO_AUTH_PROOF ||
	    !shl_io_auth_check(p->secret, SHL_IO_AUTH_CTL_MPIEXEC, p->node, 0, hello + 12, body,
			       body + SHL_IO_AUTH_NONCE) ||
	    shl_io_auth_proof(p->secret, SHL_IO_AUTH_CTL_NODE, p->node, 0, hello + 12, body,
			      proof) < 0) {
		free(body);
		return -EACCES;
	}
	free(body);
	return shl_io_ctl_send(p->ctl, SHL_IO_CTL_PROOF, proof, sizeof(proof));
}

/* HELLO, CHALLENGE, PROOF, ASSIGN, ENV, ADDR (the mesh listener's), PEERS. On mpiexec's
 * socketpair (here) the first three are left out: nobody else holds it. */
static int handshake(struct proxy *p)
{
	unsigned char addr[8], *body;
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	size_t len;
	uint32_t nnodes;
	int err;

	err = p->here ? 0 : prove(p);
	if (err)
		return err;
	err = recv_record(p, SHL_IO_CTL_ASSIGN, &body, &len);
	if (err)
		return err;
	p->world_size = len >= 8 ? shl_io_ctl_get32(body) : 0;
	nnodes = len >= 8 ? shl_io_ctl_get32(body + 4) : 0;
	if (p->world_size == 0 || p->world_size > INT_MAX / 2 || p->node >= nnodes ||
	    len != 8 + 4 * (size_t)p->world_size) {
		free(body);
		return -EPROTO;
	}
	p->local = malloc(p->world_size * sizeof(int));
	p->node_of = malloc(p->world_size * sizeof(uint32_t));
	if (!p->local || !p->node_of) {
		free(body);
		return -ENOMEM;
	}
	p->nnodes = nnodes;
	for (uint32_t r = 0; r < p->world_size; r++) {
		p->node_of[r] = shl_io_ctl_get32(body + 8 + 4 * r);
		if (p->node_of[r] >= nnodes) {
			free(body);
			return -EPROTO;
		}
		if (p->node_of[r] == p->node)
			p->local[p->nlocal++] = (int)r;
	}
	free(body);
	if (p->nlocal == 0)
		return -EPROTO;
	err = recv_record(p, SHL_IO_CTL_ENV, &body, &len);
	if (err)
		return err;
	err = apply_env(body, len);
	free(body);
	if (err)
		return err;

	/* The mesh listener, on the address mpiexec reached us by: that interface routes to
	 * the other hosts too. The node process's completion thread takes it over. A job of
	 * one node has no mesh: its ADDR is all zeros. */
	if (nnodes == 1) {
		memset(addr, 0, sizeof(addr));
		err = shl_io_ctl_send(p->ctl, SHL_IO_CTL_ADDR, addr, sizeof(addr));
		goto peers;
	}
	if (getsockname(p->ctl, (struct sockaddr *)&sa, &salen) < 0)
		return -errno;
	sa.sin_port = 0;
	p->listen = socket(AF_INET, SOCK_STREAM, 0);
	if (p->listen < 0)
		return -errno;
	salen = sizeof(sa);
	if (bind(p->listen, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(p->listen, 64) < 0 ||
	    getsockname(p->listen, (struct sockaddr *)&sa, &salen) < 0)
		return -errno;
	memcpy(addr, &sa.sin_addr, 4);
	shl_io_ctl_put32(addr + 4, ntohs(sa.sin_port));
	err = shl_io_ctl_send(p->ctl, SHL_IO_CTL_ADDR, addr, sizeof(addr));
peers:
	if (err)
		return err;
	err = recv_record(p, SHL_IO_CTL_PEERS, &body, &len);
	if (err)
		return err;
	if (len != 8 * (size_t)nnodes) {
		free(body);
		return -EPROTO;
	}
	p->peers = calloc(nnodes, sizeof(*p->peers));
	if (!p->peers) {
		free(body);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < nnodes; k++) {
		p->peers[k].sin_family = AF_INET;
		memcpy(&p->peers[k].sin_addr, body + 8 * k, 4);
		p->peers[k].sin_port = htons((uint16_t)shl_io_ctl_get32(body + 8 * k + 4));
	}
	free(body);
	/* mpiexec passed SHOAL_PEER_TIMEOUT on in ENV, and PINGs from now on. On one host (a
	 * socketpair) nothing can be unreachable, and a stopped mpiexec is the user's doing
	 * (Ctrl-Z). */
	if (!p->here) {
		p->peer_ms = 1000 * shl_io_peer_timeout_s();
		p->heard_ms = p->tick_ms = shl_mono_ms();
		shl_io_ctl_keepalive(p->ctl, p->peer_ms / 1000);
	}
	return 0;
}

/* In the child: become the node process proper. Never returns. */
static _Noreturn void run_child(struct proxy *p, pid_t proxy, int in, int out, int err,
				int watch)
{
	sigset_t none;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != proxy)  /* the proxy died before prctl */
		_exit(1);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (in >= 0) {
		dup2(in, STDIN_FILENO);
		close(in);
		close(p->in);  /* else the node would hold its own stdin open for ever */
	}
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	close(out);
	close(err);
	close(p->ctl);
	close(p->watch);
	shl_loader.proxy = watch;
	if (!p->here)  /* messages name the host only in a job of several */
		setenv("SHOAL_HOST", p->host, 1);
	fflush(NULL);
	struct shl_io_config mesh = { .node = p->node, .nnodes = p->nnodes,
				      .world_size = (int32_t)p->world_size, .node_of = p->node_of,
				      .addr = p->peers, .listen = p->listen, .secret = p->secret,
				      .host = p->host };
	_exit(shl_node_run(p->dir, (int)p->world_size, p->nlocal, p->local,
			   p->nnodes > 1 ? &mesh : NULL, p->argc, p->argv));
}

/* Send the first `n` bytes of `s` as one OUT record and drop them. */
static int send_out(struct proxy *p, struct stream *s, size_t n)
{
	unsigned char *body = malloc(8 + n);
	int err;

	if (!body)
		return -ENOMEM;
	shl_io_ctl_put32(body, s->id);
	shl_io_ctl_put32(body + 4, (uint32_t)-1);  /* ranks share the node's stdout */
	memcpy(body + 8, s->buf, n);
	err = shl_io_ctl_send(p->ctl, SHL_IO_CTL_OUT, body, 8 + n);
	free(body);
	memmove(s->buf, s->buf + n, s->len - n);
	s->len -= n;
	return err;
}

/* Forward what the node wrote on `s`: every whole line, a full buffer as a piece, and the
 * rest at EOF. */
static int pump(struct proxy *p, struct stream *s)
{
	ssize_t r = read(s->fd, s->buf + s->len, SHL_PROXY_LINE_MAX - s->len);
	unsigned char *nl;
	int err = 0;

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0) {
		close(s->fd);
		s->fd = -1;
		return s->len ? send_out(p, s, s->len) : 0;
	}
	s->len += (size_t)r;
	while (!err && (nl = memchr(s->buf, '\n', s->len)))
		err = send_out(p, s, (size_t)(nl - s->buf) + 1);
	if (!err && s->len == SHL_PROXY_LINE_MAX)
		err = send_out(p, s, s->len);
	return err;
}

/* Tell mpiexec `n` more bytes of its stdin are out of its window. */
static int ack_stdin(struct proxy *p, size_t n)
{
	unsigned char b[4];

	shl_io_ctl_put32(b, (uint32_t)n);
	return n ? shl_io_ctl_send(p->ctl, SHL_IO_CTL_STDIN_ACK, b, sizeof(b)) : 0;
}

/* A STDIN record: queue its bytes for the node's stdin (an empty one is end-of-file). */
static int take_stdin(struct proxy *p, const unsigned char *b, size_t n)
{
	unsigned char *q;

	if (n == 0) {
		p->in_eof = true;
		return 0;
	}
	if (p->in < 0)  /* not rank 0's node, or its stdin is closed: drop */
		return ack_stdin(p, n);
	if (p->inlen + n > SHL_IO_CTL_STDIN_WINDOW)
		return -EPROTO;
	q = realloc(p->inq, p->inlen + n);
	if (!q)
		return -ENOMEM;
	memcpy(q + p->inlen, b, n);
	p->inq = q;
	p->inlen += n;
	return 0;
}

/* Write what is queued into the node's stdin pipe (non-blocking); close it at the end. */
static int feed_stdin(struct proxy *p)
{
	ssize_t w = p->inlen ? write(p->in, p->inq, p->inlen) : 0;
	size_t done;

	if (w < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (w < 0) {  /* the node closed its stdin (EPIPE): drop the rest */
		close(p->in);
		p->in = -1;
		done = p->inlen;
	} else {
		done = (size_t)w;
	}
	memmove(p->inq, p->inq + done, p->inlen - done);
	p->inlen -= done;
	if (p->in >= 0 && p->in_eof && p->inlen == 0) {
		close(p->in);
		p->in = -1;
	}
	return ack_stdin(p, done);
}

/* The local world ranks as ranges ("0-3,8"), into `buf`. */
static void rank_ranges(const struct proxy *p, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < p->nlocal && off < len; i++) {
		int j = i;

		while (j + 1 < p->nlocal && p->local[j + 1] == p->local[j] + 1)
			j++;
		off += (size_t)snprintf(buf + off, len - off, j > i ? "%s%d-%d" : "%s%d",
					i ? "," : "", p->local[i], p->local[j]);
		i = j;
	}
}

/* The report is complete: send it as OUT records on stderr, then REPORTED. */
static int finish_report(struct proxy *p)
{
	int err = 0;

	fclose(p->text);
	p->text = NULL;
	for (size_t off = 0; !err && off < p->textlen; off += SHL_PROXY_REPORT_PIECE) {
		size_t n = p->textlen - off < SHL_PROXY_REPORT_PIECE ? p->textlen - off
								     : SHL_PROXY_REPORT_PIECE;
		unsigned char *body = malloc(8 + n);

		if (!body)
			break;  /* the report is lost, the job goes on */
		shl_io_ctl_put32(body, 2);
		shl_io_ctl_put32(body + 4, (uint32_t)-1);
		memcpy(body + 8, p->textbuf + off, n);
		err = shl_io_ctl_send(p->ctl, SHL_IO_CTL_OUT, body, 8 + n);
		free(body);
	}
	free(p->textbuf);
	p->textbuf = NULL;
	p->report = REPORT_NONE;
	return err ? err : shl_io_ctl_send(p->ctl, SHL_IO_CTL_REPORTED, NULL, 0);
}

/* The gdb part of the report (loader/report.c), against our node process (our child, so
 * ptrace may attach under Yama's default scope). */
static int start_gdb(struct proxy *p)
{
	char ext[PATH_MAX];
	int fds[2];

	if (shl_report_ext(ext, sizeof(ext)) < 0) {
		fprintf(p->text, "shoal: cannot find Shoal's gdb extension beside shoal-node\n");
		return finish_report(p);
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		fprintf(p->text, "shoal: no pipe for gdb: %s\n", strerror(errno));
		return finish_report(p);
	}
	p->gdb = shl_report_start(p->child, ext, fds[1]);
	close(fds[1]);
	if (p->gdb < 0) {
		close(fds[0]);
		fprintf(p->text, "shoal: cannot start gdb: %s\n", strerror((int)-p->gdb));
		return finish_report(p);
	}
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	p->gdbout = fds[0];
	p->report = REPORT_GDB;
	p->report_by = shl_mono_ms() + SHL_PROXY_GDB_MS;
	return 0;
}

/* A REPORT from mpiexec: a line naming the host and its ranks; for a likely deadlock, what
 * each rank waits for (the node's watchdog describes them); then the gdb report. */
static int start_report(struct proxy *p, uint32_t what)
{
	char ranks[256];
	unsigned char m = SHL_WATCH_DESCRIBE;

	if (p->report != REPORT_NONE)
		return 0;  /* mpiexec asks again only once this one is answered */
	p->text = open_memstream(&p->textbuf, &p->textlen);
	if (!p->text)
		return shl_io_ctl_send(p->ctl, SHL_IO_CTL_REPORTED, NULL, 0);
	rank_ranges(p, ranks, sizeof(ranks));
	if (!p->here)
		fprintf(p->text, "shoal: host %s (node %u, ranks %s):\n", p->host, p->node, ranks);
	if (p->ended) {
		fprintf(p->text, "shoal: its ranks have all ended\n");
		return finish_report(p);
	}
	if (what == SHL_IO_CTL_REPORT_DEADLOCK && p->watch >= 0 &&
	    send(p->watch, &m, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1) {
		p->report = REPORT_DESCRIBE;
		p->report_by = shl_mono_ms() + SHL_PROXY_DESCRIBE_MS;
		return 0;
	}
	return start_gdb(p);
}

/* gdb wrote something, or ended (EOF): gather it; at its end, send the report. */
static int take_gdb(struct proxy *p)
{
	char buf[16384];
	ssize_t r = read(p->gdbout, buf, sizeof(buf));
	int status;

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r > 0) {
		fwrite(buf, 1, (size_t)r, p->text);
		return 0;
	}
	close(p->gdbout);
	p->gdbout = -1;
	while (waitpid(p->gdb, &status, 0) < 0 && errno == EINTR)
		;
	return finish_report(p);
}

/* A message from the node process's watchdog: forward a STATE; gather a description. */
static int take_watch(struct proxy *p)
{
	unsigned char m[1 + SHL_WATCH_PIECE];
	ssize_t r = recv(p->watch, m, sizeof(m), MSG_DONTWAIT);

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0) {  /* the node process has ended: no more states or descriptions */
		close(p->watch);
		p->watch = -1;
		return p->report == REPORT_DESCRIBE ? start_gdb(p) : 0;
	}
	if (m[0] == SHL_WATCH_STATE && r == 1 + SHL_WATCH_STATE_BYTES)
		return shl_io_ctl_send(p->ctl, SHL_IO_CTL_STATE, m + 1, SHL_WATCH_STATE_BYTES);
	if (p->report != REPORT_DESCRIBE)
		return 0;
	if (m[0] == SHL_WATCH_DESCRIBE)
		fwrite(m + 1, 1, (size_t)r - 1, p->text);
	else if (m[0] == SHL_WATCH_DESCRIBED)
		return start_gdb(p);
	return 0;
}

/* The current phase of a report took too long: go on without it. */
static int report_late(struct proxy *p)
{
	if (p->report == REPORT_DESCRIBE) {
		fprintf(p->text, "shoal: the node process did not describe its ranks\n");
		return start_gdb(p);
	}
	fprintf(p->text, "shoal: gdb took more than %d s; stopped\n", SHL_PROXY_GDB_MS / 1000);
	kill(p->gdb, SIGKILL);  /* its output ends: take_gdb sends the report */
	p->report_by = shl_mono_ms() + SHL_PROXY_GDB_MS;
	return 0;
}

/* What mpiexec sent since the last call: END delivers its signal. Returns -ECONNRESET
 * when mpiexec is gone. */
static int take_ctl(struct proxy *p)
{
	unsigned char *buf = p->ctlbuf;
	size_t *len = &p->ctllen;
	ssize_t r = read(p->ctl, buf + *len, sizeof(p->ctlbuf) - *len);
	const unsigned char *body;
	size_t blen;
	uint8_t type;
	long used;

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0)
		return r < 0 && errno == ETIMEDOUT ? -ETIMEDOUT : -ECONNRESET;
	p->heard_ms = shl_mono_ms();
	*len += (size_t)r;
	while ((used = shl_io_ctl_take(buf, *len, &type, &body, &blen)) > 0) {
		if (type == SHL_IO_CTL_PING) {
			int err = shl_io_ctl_send(p->ctl, SHL_IO_CTL_PONG, NULL, 0);

			if (err)
				return err;
		} else if (type == SHL_IO_CTL_END && blen == 4) {
			int sig = (int)shl_io_ctl_get32(body);

			if (sig > 0 && sig < NSIG)
				kill(p->child, sig);
		} else if (type == SHL_IO_CTL_STDIN && !p->in_eof) {
			int err = take_stdin(p, body, blen);

			if (err)
				return err;
		} else if (type == SHL_IO_CTL_REPORT && blen == 4) {
			int err = start_report(p, shl_io_ctl_get32(body));

			if (err)
				return err;
		}
		memmove(buf, buf + used, *len - (size_t)used);
		*len -= (size_t)used;
	}
	return used < 0 ? -EPROTO : 0;
}

/* Whether the node process is in a stop a signal made (SIGSTOP, SIGTSTP...: state T in
 * /proc), not a debugger's (t: the parent is never told of those) nor running. */
static bool child_stopped(const struct proxy *p)
{
	char path[64], buf[512], *paren;
	int fd;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p->child);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return false;
	buf[r] = '\0';
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] == 'T';
}

/* mpiexec said nothing for SHOAL_PEER_TIMEOUT, or left what we sent unacknowledged that
 * long (the control socket failed with ETIMEDOUT): the proxy ends its node. Said on its own
 * stderr, the launcher's, which reaches the user without mpiexec (ip netns exec, ssh). */
static void mpiexec_silent(const struct proxy *p)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	char ip[INET_ADDRSTRLEN] = "?";

	if (getpeername(p->ctl, (struct sockaddr *)&sa, &len) == 0)
		inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof(ip));
	fprintf(stderr, "shoal: mpiexec (host %s) stopped answering (no reply for %ld s, "
		"SHOAL_PEER_TIMEOUT); noticed by host %s (node %u), which ends its node process\n",
		ip, p->peer_ms / 1000, p->host, p->node);
}

/* Every SHL_PROXY_TICK_MS with a bound on silence: mpiexec silent for the bound returns
 * -ETIMEDOUT (the caller ends the node); a node process stopped for the bound is ended
 * (SIGTERM and SIGCONT, so it writes out its ranks' lines, SIGKILL after a grace) and the
 * job with it (EXIT 1 after the message `gave_up`). */
static int check_clocks(struct proxy *p)
{
	long now = shl_mono_ms();
	char ranks[256];

	if (!p->peer_ms)
		return 0;
	/* The proxy itself did not look for a while (stopped, starved, or blocked sending to
	 * mpiexec, which did not read): a silence it was not there to hear proves nothing. */
	if (now - p->tick_ms > p->peer_ms / 2) {
		p->heard_ms = now;
		p->stopped_ms = 0;
	}
	p->tick_ms = now;
	if (now - p->heard_ms > p->peer_ms)
		return -ETIMEDOUT;
	if (p->ended)
		return 0;
	if (p->kill_ms && now >= p->kill_ms) {
		kill(p->child, SIGKILL);
		p->kill_ms = 0;
	}
	/* gdb making a hang report stops the process while it reads it. */
	if (p->report == REPORT_GDB || !child_stopped(p)) {
		p->stopped_ms = 0;
		return 0;
	}
	if (!p->stopped_ms)
		p->stopped_ms = now;
	if (p->gave_up || now - p->stopped_ms <= p->peer_ms)
		return 0;
	rank_ranges(p, ranks, sizeof(ranks));
	if (asprintf(&p->gave_up, "shoal: host %s stopped answering: its node process (pid %d, "
		     "ranks %s) has been stopped for %ld s (SHOAL_PEER_TIMEOUT); noticed by host "
		     "%s (its node proxy)\n", p->host, (int)p->child, ranks, p->peer_ms / 1000,
		     p->host) < 0)
		p->gave_up = NULL;
	kill(p->child, SIGTERM);
	kill(p->child, SIGCONT);
	p->kill_ms = now + SHL_PROXY_KILL_GRACE_MS;
	return 0;
}

/* Send the node process's PID, then forward output, END, the watchdog's states and REPORTs
 * until the node process ended, its output is drained and no report is being made; then
 * send EXIT. Returns 0, or -errno when mpiexec is gone (the node is killed then). */
static int supervise(struct proxy *p)
{
	int pidfd = (int)syscall(SYS_pidfd_open, p->child, 0);
	int status = 0, err = 0;
	long drain_until = 0;
	unsigned char ex[8];

	/* Where a parallel debugger finds this node's ranks (mpiexec's MPIR table). */
	shl_io_ctl_put32(ex, (uint32_t)p->child);
	err = shl_io_ctl_send(p->ctl, SHL_IO_CTL_PID, ex, 4);
	if (err)
		goto lost;
	while (!p->ended || p->report != REPORT_NONE ||
	       ((p->out.fd >= 0 || p->err.fd >= 0) && shl_mono_ms() < drain_until)) {
		struct pollfd fds[7] = {
			{ .fd = p->ctl, .events = POLLIN },
			{ .fd = p->out.fd, .events = POLLIN },
			{ .fd = p->err.fd, .events = POLLIN },
			{ .fd = p->ended ? -1 : pidfd, .events = POLLIN },
			{ .fd = p->in >= 0 && (p->inlen || p->in_eof) ? p->in : -1,
			  .events = POLLOUT },
			{ .fd = p->watch, .events = POLLIN },
			{ .fd = p->gdbout, .events = POLLIN },
		};
		int wait = p->report != REPORT_NONE ? 100 : p->ended ? 50 : -1;

		if (wait < 0 && pidfd < 0)
			wait = SHL_PROXY_REAP_POLL_MS;
		if (p->peer_ms && (wait < 0 || wait > SHL_PROXY_TICK_MS))
			wait = SHL_PROXY_TICK_MS;
		if (poll(fds, 7, wait) < 0 && errno != EINTR)
			break;
		if (fds[0].revents) {
			err = take_ctl(p);
			if (err)
				goto lost;
		}
		if (fds[4].revents || (p->in >= 0 && p->in_eof && !p->inlen)) {
			err = feed_stdin(p);
			if (err)
				goto lost;
		}
		for (int i = 1; i <= 2; i++)
			if (fds[i].revents) {
				err = pump(p, i == 1 ? &p->out : &p->err);
				if (err)
					goto lost;
			}
		if (fds[5].revents && p->watch >= 0 && (err = take_watch(p)) != 0)
			goto lost;
		if (fds[6].revents && p->gdbout >= 0 && (err = take_gdb(p)) != 0)
			goto lost;
		if (p->report != REPORT_NONE && shl_mono_ms() >= p->report_by &&
		    (err = report_late(p)) != 0)
			goto lost;
		if ((fds[3].revents || pidfd < 0) && waitpid(p->child, &status, WNOHANG) == p->child) {
			p->ended = true;
			drain_until = shl_mono_ms() + SHL_PROXY_DRAIN_MS;
		}
		if ((err = check_clocks(p)) != 0)
			goto lost;
	}
	if (pidfd >= 0)
		close(pidfd);
	for (int i = 0; i < 2; i++) {  /* output of a helper still holding the pipe is cut */
		struct stream *s = i ? &p->err : &p->out;

		if (s->len)
			send_out(p, s, s->len);
	}
	/* The node's last states (its final frame counts) go before its EXIT. */
	for (struct pollfd w = { .fd = p->watch, .events = POLLIN };
	     p->watch >= 0 && poll(&w, 1, 0) > 0 && take_watch(p) == 0;)
		;
	if (p->gave_up) {  /* after the node's own last lines; the job ends with status 1 */
		size_t n = strlen(p->gave_up);

		memcpy(p->err.buf, p->gave_up, n);
		p->err.len = n;
		send_out(p, &p->err, n);
		status = 1 << 8;  /* as exit(1) */
	}
	shl_io_ctl_put32(ex, WIFSIGNALED(status) ? 1 : 0);
	shl_io_ctl_put32(ex + 4, (uint32_t)(WIFSIGNALED(status) ? WTERMSIG(status)
							       : WEXITSTATUS(status)));
	return shl_io_ctl_send(p->ctl, SHL_IO_CTL_EXIT, ex, sizeof(ex));
lost:
	if (err == -ETIMEDOUT && p->peer_ms)
		mpiexec_silent(p);
	if (p->gdb > 0 && p->gdbout >= 0)
		kill(p->gdb, SIGKILL);
	kill(p->child, SIGKILL);
	waitpid(p->child, &status, 0);
	close(pidfd);
	return err;
}

/* After EXIT: stay until mpiexec closes the control channel, which it does once every node
 * has ended. Meanwhile the mesh listener stays open, so a lower-numbered node that is slow
 * to start still connects to this one (the kernel completes the connection) even when this
 * node's ranks have all ended already. */
static void linger(struct proxy *p)
{
	struct pollfd pfd = { .fd = p->ctl, .events = POLLIN };

	for (;;) {
		int n = poll(&pfd, 1, p->peer_ms ? SHL_PROXY_TICK_MS : -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || check_clocks(p) < 0)
			return;
		if (n == 0)
			continue;
		p->ctllen = 0;  /* END or STDIN now mean nothing: drop them */
		ssize_t r = read(p->ctl, p->ctlbuf, sizeof(p->ctlbuf));

		if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
			return;
		p->heard_ms = shl_mono_ms();  /* mpiexec's PINGs: it still runs */
	}
}

int shl_node_proxy_main(int argc, char **argv)
{
	struct proxy *p = calloc(1, sizeof(*p));
	int out[2], errp[2], in[2] = { -1, -1 }, watch[2], err;
	pid_t self = getpid();

	if (!p)
		return 1;
	p->ctl = p->listen = p->in = p->watch = p->gdbout = -1;
	if (parse(p, argc, argv) < 0) {
		fprintf(stderr, "usage: shoal-node --connect IP[,IP...]:PORT --node I --host NAME "
			"[--wdir DIR] program [args...] (started by mpiexec, secret on stdin)\n"
			"       shoal-node --connect IP[,IP...]:PORT --node slurm --hosts A,B,... "
			"[--wdir DIR] program [args...] (started by srun)\n"
			"       shoal-node --connect fd:N --node 0 --host NAME [--wdir DIR] "
			"[--jobdir DIR] program [args...]\n"
			"           (forked by mpiexec for a job on its host, secret on stdin)\n");
		return 2;
	}
	/* Terminal signals belong to mpiexec, which forwards them as END. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);  /* a node that closed its stdin: EPIPE, not death */
	if (read_secret(p) < 0)
		return fail(p, "no job secret on stdin", EPERM);
	if (p->wdir && chdir(p->wdir) < 0)
		return fail(p, p->wdir, errno);
	err = dial(p);
	if (err)
		return fail(p, "cannot connect to mpiexec", err);
	err = handshake(p);
	if (err)
		return fail(p, "handshake with mpiexec failed", err);
	if (p->jobdir)
		snprintf(p->dir, sizeof(p->dir), "%s", p->jobdir);
	else if ((err = shl_jobdir_make("shoal-node", p->dir, sizeof(p->dir))) != 0)
		return fail(p, "cannot make a job directory", err);
	/* Rank 0's node gets mpiexec's stdin through a pipe; the others keep /dev/null. */
	if ((p->node_of[0] == p->node && pipe2(in, O_CLOEXEC) < 0) ||
	    pipe2(out, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, watch) < 0) {
		err = errno;
		if (!p->jobdir)
			shl_jobdir_remove(p->dir);
		return fail(p, "pipe", err);
	}
	p->in = in[1];
	p->watch = watch[0];
	fflush(NULL);
	p->child = fork();
	if (p->child == 0)
		run_child(p, self, in[0], out[1], errp[1], watch[1]);
	close(out[1]);
	close(errp[1]);
	close(watch[1]);
	if (in[0] >= 0) {
		close(in[0]);
		fcntl(p->in, F_SETFL, O_NONBLOCK);
	}
	if (p->child < 0) {
		err = errno;
		if (!p->jobdir)
			shl_jobdir_remove(p->dir);
		return fail(p, "fork", err);
	}
	p->out = (struct stream){ .fd = out[0], .id = 1 };
	p->err = (struct stream){ .fd = errp[0], .id = 2 };
	err = supervise(p);
	if (!p->jobdir)
		shl_jobdir_remove(p->dir);
	if (!err)
		linger(p);
	return err ? 1 : 0;
}
