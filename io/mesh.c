/* The completion thread: owns every mesh socket, the listener, the wake-up eventfd and the
 * output queues. Entered by the main thread (start, before the thread exists), rank
 * threads (post: the submission queue and the eventfd, or, holding io.lock, the posts
 * taken at once; poll) and the completion thread. Must not block on a socket (all are
 * non-blocking once the thread runs), nor keep protocol state: frames go to and come from
 * io/proto.c (io/transport.h). */
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "io/auth.h"
#include "io/clock.h"
#include "io/mesh.h"

/* Frames gathered into one sendmsg: 64 small frames make one system call when a rank
 * sends in bursts (the OSU message-rate window is 64). */
#define SHL_IO_IOV 128
/* Bytes handed to one sendmsg. A rendezvous payload of megabytes written in one call
 * keeps the socket locked while the kernel copies all of it, so the receiver's
 * acknowledgements wait in the socket's backlog and the stream goes in bursts; calls of
 * 256 KiB let them in between (bench OFFNODE, 1 MiB, 6 interleaved launches each:
 * bandwidth 1.83 -> 2.40 GB/s median, ping-pong 575 -> 392 us one way; 128 KiB was slower
 * than 256, 512 KiB about the same: docs/performance.md, "Off-node"). */
#define SHL_IO_WRITE_MAX (256u * 1024)
/* Input buffer of a connection: small frames (headers, eager payloads, greetings) come out
 * of one read() of up to this many bytes, instead of a read() per part and one more to
 * learn the socket is empty (three system calls per small message before). */
#define SHL_IO_IBUF (64u * 1024)
/* A part at least this long, with the input buffer empty, is read straight to where it
 * goes (a DATA payload into the receive buffer, an eager payload into its envelope): no
 * copy through the buffer. A quarter of the buffer: below it the copy costs less than
 * the extra read. */
#define SHL_IO_DIRECT_MIN (SHL_IO_IBUF / 4)
/* Events taken per epoll_wait. */
#define SHL_IO_EVENTS 64
/* How long shl_io_start tries to reach a node before giving up: its listener exists before
 * PEERS is sent, so only a lost or filtered network takes this long. */
#define SHL_IO_CONNECT_S 10
/* How long an accepted connection may take to greet: as long as mpiexec gives a control
 * connection (docs/offnode.md). */
#define SHL_IO_GREET_S 10
/* How long a node that lost a peer it still needed waits for mpiexec to end the job before
 * it ends with its own report (die_peer_gone). mpiexec's END comes in milliseconds (a whole
 * 2-host job ended by a rank's exit code took 20–30 ms here); a job whose peer ended
 * without an error waits this long for the error. */
#define SHL_IO_PEER_GONE_GRACE_MS 1000

/* What a connection's next bytes are. */
enum in_state {
	IN_HELLO,                    /* the greeting (accepted connections) */
	IN_PROOF,                    /* the answer to our challenge (accepted connections) */
	IN_CHALLENGE,                /* the accepting node's challenge (connections we made) */
	IN_CONNECTING,               /* a lazy connection's connect() in progress (EPOLLOUT) */
	IN_HEADER,                   /* a frame header */
	IN_PAYLOAD,                  /* a frame's payload, into `sink` */
};

/* One TCP connection to another node. */
struct conn {
	int fd;
	bool authed;                 /* the hello proved the secret (always, for ones we made) */
	uint32_t node;               /* the other end (once authed) */
	char name[48];               /* its address, for reports */
	bool dialed;                 /* we made it: `claimed` is the node we called */
	uint32_t claimed;            /* the node its greeting claims to be */
	unsigned char nonces[2 * SHL_IO_AUTH_NONCE];  /* its nonce, then ours */
	struct shl_io_frame_rules rules;
	enum in_state in;
	size_t got;                  /* bytes of the current part read */
	unsigned char hdr[SHL_IO_CHALLENGE_BYTES];  /* greetings and frame headers */
	struct shl_io_frame f;
	struct shl_io_sink sink;     /* where the payload of `f` goes (io/proto.c) */
	struct conn *dead;           /* closed during this batch of events: freed after it */
	struct conn *next_authed;    /* io.authed */
	/* Accepted connections still to greet: a list with their deadlines. */
	struct conn *greeting;
	time_t deadline;             /* CLOCK_MONOTONIC seconds */
	/* Input: bytes read but not yet taken are ibuf[ipos, ihave). */
	bool more;                   /* the socket may hold more: the last read filled its space */
	size_t ipos, ihave;
	unsigned char ibuf[];        /* SHL_IO_IBUF bytes */
};

