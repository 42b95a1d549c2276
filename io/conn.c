/* Connections of the TCP mesh: dialing every higher node at start, or calling one on its
 * first frame (lazy), accepting the lower nodes' connections, the greeting that proves the
 * job secret both ways (io/auth.h), the deadline of a greeting, the bound on accepted
 * connections still to greet (the oldest dropped first), and closing.
 * Entered by the main thread (shl_mesh_connect_all, before the completion thread exists)
 * and by whoever holds io.lock (the completion thread, or a rank reading the connections).
 * Must not read a frame (io/stream.c does, once a connection is authed) nor send anything
 * on a connection that has not proved the secret but the greeting itself. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "io/auth.h"
#include "io/clock.h"
#include "io/mesh_internal.h"

/* How long the main thread tries to reach a node before giving up, and how long a lazy
 * connect() may take: a listener exists before PEERS is sent, so only a lost or filtered
 * network takes this long. */
#define SHL_IO_CONNECT_S 10
/* How long an accepted connection may take to greet: as long as mpiexec gives a control
 * connection (docs/offnode.md). */
#define SHL_IO_GREET_S 10
/* Accepted connections that may wait for their greeting at once, beyond one per other node
 * (each calls us at most once): room for every real peer, while a flood of idle or slow
 * connections from anywhere holds no more descriptors than this, which the ranks share.
 * Past it the oldest goes (newest-first list: a real peer greets at once, so a flood that
 * keeps coming pushes out its own connections before a peer's). */
#define SHL_IO_UNPROVED_SPARE 64
/* Connections accepted per readable event of the listener: between two batches the
 * completion thread reads the greetings that arrived, so a peer that connects during a
 * flood greets before the flood can push it out. */
#define SHL_IO_ACCEPT_BATCH 16

static void name_of(struct conn *c, const struct sockaddr_in *sa)
{
	char ip[INET_ADDRSTRLEN] = "?";

	inet_ntop(AF_INET, &sa->sin_addr, ip, sizeof(ip));
	snprintf(c->name, sizeof(c->name), "%s:%u", ip, ntohs(sa->sin_port));
}

static struct conn *conn_new(int fd, const struct sockaddr_in *sa)
{
	struct conn *c = calloc(1, sizeof(*c) + SHL_IO_IBUF);
	int one = 1;

	if (c == NULL)
		return NULL;
	c->fd = fd;
	name_of(c, sa);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	shl_io_ctl_keepalive(fd, io.peer_s);  /* idle, to a node gone: fails (io/ctl.h) */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return c;
}

/* Take `c` off the list of connections still to greet, if it is on it. */
static void greeted(struct conn *c)
{
	for (struct conn **link = &io.greeting; *link != NULL; link = &(*link)->greeting)
		if (*link == c) {
			*link = c->greeting;
			if (!c->dialed)
				io.unproved--;
			return;
		}
}

/* Hold a descriptor back for shl_mesh_accept to take one connection off the listener with
 * when the process has none left: dropped at once, it leaves the listener quiet instead of
 * readable forever. */
