/* The completion thread of the TCP mesh (io/mesh.h): its loop over epoll (the listener,
 * the wake-up eventfd, every connection), the submission queue of posted frames, the ranks
 * that read the connections themselves while they wait, the transport's start, and the
 * node's end when the mesh cannot go on.
 * Entered by the main thread (start, before the thread exists), rank threads (post: the
 * submission queue and the eventfd, or, holding io.lock, the posts taken at once; poll)
 * and the completion thread. Must not block on a socket (all are non-blocking once the
 * thread runs), nor keep protocol state: frames go to and come from io/proto.c
 * (io/transport.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <time.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/exit.h"
#include "io/mesh_internal.h"

/* Events taken per epoll_wait. */
#define SHL_IO_EVENTS 64
/* How long a node that lost a peer it still needed waits for mpiexec to end the job before
 * it ends with its own report (shl_mesh_die_peer_gone): mpiexec's END comes within
 * milliseconds of the peer's own error (docs/offnode.md); a job whose peer ended without
 * an error waits this long for the error. */
#define SHL_IO_PEER_GONE_GRACE_MS 1000

struct shl_mesh io;

/* epoll tags of the two non-connection descriptors. */
static char tag_wake, tag_listen;

static _Noreturn void vdie(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A line on stderr about connection `c` (dropped, rejected). */
void shl_mesh_report(const struct conn *c, const char *fmt, ...)
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

/* The node's end with status 1 and "shoal: node N (host H): <message>" (io/exit.h). */
static _Noreturn void vdie(const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	shl_exit_fatal(1, "node %u (host %s): %s", io.node, io.host, msg);
}

/* The mesh cannot go on: end the node process (mpiexec then ends the job). */
_Noreturn void shl_mesh_die(const char *fmt, ...)
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
_Noreturn void shl_mesh_die_peer_gone(const char *fmt, ...)
{
	struct timespec grace = { SHL_IO_PEER_GONE_GRACE_MS / 1000,
				  SHL_IO_PEER_GONE_GRACE_MS % 1000 * 1000000L };
	va_list ap;

	while (nanosleep(&grace, &grace) != 0 && errno == EINTR)
		;
	va_start(ap, fmt);
	vdie(fmt, ap);
}

/* Authed connection `c`'s node is silent for the bound: unreachable, or gone. No grace:
 * nothing of that node's own will say more, and mpiexec, which may notice the same
 * silence, ends the job the same way. */
_Noreturn void shl_mesh_die_silent(const struct conn *c)
{
	char ip[sizeof(c->name)];

	snprintf(ip, sizeof(ip), "%.*s", (int)strcspn(c->name, ":"), c->name);
	shl_exit_fatal(1, "host %s (node %u) stopped answering (no reply for %ld s, "
		       "SHOAL_PEER_TIMEOUT); noticed by host %s (node %u)", ip, c->node, io.peer_s,
		       io.host, io.node);
}

bool shl_mesh_silent_errno(int err)
{
	return err == ETIMEDOUT || err == EHOSTUNREACH || err == ENETUNREACH ||
	       err == EHOSTDOWN;
}

/* Holding io.lock, about once a second with a bound on silence: a node to which we have
 * sent something that it has not acknowledged for the whole bound, with no ACK at all from
 * it meanwhile, stopped answering (a link down under traffic, a machine gone). An ACK of
 * anything counts: on a link that drops packets now and then, data moves, however long its
 * retransmissions take. A node that stopped reading (its process stopped) still
 * acknowledges, with a closed window: its proxy notices that one. Owed since when is what
 * this thread saw; a look that came late (the thread starved) starts every count again. */
static void watch(void)
{
	uint64_t now = shl_mono_ns(), bound = (uint64_t)io.peer_s * 1000000000u;

	if (now - io.watched_ns < 1000000000u)
		return;
	bool late = now - io.watched_ns > 3000000000u;
	io.watched_ns = now;
	for (uint32_t n = 0; n < io.nnodes; n++) {
		struct peer *p = &io.peers[n];
		struct tcp_info ti;
		socklen_t len = sizeof(ti);

		if (p->out == NULL || p->out->fd < 0 ||
		    getsockopt(p->out->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
		    ti.tcpi_unacked == 0) {
			p->owed_ns = 0;
			continue;
		}
		if (p->owed_ns == 0 || late)
			p->owed_ns = now;
		if (now - p->owed_ns >= bound && (uint64_t)ti.tcpi_last_ack_recv * 1000000u >= bound)
			shl_mesh_die_silent(p->out);
	}
}

/* Set the events epoll reports for authed connection `c`: none while ranks read and write
 * the connections themselves (io.disarmed), else EPOLLIN, and EPOLLOUT while frames wait
 * for room in it. Errors and hang-ups are always reported. */
void shl_mesh_arm(struct conn *c)
{
	struct peer *p = &io.peers[c->node];
	struct epoll_event ev = { io.disarmed ? 0 : EPOLLIN | (p->out == c && p->pollout ?
								EPOLLOUT : 0), { .ptr = c } };

	epoll_ctl(io.ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Holding io.lock: hand every posted send to the protocol, which gives what is to be
 * written to shl_mesh_write. */
static void take_posts(void)
{
	struct cds_wfcq_node *node;

	while ((node = __cds_wfcq_dequeue_blocking(&io.sub_head, &io.sub_tail)) != NULL) {
		shl_q_tsan_acquire(caa_container_of(node, struct shl_io_send, link));
		shl_proto_take(caa_container_of(node, struct shl_io_send, link));
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
		bool greeting = io.greeting != NULL;  /* read under io.lock, as it is written */
		int n = 0;

		pthread_mutex_unlock(&io.lock);
		if (poll) {
			n = epoll_wait(io.ep, ev, SHL_IO_EVENTS, 0);
		} else {
			/* Pairs with the poster's seq_cst load of `polling` after its enqueue:
			 * either it sees false and writes the eventfd, or we see its post. */
			atomic_store(&io.polling, false);
			if (cds_wfcq_empty(&io.sub_head, &io.sub_tail))
				/* Wake once a second while a connection has still to greet,
				 * or to watch for silent nodes. */
				n = epoll_wait(io.ep, ev, SHL_IO_EVENTS,
					       greeting || io.peer_s ? 1000 : -1);
			atomic_store_explicit(&io.polling, io.poll_ns != 0, memory_order_relaxed);
			last = shl_mono_ns();
		}
		if (n < 0 && errno != EINTR)
			shl_mesh_die("epoll_wait: %s", strerror(errno));
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
			shl_mesh_expire();
		if (io.peer_s)
			watch();
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
				shl_mesh_die("eventfd: %s", strerror(errno));
		} else if (tag == &tag_listen) {
			shl_mesh_accept();
		} else if (c->fd >= 0) {
			if (c->in == IN_CONNECTING)
				shl_mesh_connected(c, ev[i].events);
			else if (ev[i].events & EPOLLOUT && c->authed)
				shl_mesh_flush(c->node);
			if (c->fd >= 0 && ev[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				shl_mesh_drain(c);
		}
	}
	if (!cds_wfcq_empty(&io.sub_head, &io.sub_tail)) {
		take_posts();
		n = n > 0 ? n : 1;
	}
	return n > 0 ? n : 0;
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
	io.peer_s = shl_io_peer_timeout_s();
	io.watched_ns = shl_mono_ns();
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
	if (!io.lazy && (err = shl_mesh_connect_all(cfg)) < 0)
		return err;
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
	shl_q_tsan_release(d);
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
		shl_mesh_arm(c);
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
		next = c->next_authed;  /* shl_mesh_drain may close c */
		shl_mesh_drain(c);
		/* Frames waiting for room: with the connections disarmed, no EPOLLOUT wakes
		 * the thread for them. */
		if (c->fd >= 0 && io.peers[c->node].out == c && io.peers[c->node].head != NULL)
			shl_mesh_flush(c->node);
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
	.name = "tcp", .limits = limits, .start = start, .post = post, .write = shl_mesh_write,
	.unwrite = shl_mesh_unwrite, .poll = rank_poll, .poll_end = rank_poll_end,
	.fail = shl_mesh_die,
};