/* What this node sends to one other node. */
struct peer {
	struct conn *out;            /* the connection frames go on; NULL until made */
	bool lost;                   /* `out` closed: nothing more can be sent there */
	bool pollout;                /* waiting for EPOLLOUT */
	bool dialed;                 /* lazy: we have called that node */
	struct shl_io_send *head, **tail;
	size_t off;                  /* bytes of `head` (header + payload) already written */
};

/* The process-wide state. Fixed by start before the thread starts: the config copies, ep,
 * wake. Submission queue: any thread enqueues, the lock holder dequeues. Everything else:
 * the lock holder's alone. */
static struct {
	uint32_t node, nnodes;
	int32_t world_size;
	uint32_t *node_of;
	bool lazy;                   /* connections on first use (SHOAL_CONNECT=lazy) */
	struct sockaddr_in *addr;    /* every node's listener, for lazy connections */
	unsigned char secret[SHL_IO_CTL_SECRET];
	char host[64];
	int ep, wake, listen;
	struct peer *peers;
	struct conn *dead;
	struct conn *greeting;       /* accepted connections that have not greeted yet */
	struct conn *authed;         /* connections that proved the secret, open */
	/* Rank threads spinning in a wait that read the connections themselves
	 * (shl_io_poll); while there are any, the authed connections' arrivals do not wake
	 * the thread (`disarmed`: no EPOLLIN). */
	int pollers;
	bool disarmed;
	uint64_t reads;              /* read() calls that returned bytes */
	unsigned char scratch[SHL_IO_EAGER_MAX];  /* DATA bytes beyond a truncated receive */
	uint64_t poll_ns;            /* fixed at start (shl_io_config) */
	/* Held by the thread whenever it is not waiting in epoll_wait or yielding; a rank
	 * that gets it with trylock may take the posts itself (post) or read the connections
	 * (poll). It guards everything the thread owns, and io/proto.c's state. */
	pthread_mutex_t lock;
	/* The thread polls (is not asleep in epoll_wait): posters need not write `wake`.
	 * Written by the thread, read by posters; seq_cst both ways (post). */
	alignas(64) _Atomic bool polling;
	alignas(64) struct __cds_wfcq_head sub_head;
	alignas(64) struct cds_wfcq_tail sub_tail;
} io;

/* epoll tags of the two non-connection descriptors. */
static char tag_wake, tag_listen;

static void report(const struct conn *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A line on stderr about connection `c` (dropped, rejected). */
static void report(const struct conn *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->authed)
		fprintf(stderr, "shoal: node %u (host %s): connection from node %u (%s): %s\n",
			io.node, io.host, c->node, c->name, msg);
	else
		fprintf(stderr, "shoal: node %u (host %s): mesh connection %s %s: %s\n", io.node,
			io.host, c->dialed ? "to" : "from", c->name, msg);
	fflush(stderr);
}

static _Noreturn void vdie(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static _Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void die_peer_gone(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static _Noreturn void vdie(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "shoal: node %u (host %s): ", io.node, io.host);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
	_exit(1);
}

/* The mesh cannot go on: end the node process (mpiexec then ends the job). */
static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(fmt, ap);
}

/* The same, for a connection a peer node closed while we still needed it. That node has
 * mostly ended on an error of its own (a rank's exit code, a crash), which mpiexec reports
 * and ends the job for: its END (the proxy's SIGTERM) comes within milliseconds. Wait that
 * long before ending with our own status 1, or the job's status could be this
 * consequence's instead of the cause's (tests/rank_exit_code_wins_over_hosts_that_lose_it). */