static void hold_spare(void)
{
	if (!io.has_spare && (io.spare = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		io.has_spare = true;
}

/* Report the accepted connections dropped for newer ones, at most once a second unless
 * `now_too`. */
static void say_shed(bool now_too)
{
	time_t now = shl_mono_s();

	if (io.shed == 0 || (!now_too && now == io.shed_said))
		return;
	fprintf(stderr, "shoal: node %u (host %s): dropped %llu mesh connections that had not "
		"greeted, the oldest first (at most %u wait at once)\n", io.node, io.host,
		(unsigned long long)io.shed, io.nnodes + SHL_IO_UNPROVED_SPARE);
	fflush(stderr);
	io.shed = 0;
	io.shed_said = now;
}

/* Drop the oldest accepted connection still to greet that has not sent a whole hello, else
 * the oldest one. Returns false if there is none. */
static bool shed_oldest(void)
{
	struct conn *idle = NULL, *any = NULL;

	for (struct conn *c = io.greeting; c != NULL; c = c->greeting)
		if (!c->dialed) {
			any = c;
			if (c->in == IN_HELLO)
				idle = c;
		}
	if (any == NULL)
		return false;
	io.shed++;
	shl_mesh_close(idle != NULL ? idle : any);
	return true;
}

/* `c` speaks for node `node` from now on. */
static void conn_auth(struct conn *c, uint32_t node)
{
	c->authed = true;
	c->node = node;
	c->next_authed = io.authed;
	io.authed = c;
	if (io.disarmed)
		shl_mesh_arm(c);
	c->rules = (struct shl_io_frame_rules){ .world_size = io.world_size,
						.node_of = io.node_of, .from_node = node,
						.to_node = io.node, .eager_max = SHL_IO_EAGER_MAX };
	c->in = IN_HEADER;
	c->got = 0;
}

/* Close `c` (freed after the current batch of events). Sends still queued for its node
 * can never be written: that ends the job. */
void shl_mesh_close(struct conn *c)
{
	if (c->fd < 0)
		return;
	epoll_ctl(io.ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	for (struct conn **link = &io.authed; c->authed && *link != NULL;
	     link = &(*link)->next_authed)
		if (*link == c) {
			*link = c->next_authed;
			break;
		}
	if (!c->authed)
		greeted(c);
	if (c->dialed && !c->authed) {
		/* Reset before it answered: that node has ended already (nodes end at different
		 * times), which matters only if we have something for it. */
		struct peer *p = &io.peers[c->claimed];
		p->lost = true;
		if (p->head != NULL)
			shl_mesh_die_peer_gone("lost the connection to node %u (%s) before it "
					       "answered our greeting, with messages still to "
					       "send", c->claimed, c->name);
	}
	if (c->in == IN_PAYLOAD && c->f.type == SHL_IO_DATA)
		shl_mesh_die_peer_gone("lost the connection to node %u (%s) in the middle of a "
				       "message", c->node, c->name);
	if (c->in == IN_PAYLOAD)
		shl_proto_abort(&c->f, &c->sink);
	c->in = IN_HEADER;
	if (c->authed && io.peers[c->node].out == c) {
		struct peer *p = &io.peers[c->node];
		p->out = NULL;
		p->lost = true;
		if (p->head != NULL)
			shl_mesh_die_peer_gone("lost the connection to node %u (%s) with messages "
					       "still to send", c->node, c->name);
	}
	c->dead = io.dead;
	io.dead = c;
}

/* The hello of an accepted connection is complete: check it and send our challenge, our
 * nonce with our own answer to theirs (the socket is fresh: its buffer takes 68 bytes). */
static int check_hello(struct conn *c)
{
	uint32_t magic = shl_io_ctl_get32(c->hdr), version = shl_io_ctl_get32(c->hdr + 4);
	uint32_t node = shl_io_ctl_get32(c->hdr + 8);
	unsigned char challenge[SHL_IO_CHALLENGE_BYTES];

	if (magic != SHL_IO_HELLO_MAGIC || version != SHL_IO_HELLO_VERSION) {
		shl_mesh_report(c, "dropped: not a Shoal mesh greeting");
		return -EPROTO;
	}
	/* All at start, the lower-numbered node connects; lazily, whoever sends first
	 * (docs/offnode.md). */
	if (node >= io.nnodes || node == io.node || (!io.lazy && node > io.node)) {
		shl_mesh_report(c, "dropped: claims to be node %u, which does not connect to node "
				"%u", node, io.node);
		return -EPROTO;
	}
	c->claimed = node;
	memcpy(c->nonces, c->hdr + 12, SHL_IO_AUTH_NONCE);
	shl_io_ctl_put32(challenge, SHL_IO_HELLO_MAGIC);
	if (shl_io_auth_nonce(c->nonces + SHL_IO_AUTH_NONCE) < 0 ||
	    shl_io_auth_proof(io.secret, SHL_IO_AUTH_MESH_ACCEPT, node, io.node, c->nonces,
			      c->nonces + SHL_IO_AUTH_NONCE, challenge + 4 + SHL_IO_AUTH_NONCE) < 0)
		shl_mesh_die("cannot make a challenge for a mesh connection");
	memcpy(challenge + 4, c->nonces + SHL_IO_AUTH_NONCE, SHL_IO_AUTH_NONCE);
	if (write(c->fd, challenge, sizeof(challenge)) != (ssize_t)sizeof(challenge)) {
		shl_mesh_report(c, "dropped: cannot send it our challenge");
		return -EIO;
	}
	c->in = IN_PROOF;
	c->got = 0;
	return 0;
}

/* The challenge of the node we called is complete: its answer to our nonce proves it
 * knows the secret (or the connection goes, and that node with it), and ours follows. The
 * socket is fresh: its buffer takes 32 bytes. */
static int check_challenge(struct conn *c)
{
	uint32_t n = c->claimed;
	unsigned char proof[SHL_IO_AUTH_PROOF];

	if (shl_io_ctl_get32(c->hdr) != SHL_IO_HELLO_MAGIC ||
	    !shl_io_auth_check(io.secret, SHL_IO_AUTH_MESH_ACCEPT, io.node, n, c->nonces,
			       c->hdr + 4, c->hdr + 4 + SHL_IO_AUTH_NONCE)) {
		shl_mesh_report(c, "dropped: node %u did not prove the job secret", n);
		return -EACCES;
	}
	if (shl_io_auth_proof(io.secret, SHL_IO_AUTH_MESH_DIAL, io.node, n, c->nonces,
			      c->hdr + 4, proof) < 0)
		shl_mesh_die("cannot answer the challenge of node %u", n);
	if (write(c->fd, proof, sizeof(proof)) != (ssize_t)sizeof(proof)) {
		shl_mesh_report(c, "dropped: cannot send node %u our answer", n);
		return -EIO;
	}
	greeted(c);
	conn_auth(c, n);
	/* Lazily, node n may have called us too: frames go on whichever proved first. */
	if (io.peers[n].out == NULL)
		io.peers[n].out = c;
	shl_mesh_flush(n);
	return 0;
}

/* The answer to our challenge is complete: it proves the secret, or the connection goes. */
static int check_proof(struct conn *c)
{
	uint32_t node = c->claimed;

	if (!shl_io_auth_check(io.secret, SHL_IO_AUTH_MESH_DIAL, node, io.node, c->nonces,
			       c->nonces + SHL_IO_AUTH_NONCE, c->hdr)) {
		shl_mesh_report(c, "dropped: wrong job secret (wrong answer to our challenge)");
		return -EPERM;
	}
	greeted(c);
	conn_auth(c, node);
	if (io.peers[node].out == NULL && !io.peers[node].lost) {
		io.peers[node].out = c;
		shl_mesh_flush(node);
	}
	return 0;
}

int shl_mesh_greet(struct conn *c)
{
	switch (c->in) {
	case IN_HELLO:
		return check_hello(c);
	case IN_PROOF:
		return check_proof(c);
	default:
		return check_challenge(c);
	}
}

/* `c` is connected to node `n`: greet it with our nonce (a fresh socket's send buffer takes
 * 44 bytes in one write) and wait for its challenge (check_challenge) for as long as an
 * accepted connection may take to greet. */
static int start_greeting(struct conn *c, uint32_t n)
{
	unsigned char hello[SHL_IO_HELLO_BYTES];
	int err;

	shl_io_ctl_put32(hello, SHL_IO_HELLO_MAGIC);
	shl_io_ctl_put32(hello + 4, SHL_IO_HELLO_VERSION);
	shl_io_ctl_put32(hello + 8, io.node);
	if ((err = shl_io_auth_nonce(hello + 12)) < 0)
		return err;
	if (write(c->fd, hello, sizeof(hello)) != (ssize_t)sizeof(hello))
		return -EIO;
	memcpy(c->nonces, hello + 12, SHL_IO_AUTH_NONCE);
	c->dialed = true;
	c->claimed = n;
	c->in = IN_CHALLENGE;
	c->got = 0;
	c->deadline = shl_mono_s() + SHL_IO_GREET_S;
	c->greeting = io.greeting;
	io.greeting = c;
	return 0;
}

/* Main thread: a connection to node `n`, greeted with our nonce. The completion thread
 * reads its challenge and answers (check_challenge); frames for node n wait in its queue
 * until then. Not waiting here for the answer lets every node start its thread at once
 * (node n answers only once its own thread runs) and lets a node that has already ended
 * be missed quietly, as at EOF. */
static int dial(uint32_t n, const struct sockaddr_in *sa)
{
	struct conn *c;
	int fd = -1, err = 0;

	for (int tries = 0; tries < 10 * SHL_IO_CONNECT_S; tries++) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
			break;
		err = -errno;
		close(fd);
		fd = -1;
		/* Its listener existed before PEERS: refused means that node has ended. */
		if (err != -EINTR && err != -ETIMEDOUT)
			return err;
		usleep(100 * 1000);
	}
	if (fd < 0)
		return err;
	c = conn_new(fd, sa);
	struct epoll_event ev = { EPOLLIN, { .ptr = c } };
	if (c == NULL || epoll_ctl(io.ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		free(c);
		return -ENOMEM;
	}
	io.peers[n].dialed = true;
	/* Node n answers once its thread runs: after its own dials, which wait for nobody. */
	return start_greeting(c, n);
}

int shl_mesh_connect_all(const struct shl_io_config *cfg)
{
	hold_spare();
	for (uint32_t n = cfg->node + 1; n < cfg->nnodes; n++) {
		int err = dial(n, &cfg->addr[n]);
		if (err == -ECONNREFUSED) {
			/* Nodes end at different times: a node that has ended is missed quietly,
			 * as at EOF, unless something is ever queued for it (then this one ends,
			 * saying so). */
			io.peers[n].lost = true;
			continue;
		}
		if (err < 0) {
			char ip[INET_ADDRSTRLEN] = "?";
			inet_ntop(AF_INET, &cfg->addr[n].sin_addr, ip, sizeof(ip));
			fprintf(stderr, "shoal: node %u (host %s): cannot connect to node %u at %s:%u: "
				"%s\n", io.node, io.host, n, ip, ntohs(cfg->addr[n].sin_port),
				strerror(-err));
			return err;
		}
	}
	return 0;
}

/* Lazily, the first frame for node `n`: call it (a non-blocking connect, finished by
 * shl_mesh_connected on EPOLLOUT). A node that cannot be called ends this one, as at
 * start. */
void shl_mesh_call(uint32_t n)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	struct conn *c;

	io.peers[n].dialed = true;
	if (fd < 0)
		shl_mesh_die("cannot connect to node %u: %s", n, strerror(errno));
	if (connect(fd, (const struct sockaddr *)&io.addr[n], sizeof(io.addr[n])) < 0 &&
	    errno != EINPROGRESS)
		shl_mesh_die("cannot connect to node %u: %s", n, strerror(errno));
	c = conn_new(fd, &io.addr[n]);
	struct epoll_event ev = { EPOLLOUT, { .ptr = c } };
	if (c == NULL || epoll_ctl(io.ep, EPOLL_CTL_ADD, fd, &ev) < 0)
		shl_mesh_die("out of memory for a connection to node %u", n);
	c->dialed = true;
	c->claimed = n;
	c->in = IN_CONNECTING;
	c->deadline = shl_mono_s() + SHL_IO_CONNECT_S;
	c->greeting = io.greeting;
	io.greeting = c;
}

/* The connect() of lazy connection `c` has finished: greet, or give up on that node. */
void shl_mesh_connected(struct conn *c, uint32_t events)
{
	int soerr = 0;
	socklen_t len = sizeof(soerr);
	struct epoll_event ev = { EPOLLIN, { .ptr = c } };

	if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
		return;
	getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
	greeted(c);
	if (soerr != 0 || epoll_ctl(io.ep, EPOLL_CTL_MOD, c->fd, &ev) < 0 ||
	    start_greeting(c, c->claimed) < 0) {
		shl_mesh_report(c, "cannot connect to node %u: %s", c->claimed,
				strerror(soerr ? soerr : EIO));
		c->in = IN_HEADER;
		shl_mesh_close(c);
	}
}

/* Out of descriptors with nothing to drop: take one connection off the listener with the
 * spare descriptor, close it and hold the spare again. Returns false if that failed (the
 * listener stays readable; the next event tries again). */
static bool refuse_one(void)
{
	int fd;

	if (!io.has_spare)
		return false;
	close(io.spare);
	io.has_spare = false;
	fd = accept4(io.listen, NULL, NULL, SOCK_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		io.shed++;
	}
	hold_spare();
	return fd >= 0 && io.has_spare;
}

void shl_mesh_accept(void)
{
	hold_spare();
	for (int taken = 0; taken < SHL_IO_ACCEPT_BATCH;) {
		struct sockaddr_in sa;
		socklen_t len = sizeof(sa);
		int fd = accept4(io.listen, (struct sockaddr *)&sa, &len, SOCK_CLOEXEC);
		struct conn *c;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno != EMFILE && errno != ENFILE && errno != ENOBUFS &&
			    errno != ENOMEM)
				break;  /* EAGAIN: all taken */
			/* Out of descriptors: the oldest waiting connection gives its own. */
			if (!shed_oldest() && !refuse_one())
				break;
			taken++;
			continue;
		}
		taken++;
		if (io.unproved >= (int)io.nnodes + SHL_IO_UNPROVED_SPARE)
			shed_oldest();
		c = conn_new(fd, &sa);
		struct epoll_event ev = { EPOLLIN, { .ptr = c } };
		if (c == NULL || epoll_ctl(io.ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
			close(fd);
			free(c);
			continue;
		}
		c->deadline = shl_mono_s() + SHL_IO_GREET_S;
		c->greeting = io.greeting;
		io.greeting = c;
		io.unproved++;
	}
	say_shed(false);
}

/* Drop the connections that have not greeted in time; report the ones dropped for newer
 * ones. */
void shl_mesh_expire(void)
{
	time_t now = shl_mono_s();
	struct conn *c = io.greeting, *next;

	for (; c != NULL; c = next) {
		next = c->greeting;
		if (now >= c->deadline) {
			shl_mesh_report(c, "dropped: no greeting within %d s", SHL_IO_GREET_S);
			shl_mesh_close(c);
		}
	}
	say_shed(true);
}