static _Noreturn void die_peer_gone(const char *fmt, ...)
{
	struct timespec grace = { SHL_IO_PEER_GONE_GRACE_MS / 1000,
				  SHL_IO_PEER_GONE_GRACE_MS % 1000 * 1000000L };
	va_list ap;

	while (nanosleep(&grace, &grace) != 0 && errno == EINTR)
		;
	va_start(ap, fmt);
	vdie(fmt, ap);
}

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
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return c;
}

/* Take `c` off the list of connections still to greet, if it is on it. */
static void greeted(struct conn *c)
{
	for (struct conn **link = &io.greeting; *link != NULL; link = &(*link)->greeting)
		if (*link == c) {
			*link = c->greeting;
			return;
		}
}

/* Set the events epoll reports for authed connection `c`: none while ranks read and write
 * the connections themselves (io.disarmed), else EPOLLIN, and EPOLLOUT while frames wait
 * for room in it. Errors and hang-ups are always reported. */
static void arm(struct conn *c)
{
	struct peer *p = &io.peers[c->node];
	struct epoll_event ev = { io.disarmed ? 0 : EPOLLIN | (p->out == c && p->pollout ?
								EPOLLOUT : 0), { .ptr = c } };

	epoll_ctl(io.ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* `c` speaks for node `node` from now on. */
static void conn_auth(struct conn *c, uint32_t node)
{
	c->authed = true;
	c->node = node;
	c->next_authed = io.authed;
	io.authed = c;
	if (io.disarmed)
		arm(c);
	c->rules = (struct shl_io_frame_rules){ .world_size = io.world_size,
						.node_of = io.node_of, .from_node = node,
						.to_node = io.node, .eager_max = SHL_IO_EAGER_MAX };
	c->in = IN_HEADER;
	c->got = 0;
}

static void flush(uint32_t n);

/* Close `c` (freed after the current batch of events). Sends still queued for its node
 * can never be written: that ends the job. */
static void conn_close(struct conn *c)
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
			die_peer_gone("lost the connection to node %u (%s) before it answered our "
				      "greeting, with messages still to send", c->claimed, c->name);
	}
	if (c->in == IN_PAYLOAD && c->f.type == SHL_IO_DATA)
		die_peer_gone("lost the connection to node %u (%s) in the middle of a message",
			      c->node, c->name);
	if (c->in == IN_PAYLOAD)
		shl_proto_abort(&c->f, &c->sink);
	c->in = IN_HEADER;
	if (c->authed && io.peers[c->node].out == c) {
		struct peer *p = &io.peers[c->node];
		p->out = NULL;
		p->lost = true;
		if (p->head != NULL)
			die_peer_gone("lost the connection to node %u (%s) with messages still to "
				      "send", c->node, c->name);
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
		report(c, "dropped: not a Shoal mesh greeting");
		return -EPROTO;
	}
	/* All at start, the lower-numbered node connects; lazily, whoever sends first
	 * (docs/offnode.md). */
	if (node >= io.nnodes || node == io.node || (!io.lazy && node > io.node)) {
		report(c, "dropped: claims to be node %u, which does not connect to node %u", node,
		       io.node);
		return -EPROTO;
	}
	c->claimed = node;
	memcpy(c->nonces, c->hdr + 12, SHL_IO_AUTH_NONCE);
	shl_io_ctl_put32(challenge, SHL_IO_HELLO_MAGIC);
	if (shl_io_auth_nonce(c->nonces + SHL_IO_AUTH_NONCE) < 0 ||
	    shl_io_auth_proof(io.secret, SHL_IO_AUTH_MESH_ACCEPT, node, io.node, c->nonces,
			      c->nonces + SHL_IO_AUTH_NONCE, challenge + 4 + SHL_IO_AUTH_NONCE) < 0)
		die("cannot make a challenge for a mesh connection");
	memcpy(challenge + 4, c->nonces + SHL_IO_AUTH_NONCE, SHL_IO_AUTH_NONCE);
	if (write(c->fd, challenge, sizeof(challenge)) != (ssize_t)sizeof(challenge)) {
		report(c, "dropped: cannot send it our challenge");
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
		report(c, "dropped: node %u did not prove the job secret", n);
		return -EACCES;
	}
	if (shl_io_auth_proof(io.secret, SHL_IO_AUTH_MESH_DIAL, io.node, n, c->nonces,
			      c->hdr + 4, proof) < 0)
		die("cannot answer the challenge of node %u", n);
	if (write(c->fd, proof, sizeof(proof)) != (ssize_t)sizeof(proof)) {
		report(c, "dropped: cannot send node %u our answer", n);
		return -EIO;
	}
	greeted(c);
	conn_auth(c, n);
	/* Lazily, node n may have called us too: frames go on whichever proved first. */
	if (io.peers[n].out == NULL)
		io.peers[n].out = c;
	flush(n);
	return 0;
}

/* The answer to our challenge is complete: it proves the secret, or the connection goes. */
static int check_proof(struct conn *c)
{
	uint32_t node = c->claimed;

	if (!shl_io_auth_check(io.secret, SHL_IO_AUTH_MESH_DIAL, node, io.node, c->nonces,
			       c->nonces + SHL_IO_AUTH_NONCE, c->hdr)) {
		report(c, "dropped: wrong job secret (wrong answer to our challenge)");
		return -EPERM;
	}
	greeted(c);
	conn_auth(c, node);
	if (io.peers[node].out == NULL && !io.peers[node].lost) {
		io.peers[node].out = c;
		flush(node);
	}
	return 0;
}

static void next_header(struct conn *c)
{
	c->in = IN_HEADER;
	c->got = 0;
}

static void queue(uint32_t n, struct shl_io_send *d)
{
	struct peer *p = &io.peers[n];

	shl_io_frame_encode(&d->frame, d->wire);
	d->next = NULL;
	*p->tail = d;
	p->tail = &d->next;
}

/* Every payload byte of c->f is in: hand the frame to the protocol. */
static int got_frame(struct conn *c)
{
	int err = shl_proto_frame(c->node, &c->f, &c->sink);

	if (err < 0) {
		report(c, "dropped: %s", c->sink.why);
		return err;
	}
	next_header(c);
	return 0;
}

/* A frame header is complete: check it and say where its payload goes. */
static int start_frame(struct conn *c)
{
	int err = shl_io_frame_decode(c->hdr, SHL_IO_FRAME_HEADER, &c->rules, &c->f);

	if (err < 0) {
		report(c, "dropped: bad frame header: %s (type %u, src %d, dst %d, length %llu)",
		       shl_io_frame_error(err), c->f.type, c->f.src, c->f.dst,
		       (unsigned long long)c->f.length);
		return err;
	}
	err = shl_proto_header(c->node, &c->f, &c->sink);
	if (err < 0) {
		report(c, "dropped: %s", c->sink.why);
		return err;
	}
	c->in = IN_PAYLOAD;
	c->got = 0;
	return c->f.length == 0 ? got_frame(c) : 0;
}

/* Read what `c` has: the hello, headers and payloads, until the socket is empty (a read
 * that did not fill its space says so: epoll is level-triggered and reports whatever comes
 * after). Closes `c` at EOF or on anything it rejects. */
static void drain_conn(struct conn *c)
{
	c->more = true;
	for (;;) {
		unsigned char *to;
		size_t want;
		ssize_t n;
		int err = 0;

		switch (c->in) {
		case IN_HELLO:
			to = c->hdr + c->got;
			want = SHL_IO_HELLO_BYTES - c->got;
			break;
		case IN_PROOF:
			to = c->hdr + c->got;
			want = SHL_IO_AUTH_PROOF - c->got;
			break;
		case IN_CHALLENGE:
			to = c->hdr + c->got;
			want = SHL_IO_CHALLENGE_BYTES - c->got;
			break;
		case IN_HEADER:
			to = c->hdr + c->got;
			want = SHL_IO_FRAME_HEADER - c->got;
			break;
		default: {  /* IN_PAYLOAD: into the sink while it has room, then discarded */
			uint64_t left = c->f.length - c->got;
			if (c->got < c->sink.keep) {
				to = c->sink.buf + c->got;
				want = c->sink.keep - c->got;
			} else {
				to = io.scratch;
				want = left < sizeof(io.scratch) ? left : sizeof(io.scratch);
			}
		}
		}
		if (c->ipos < c->ihave) {  /* from the input buffer */
			n = (ssize_t)(c->ihave - c->ipos < want ? c->ihave - c->ipos : want);
			memcpy(to, c->ibuf + c->ipos, (size_t)n);
			c->ipos += (size_t)n;
		} else {
			bool direct = want >= SHL_IO_DIRECT_MIN;
			size_t space = direct ? want : SHL_IO_IBUF;
			if (!c->more)
				return;
			n = read(c->fd, direct ? to : c->ibuf, space);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
				return;
			if (n <= 0) {
				if (c->got != 0 || c->in != IN_HEADER)
					report(c, "closed in the middle of a %s",
					       c->authed ? "frame" : "greeting");
				conn_close(c);
				return;
			}
			c->more = (size_t)n == space;
			io.reads++;
			if (!direct) {
				c->ipos = 0;
				c->ihave = (size_t)n;
				continue;
			}
		}
		c->got += (size_t)n;
		if (c->in == IN_PAYLOAD)
			err = c->got < c->f.length ? 0 : got_frame(c);
		else if ((size_t)n < want)
			continue;
		else if (c->in == IN_HELLO)
			err = check_hello(c);
		else if (c->in == IN_PROOF)
			err = check_proof(c);
		else if (c->in == IN_CHALLENGE)
			err = check_challenge(c);
		else
			err = start_frame(c);
		if (err < 0) {
			conn_close(c);
			return;
		}
	}
}

/* Write what node `n` has queued, as far as its socket takes it. */
static void flush(uint32_t n)
{
	struct peer *p = &io.peers[n];

	while (p->out != NULL && p->head != NULL) {
		struct iovec iov[SHL_IO_IOV];
		struct msghdr mh = { .msg_iov = iov };
		size_t off = p->off;
		size_t total = 0;
		int k = 0;
		ssize_t w;

		for (struct shl_io_send *d = p->head;
		     d != NULL && k + 2 <= SHL_IO_IOV && total < SHL_IO_WRITE_MAX; d = d->next) {
			size_t len = (size_t)d->frame.length;
			if (off < SHL_IO_FRAME_HEADER) {
				iov[k++] = (struct iovec){ d->wire + off, SHL_IO_FRAME_HEADER - off };
				total += SHL_IO_FRAME_HEADER - off;
			}
			off = off > SHL_IO_FRAME_HEADER ? off - SHL_IO_FRAME_HEADER : 0;
			size_t part = len > off ? len - off : 0;
			size_t room = total < SHL_IO_WRITE_MAX ? SHL_IO_WRITE_MAX - total : 0;
			if (part > room)
				part = room;
			if (part > 0) {
				iov[k++] = (struct iovec){ (char *)d->payload + off, part };
				total += part;
			}
			off = 0;
		}
		mh.msg_iovlen = (size_t)k;
		w = sendmsg(p->out->fd, &mh, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (!p->pollout) {
				p->pollout = true;
				arm(p->out);
			}
			return;
		}
		if (w < 0 && (errno == EPIPE || errno == ECONNRESET))
			die_peer_gone("cannot send to node %u (%s): %s", n, p->out->name,
				      strerror(errno));
		if (w < 0)
			die("cannot send to node %u (%s): %s", n, p->out->name, strerror(errno));
		/* Take the frames written whole off the queue; remember how far into the next
		 * one. Then hand them to the protocol, which may queue more (a CANCEL behind
		 * an RTS cancelled half written): the queue is in order before it is called. */
		size_t done = p->off + (size_t)w;
		struct shl_io_send *out = NULL, **out_tail = &out;
		while (p->head != NULL) {
			struct shl_io_send *d = p->head;
			size_t whole = SHL_IO_FRAME_HEADER + (size_t)d->frame.length;
			if (done < whole)
				break;
			done -= whole;
			p->head = d->next;
			*out_tail = d;
			out_tail = &d->next;
		}
		*out_tail = NULL;
		if (p->head == NULL)
			p->tail = &p->head;
		p->off = done;
		while (out != NULL) {
			struct shl_io_send *d = out;
			out = d->next;
			shl_proto_written(d);
		}
	}
	if (p->pollout && p->out != NULL) {
		p->pollout = false;
		arm(p->out);
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

/* Lazily, the first frame for node `n`: call it (a non-blocking connect, finished by
 * connected() on EPOLLOUT). A node that cannot be called ends this one, as at start. */
static void call(uint32_t n)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	struct conn *c;

	io.peers[n].dialed = true;
	if (fd < 0)
		die("cannot connect to node %u: %s", n, strerror(errno));
	if (connect(fd, (const struct sockaddr *)&io.addr[n], sizeof(io.addr[n])) < 0 &&
	    errno != EINPROGRESS)
		die("cannot connect to node %u: %s", n, strerror(errno));
	c = conn_new(fd, &io.addr[n]);
	struct epoll_event ev = { EPOLLOUT, { .ptr = c } };
	if (c == NULL || epoll_ctl(io.ep, EPOLL_CTL_ADD, fd, &ev) < 0)
		die("out of memory for a connection to node %u", n);
	c->dialed = true;
	c->claimed = n;
	c->in = IN_CONNECTING;
	c->deadline = shl_mono_s() + SHL_IO_CONNECT_S;
	c->greeting = io.greeting;
	io.greeting = c;
}

/* The connect() of lazy connection `c` has finished: greet, or give up on that node. */
static void connected(struct conn *c, uint32_t events)
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
		report(c, "cannot connect to node %u: %s", c->claimed,
		       strerror(soerr ? soerr : EIO));
		c->in = IN_HEADER;
		conn_close(c);
	}
}

/* Holding io.lock: hand every posted send to the protocol, which gives what is to be
 * written to write(). */
static void take_posts(void)
{
	struct cds_wfcq_node *node;

	while ((node = __cds_wfcq_dequeue_blocking(&io.sub_head, &io.sub_tail)) != NULL)
		shl_proto_take(caa_container_of(node, struct shl_io_send, link));
}

/* tp->write: holding io.lock, queue `d` for its destination's node and write what the
 * socket takes; lazily, call that node on its first frame. */
static void write_frame(struct shl_io_send *d)
{
	uint32_t n = io.node_of[d->frame.dst];
	struct peer *p = &io.peers[n];

	if (p->lost)
		die_peer_gone("rank %d sends to rank %d, but the connection to its node %u "
			      "is closed (has that node ended?)", d->frame.src, d->frame.dst, n);
	queue(n, d);
	if (io.lazy && p->out == NULL && !p->dialed)
		call(n);
	if (p->head == d)
		flush(n);
}

/* tp->unwrite: holding io.lock, take `d` off its node's queue unless part of it is written
 * (or all: then it is being handed back to the protocol). */
static bool unwrite(struct shl_io_send *d)
{
	struct peer *p = &io.peers[io.node_of[d->frame.dst]];
	struct shl_io_send **link = &p->head;

	while (*link != NULL && *link != d)
		link = &(*link)->next;
	if (*link == NULL || (d == p->head && p->off > 0))
		return false;
	*link = d->next;
	if (p->tail == &d->next)
		p->tail = link;
	return true;
}

static void take_connections(void)
{
	for (;;) {
		struct sockaddr_in sa;
		socklen_t len = sizeof(sa);
		int fd = accept4(io.listen, (struct sockaddr *)&sa, &len, SOCK_CLOEXEC);
		struct conn *c;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;  /* EAGAIN, or out of descriptors: try again on the next event */
		}
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
	}
}

/* Drop the accepted connections that have not greeted in time. */
static void expire_greetings(void)
{
	time_t now = shl_mono_s();
	struct conn *c = io.greeting, *next;

	for (; c != NULL; c = next) {
		next = c->greeting;
		if (now >= c->deadline) {
			report(c, "dropped: no greeting within %d s", SHL_IO_GREET_S);
			conn_close(c);
		}
	}
}

static int handle(struct epoll_event *ev, int n);

static void *run(void *arg)
{
	struct epoll_event ev[SHL_IO_EVENTS];
	uint64_t last = shl_mono_ns();    /* of the last event or post */

	pthread_mutex_lock(&io.lock);
	for (;;) {
		bool poll = io.poll_ns != 0 && shl_mono_ns() - last < io.poll_ns;
		int n = 0;

		pthread_mutex_unlock(&io.lock);
		if (poll) {
			n = epoll_wait(io.ep, ev, SHL_IO_EVENTS, 0);
		} else {
			/* Pairs with the poster's seq_cst load of `polling` after its enqueue:
			 * either it sees false and writes the eventfd, or we see its post. */
			atomic_store(&io.polling, false);
			if (cds_wfcq_empty(&io.sub_head, &io.sub_tail))
				/* Wake once a second while a connection has still to greet. */
				n = epoll_wait(io.ep, ev, SHL_IO_EVENTS, io.greeting ? 1000 : -1);
			atomic_store_explicit(&io.polling, io.poll_ns != 0, memory_order_relaxed);
			last = shl_mono_ns();
		}
		if (n < 0 && errno != EINTR)
			die("epoll_wait: %s", strerror(errno));
		pthread_mutex_lock(&io.lock);
		n = handle(ev, n);
		if (n > 0) {
			last = shl_mono_ns();
		} else if (poll) {
			pthread_mutex_unlock(&io.lock);
			sched_yield();  /* a rank, or another node's thread, may need this core */
			pthread_mutex_lock(&io.lock);
		}
		if (io.greeting != NULL)
			expire_greetings();
		while (io.dead != NULL) {
			struct conn *c = io.dead;
			io.dead = c->dead;
			free(c);
		}
	}
	return NULL;
}

/* Holding io.lock: the `n` events in `ev`, then the posted sends. Returns how many
 * things happened (0: nothing). */
static int handle(struct epoll_event *ev, int n)
{
	for (int i = 0; i < n; i++) {
		void *tag = ev[i].data.ptr;
		struct conn *c = tag;

		if (tag == &tag_wake) {
			uint64_t v;
			if (read(io.wake, &v, sizeof(v)) < 0 && errno != EAGAIN)
				die("eventfd: %s", strerror(errno));
		} else if (tag == &tag_listen) {
			take_connections();
		} else if (c->fd >= 0) {
			if (c->in == IN_CONNECTING)
				connected(c, ev[i].events);
			else if (ev[i].events & EPOLLOUT && c->authed)
				flush(c->node);
			if (c->fd >= 0 && ev[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				drain_conn(c);
		}
	}
	if (!cds_wfcq_empty(&io.sub_head, &io.sub_tail)) {
		take_posts();
		n = n > 0 ? n : 1;
	}
	return n > 0 ? n : 0;
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

static void limits(struct shl_io_limits *out)
{
	*out = (struct shl_io_limits){ .eager_max = SHL_IO_EAGER_MAX,
				       .inline_max = SHL_IO_EAGER_MAX,
				       .frame_max = SHL_IO_CHUNK_MAX };
}

/* tp->start. */
static int start(const struct shl_io_config *cfg)
{
	struct epoll_event ev;
	pthread_t t;
	int err;

	io.node = cfg->node;
	io.nnodes = cfg->nnodes;
	io.world_size = cfg->world_size;
	io.listen = cfg->listen;
	memcpy(io.secret, cfg->secret, SHL_IO_CTL_SECRET);
	snprintf(io.host, sizeof(io.host), "%s", cfg->host ? cfg->host : "?");
	io.node_of = malloc((size_t)cfg->world_size * sizeof(*io.node_of));
	io.peers = calloc(cfg->nnodes, sizeof(*io.peers));
	if (io.node_of == NULL || io.peers == NULL)
		return -ENOMEM;
	memcpy(io.node_of, cfg->node_of, (size_t)cfg->world_size * sizeof(*io.node_of));
	for (uint32_t n = 0; n < cfg->nnodes; n++)
		io.peers[n].tail = &io.peers[n].head;
	pthread_mutex_init(&io.lock, NULL);
	io.poll_ns = cfg->poll_ns;
	__cds_wfcq_init(&io.sub_head, &io.sub_tail);
	io.ep = epoll_create1(EPOLL_CLOEXEC);
	io.wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (io.ep < 0 || io.wake < 0)
		return -errno;
	fcntl(io.listen, F_SETFL, fcntl(io.listen, F_GETFL) | O_NONBLOCK);
	ev = (struct epoll_event){ EPOLLIN, { .ptr = &tag_wake } };
	if (epoll_ctl(io.ep, EPOLL_CTL_ADD, io.wake, &ev) < 0)
		return -errno;
	ev = (struct epoll_event){ EPOLLIN, { .ptr = &tag_listen } };
	if (epoll_ctl(io.ep, EPOLL_CTL_ADD, io.listen, &ev) < 0)
		return -errno;
	io.lazy = cfg->lazy;
	io.addr = malloc(cfg->nnodes * sizeof(*io.addr));
	if (io.addr == NULL)
		return -ENOMEM;
	memcpy(io.addr, cfg->addr, cfg->nnodes * sizeof(*io.addr));
	for (uint32_t n = cfg->node + 1; n < cfg->nnodes && !io.lazy; n++) {
		err = dial(n, &cfg->addr[n]);
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
	err = pthread_create(&t, NULL, run, NULL);
	if (err)
		return -err;
	pthread_setname_np(t, "shoal-io");
	pthread_detach(t);
	return 0;
}

/* tp->post: any thread. Wait-free but for the wake-up, one eventfd write when the queue was
 * empty and the thread not polling; when the thread is idle (a trylock), the caller takes
 * the posts itself: one thread hand-off less per message. */
static void post(struct shl_io_send *d)
{
	uint64_t one = 1;

	cds_wfcq_node_init(&d->link);
	/* The enqueue's full barrier publishes *d before the node is visible. */
	bool queued = cds_wfcq_enqueue(&io.sub_head, &io.sub_tail, &d->link);
	/* The thread is idle (or asleep): take the posts ourselves, `d` among them, and write
	 * what can be written; one thread hand-off less per message (docs/performance.md,
	 * "Off-node"). */
	if (pthread_mutex_trylock(&io.lock) == 0) {
		take_posts();
		pthread_mutex_unlock(&io.lock);
		return;
	}
	/* true: the queue was not empty: whoever made it so has woken the thread, or holds
	 * the lock and takes every post, or the thread has not drained yet and will find `d`
	 * (it dequeues until empty after each wake). */
	if (queued)
		return;
	/* Pairs with the thread's seq_cst store of false before it looks at the queue one
	 * last time and sleeps: a polling thread finds `d` without being woken. */
	if (atomic_load(&io.polling))
		return;
	while (write(io.wake, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

/* Holding io.lock: every authed connection's events as io.disarmed says. */
static void arm_all(void)
{
	for (struct conn *c = io.authed; c != NULL; c = c->next_authed)
		arm(c);
}

/* tp->poll: shl_io_poll for TCP. */
static bool rank_poll(bool *joined)
{
	bool got = false;

	if (pthread_mutex_trylock(&io.lock) != 0)
		return false;  /* the thread (or another rank) is reading or writing: let it */
	if (!*joined) {
		*joined = true;
		if (io.pollers++ == 0) {
			io.disarmed = true;
			arm_all();
		}
	}
	uint64_t reads = io.reads;
	for (struct conn *c = io.authed, *next; c != NULL; c = next) {
		next = c->next_authed;  /* drain_conn may close c */
		drain_conn(c);
		/* Frames waiting for room: with the connections disarmed, no EPOLLOUT wakes
		 * the thread for them. */
		if (c->fd >= 0 && io.peers[c->node].out == c && io.peers[c->node].head != NULL)
			flush(c->node);
	}
	if (!cds_wfcq_empty(&io.sub_head, &io.sub_tail))
		take_posts();
	got = io.reads != reads;
	pthread_mutex_unlock(&io.lock);
	return got;
}

/* tp->poll_end: shl_io_poll_end for TCP. */
static void rank_poll_end(void)
{
	pthread_mutex_lock(&io.lock);
	if (--io.pollers == 0) {
		io.disarmed = false;
		arm_all();  /* level-triggered: what came meanwhile wakes the thread now */
	}
	pthread_mutex_unlock(&io.lock);
}

const struct shl_tp_ops shl_io_tcp = {
	.name = "tcp", .limits = limits, .start = start, .post = post, .write = write_frame,
	.unwrite = unwrite, .poll = rank_poll, .poll_end = rank_poll_end, .fail = die,
};
