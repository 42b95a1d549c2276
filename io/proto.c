/* The protocol of messages between node processes, every transport's (io/transport.h): the
 * posts of the runtime turned into frames, the state of rendezvous (RTS sent and waiting
 * for their CTS, RTS delivered here and not answered, receives waiting for DATA) and of
 * cancels, the pools of send descriptors, the envelopes of arriving messages, and the frame
 * counts the deadlock watchdog and the node's end read.
 * Entered by rank threads (the shl_io_post_* calls: their own pool, the transport's post;
 * shl_io_post_copy from any thread: a pool under a mutex),
 * by whoever holds the transport's lock (every shl_proto_* call: everything else here), by
 * the watchdog (counts) and by the main thread (start, finish).
 * Must not know a socket or a connection: frames leave through tp->write and arrive through
 * shl_proto_header and shl_proto_frame; must not touch a rank's state but through the
 * runtime's hooks; and must judge every arriving frame against what this node asked for
 * before it changes anything (docs/offnode.md, "What a node takes after the handshake"):
 * one it could not have asked for is refused, which ends the job. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/transport.h"

/* Payload space of a small send descriptor: a copied payload up to this rides in one; a
 * larger copy (up to the transport's inline_max) takes a large one. The bytes a send
 * copies at once are the inline ones (SHL_Q_INLINE_MAX) and small packed layouts
 * (SHL_Q_PACKED_MAX). */
#define SHL_IO_SPACE_SMALL SHL_Q_PACKED_MAX
_Static_assert(SHL_Q_INLINE_MAX <= SHL_IO_SPACE_SMALL, "inline payloads fit a small one");
/* Descriptors a pool keeps of each kind; one coming back to a pool that has more is freed.
 * Small ones: a window of 64 sends in flight per rank (the OSU message-rate window) and a
 * burst as much again, 1.2 KiB each. Large ones (the transport's inline_max of space, 64 KiB
 * on TCP) only for packed or buffered payloads over the small space. */
#define SHL_IO_KEEP_SMALL 256
#define SHL_IO_KEEP_LARGE 16
/* RTS a node may have delivered here and not answered yet (SHOAL_RTS_MAX): each holds an
 * envelope and a record (about 430 bytes) until its receive is posted, so a corrupt peer
 * can make this node hold at most ~110 MiB. A legal program reaches it only with more
 * rendezvous sends outstanding from one node to this one than 64 ranks with 4096 each
 * (every one of which holds a send descriptor of 1.2 KiB on its own node). */
#define SHL_IO_RTS_MAX (1u << 18)

enum { SMALL, LARGE, KINDS };

/* Send descriptors of one rank, or of the transport's lock holder (frames the protocol
 * makes). The owner (the rank's thread with the rank locked, or the lock holder) takes from
 * `free` alone; whoever retires a descriptor (the lock holder) pushes it onto `returned`
 * (a compare-and-swap), which the owner takes whole by one exchange when `free` runs dry
 * (a stack only pushed and emptied whole has no ABA problem). Only an empty pool allocates. */
struct shl_io_pool {
	struct shl_io_send *free[KINDS];       /* owner's, linked by `next` */
	_Atomic unsigned total[KINDS];         /* alive: the owner adds what it allocates, the
						* retirer subtracts what it frees */
	alignas(64) struct shl_io_send *_Atomic returned[KINDS];
};

/* What a descriptor is waiting for (`state`). */
enum {
	RTS_QUEUED = 1,              /* given to tp->write, not written whole yet */
	RTS_WAITING,                 /* written: waits for its CTS (or CANCELLED) */
	CTS_WRITTEN = 1,             /* CTS, bits: written whole */
	CTS_FILLED = 2,              /*            every DATA byte is in */
};

/* An RTS delivered to a rank of this node, until its CTS is taken or it is cancelled: the
 * envelope stays ours (a CANCEL claims it by its state), so it goes back to the pool only
 * then. Records are kept on a spare list for the next RTS, never freed. */
struct rts_in {
	int32_t src, dst;
	uint32_t node;               /* the sender's node */
	uint64_t cookie;             /* the sender's id for the send */
	struct shl_envelope *env;
	struct rts_in *next;
};

/* Process-wide. Set by shl_io_start before the transport runs: tp, limits, hooks, node_of,
 * pools (the array and each local rank's pool). Posters touch their rank's pool and
 * `posted`; everything else is the transport's lock holder's. */
static struct {
	const struct shl_tp_ops *tp;
	struct shl_io_limits limits;
	struct shl_io_hooks hooks;
	uint32_t *node_of;
	struct shl_io_pool **pools;  /* by world rank: this node's ranks' */
	struct shl_io_pool own;      /* the lock holder's: DATA, CANCEL, CANCELLED, answers */
	struct shl_io_pool shared;   /* shl_io_post_copy's, owned under `shared_mu` */
	pthread_mutex_t shared_mu;
	struct shl_pool envs;        /* envelopes of arriving messages */
	struct shl_io_send **rts;    /* by node: RTS posted there, not answered yet */
	struct rts_in *rts_in;       /* RTS delivered here, not answered yet */
	struct rts_in *rts_spare;
	/* By sending node: how many of its RTS are in rts_in, and the highest cookie of its
	 * RTS so far (cookies of one node's RTS only grow on its connection: shl_proto_take
	 * numbers them in the order they are queued). */
	uint32_t *rts_pending;
	uint64_t *rts_last;
	uint32_t rts_max;            /* bound on rts_pending (SHOAL_RTS_MAX) */
	struct shl_io_recv *recvs;   /* rendezvous receives waiting for DATA */
	uint64_t next_id;            /* RTS cookies and receive ids */
	alignas(64) _Atomic uint64_t posted;   /* sends posted: any thread, relaxed increments */
	alignas(64) _Atomic uint64_t written;  /* sends written: the lock holder, release stores */
	/* For the deadlock check (shl_io_count_frames), both written by the lock holder with
	 * release stores, read by the watchdog: frames this node made itself (DATA after a
	 * CTS, CANCELLED, a CANCEL behind its RTS; a rank's post counts in `posted`), and
	 * frames retired here (read whole and handed over, or posted and dropped unwritten). */
	_Atomic uint64_t generated;
	_Atomic uint64_t retired;
} pr;

/* ---- send descriptors ---- */

/* The owner of `p`: a descriptor of `kind`, or NULL when memory is exhausted. */
static struct shl_io_send *take(struct shl_io_pool *p, int kind)
{
	struct shl_io_send *d = p->free[kind];

	if (d == NULL)
		/* Pairs with the release compare-and-swap in give_back. */
		d = atomic_exchange_explicit(&p->returned[kind], NULL, memory_order_acquire);
	if (d == NULL) {
		d = malloc(sizeof(*d) + (kind == LARGE ? pr.limits.inline_max : SHL_IO_SPACE_SMALL));
		if (d == NULL)
			return NULL;
		atomic_fetch_add_explicit(&p->total[kind], 1, memory_order_relaxed);
		d->home = p;
		d->kind = (uint8_t)kind;
		d->next = NULL;
	}
	p->free[kind] = d->next;
	d->owned = NULL;
	d->cancel = false;
	d->state = 0;
	return d;
}

/* The lock holder: `d` is done; back to its pool, or freed if the pool keeps enough. */
static void give_back(struct shl_io_send *d)
{
	struct shl_io_pool *p = d->home;
	int kind = d->kind;
	struct shl_io_send *top;

	if (atomic_load_explicit(&p->total[kind], memory_order_relaxed) >
	    (kind == LARGE ? SHL_IO_KEEP_LARGE : SHL_IO_KEEP_SMALL)) {
		atomic_fetch_sub_explicit(&p->total[kind], 1, memory_order_relaxed);
		free(d);
		return;
	}
	top = atomic_load_explicit(&p->returned[kind], memory_order_relaxed);
	do
		d->next = top;
	while (!atomic_compare_exchange_weak_explicit(&p->returned[kind], &top, d,
						      memory_order_release, memory_order_relaxed));
}

/* The lock holder: a descriptor for a frame the protocol makes. */
static struct shl_io_send *make(struct shl_io_frame f)
{
	struct shl_io_send *e = take(&pr.own, SMALL);

	if (e == NULL)
		pr.tp->fail("out of memory for a frame to another node");
	e->frame = f;
	e->payload = NULL;
	e->req = NULL;
	e->counted = false;
	return e;
}

/* ---- counts ---- */

/* The lock holder: `n` more frames made by this node (before the frame that caused them
 * is retired: see shl_io_count_frames), or one more retired. Release stores pair with the
 * acquire loads in shl_io_count_frames. */
static void count_generated(uint64_t n)
{
	atomic_store_explicit(&pr.generated, atomic_load_explicit(&pr.generated,
		memory_order_relaxed) + n, memory_order_release);
}

static void count_retired(void)
{
	atomic_store_explicit(&pr.retired, atomic_load_explicit(&pr.retired,
		memory_order_relaxed) + 1, memory_order_release);
}

/* The lock holder: a posted send is written, or retired without its frames being written
 * (a cancelled RTS, a CANCEL that found nothing to cancel): it counts as written for
 * shl_io_finish. Pairs with the acquire load there. */
static void count_written(void)
{
	atomic_store_explicit(&pr.written, atomic_load_explicit(&pr.written,
		memory_order_relaxed) + 1, memory_order_release);
}

void shl_io_count_frames(uint64_t *sent, uint64_t *retired)
{
	/* Retired first: a frame retired here after making others (a CTS and its DATA) made
	 * them before (release store, holding the transport's lock), so `generated`, loaded
	 * after with acquire, has them. A rank's post counts in `posted` before it is queued. */
	*retired = atomic_load_explicit(&pr.retired, memory_order_acquire);
	*sent = atomic_load_explicit(&pr.generated, memory_order_acquire) +
		atomic_load_explicit(&pr.posted, memory_order_acquire);
}

int shl_io_finish(unsigned timeout_ms)
{
	/* Every poster has returned (the caller's contract), so `posted` is final. */
	uint64_t posted = atomic_load_explicit(&pr.posted, memory_order_relaxed);

	if (pr.tp == NULL)
		return 0;
	for (unsigned ms = 0; ms < timeout_ms; ms++) {
		if (atomic_load_explicit(&pr.written, memory_order_acquire) >= posted)
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

/* ---- the runtime's posts ---- */

static void post(struct shl_io_send *d)
{
	atomic_fetch_add_explicit(&pr.posted, 1, memory_order_relaxed);
	pr.tp->post(d);
}

struct shl_io_send *shl_io_send_get(int32_t src, uint64_t space)
{
	return take(pr.pools[src], space <= SHL_IO_SPACE_SMALL ? SMALL : LARGE);
}

void shl_io_send_put(struct shl_io_send *d)
{
	struct shl_io_pool *p = d->home;

	d->next = p->free[d->kind];
	p->free[d->kind] = d;
}

void shl_io_post_eager(struct shl_io_send *d, const struct shl_io_msg *m, const void *payload,
		       uint64_t bytes, void *req)
{
	d->frame = (struct shl_io_frame){ .type = SHL_IO_EAGER, .src = m->src, .dst = m->dst,
					  .context = m->context, .tag = m->tag, .length = bytes };
	d->payload = payload;
	d->req = req;
	post(d);
}

void shl_io_post_rts(struct shl_io_send *d, const struct shl_io_msg *m, const void *data,
		     uint64_t bytes, void *owned, void *req)
{
	d->frame = (struct shl_io_frame){ .type = SHL_IO_RTS, .src = m->src, .dst = m->dst,
					  .context = m->context, .tag = m->tag, .length = 8 };
	shl_io_frame_encode_size(bytes, d->small);
	d->payload = d->small;
	d->data = data;
	d->bytes = bytes;
	d->owned = owned;
	d->req = req;
	post(d);
}

struct shl_io_recv *shl_io_recv_get(int32_t dst)
{
	struct shl_io_send *d = take(pr.pools[dst], SMALL);

	return d != NULL ? &d->rv : NULL;
}

void shl_io_post_cts(struct shl_io_recv *rv, const struct shl_envelope *env)
{
	struct shl_io_send *d = caa_container_of(rv, struct shl_io_send, rv);
	uint64_t cookie;

	memcpy(&cookie, env->inline_data, 8);
	rv->total = env->bytes;
	d->frame = (struct shl_io_frame){ .type = SHL_IO_CTS, .src = rv->dst, .dst = rv->src,
					  .context = env->context, .length = 8,
					  .cookie = cookie };
	d->payload = d->small;
	d->req = NULL;
	post(d);
}

bool shl_io_post_cancel(int32_t src, int32_t dst, uint32_t context, void *req)
{
	struct shl_io_send *d = take(pr.pools[src], SMALL);

	if (d == NULL)
		return false;
	d->frame = (struct shl_io_frame){ .type = SHL_IO_CANCEL, .src = src, .dst = dst,
					  .context = context };
	d->payload = NULL;
	d->req = req;
	post(d);
	return true;
}

struct shl_io_send *shl_io_answer_get(uint64_t space)
{
	struct shl_io_send *d = take(&pr.own, space <= SHL_IO_SPACE_SMALL ? SMALL : LARGE);

	if (d == NULL)
		pr.tp->fail("out of memory for a frame to another node");
	return d;
}

void shl_io_post_answer(struct shl_io_send *d, const struct shl_io_msg *m, uint64_t bytes)
{
	d->frame = (struct shl_io_frame){ .type = SHL_IO_EAGER, .src = m->src, .dst = m->dst,
					  .context = m->context, .tag = m->tag, .length = bytes };
	d->payload = d->space;
	d->req = NULL;
	d->counted = false;  /* not a rank's post: shl_io_finish does not wait for it */
	/* Made while the frame it answers is being delivered, which is retired after. */
	count_generated(1);
	pr.tp->write(d);
}

bool shl_io_post_copy(const struct shl_io_msg *m, const void *payload, uint64_t bytes)
{
	struct shl_io_send *d;

	pthread_mutex_lock(&pr.shared_mu);
	d = take(&pr.shared, bytes <= SHL_IO_SPACE_SMALL ? SMALL : LARGE);
	pthread_mutex_unlock(&pr.shared_mu);
	if (d == NULL)
		return false;
	memcpy(d->space, payload, bytes);
	shl_io_post_eager(d, m, d->space, bytes, NULL);
	return true;
}

/* ---- rendezvous and cancel state (the lock holder's) ---- */

/* Where the RTS for `req` posted to node `n`, not answered yet, is linked; NULL if none. */
static struct shl_io_send **rts_of(uint32_t n, void *req)
{
	struct shl_io_send **link = &pr.rts[n];

	while (*link != NULL && (*link)->req != req)
		link = &(*link)->later;
	return *link != NULL ? link : NULL;
}

/* Where the RTS (src, dst, cookie) written to node `n` waits for its answer; NULL if none. */
static struct shl_io_send **rts_waiting(uint32_t n, int32_t src, int32_t dst, uint64_t cookie)
{
	struct shl_io_send **link = &pr.rts[n], *d;

	for (; (d = *link) != NULL; link = &d->later)
		if (d->state == RTS_WAITING && d->frame.cookie == cookie && d->frame.src == src &&
		    d->frame.dst == dst)
			return link;
	return NULL;
}

/* Where the RTS (src, dst, cookie) delivered here is linked; NULL if answered. */
static struct rts_in **rts_in_of(int32_t src, int32_t dst, uint64_t cookie)
{
	struct rts_in **link = &pr.rts_in;

	for (; *link != NULL; link = &(*link)->next)
		if ((*link)->cookie == cookie && (*link)->src == src && (*link)->dst == dst)
			return link;
	return NULL;
}

/* Unlink the record at `link` and keep it for the next RTS. */
static void rts_in_done(struct rts_in **link)
{
	struct rts_in *x = *link;

	*link = x->next;
	pr.rts_pending[x->node]--;
	x->next = pr.rts_spare;
	pr.rts_spare = x;
}

/* A CANCEL posted for the RTS at `link` (to node `n`), not written whole yet: drop it if
 * none of it is out, else mark it (its CANCEL follows it: shl_proto_written). MPI_Wait on a
 * cancelled send must return whatever the receiver does (MPI 4.1 §3.8.4). */
static void cancel_queued(struct shl_io_send **link)
{
	struct shl_io_send *d = *link;

	if (!pr.tp->unwrite(d)) {
		d->cancel = true;
		return;
	}
	*link = d->later;
	count_written();  /* counted by the last DATA frame it will never have */
	count_retired();  /* posted, never to be written */
	pr.hooks.cancelled(d->req);
	free(d->owned);
	give_back(d);
}

void shl_proto_take(struct shl_io_send *d)
{
	uint32_t n = pr.node_of[d->frame.dst];

	/* An RTS is counted by its last DATA frame, which reuses the descriptor. */
	d->counted = d->frame.type != SHL_IO_RTS;
	switch (d->frame.type) {
	case SHL_IO_RTS:
		d->frame.cookie = ++pr.next_id;
		d->state = RTS_QUEUED;
		d->later = pr.rts[n];
		pr.rts[n] = d;
		break;
	case SHL_IO_CANCEL: {
		/* An RTS written and waiting for its CTS: ask its receiver. One not written
		 * yet (no connection yet, or back-pressure): drop it here. One answered
		 * already: the cancel fails, the send completes. */
		struct shl_io_send **link = rts_of(n, d->req);
		if (link == NULL || (*link)->state == RTS_QUEUED) {
			if (link != NULL)
				cancel_queued(link);
			count_written();
			count_retired();  /* this CANCEL: posted, never written */
			give_back(d);
			return;
		}
		d->frame.cookie = (*link)->frame.cookie;
		(*link)->cancel = true;  /* a CANCELLED may answer it now */
		d->req = NULL;
		break;
	}
	case SHL_IO_CTS: {
		/* The RTS it answers is ours no more: its envelope goes back now. */
		struct rts_in **link = rts_in_of(d->frame.dst, d->frame.src, d->frame.cookie);
		if (link == NULL)
			pr.tp->fail("rank %d answers a message from rank %d that never came",
				    d->frame.src, d->frame.dst);
		shl_pool_put((*link)->env);
		rts_in_done(link);
		d->rv.id = ++pr.next_id;
		d->rv.got = 0;
		shl_io_frame_encode_size(d->rv.id, d->small);
		if (d->rv.total == 0) {
			/* An empty message has no DATA: matched, it is received. */
			pr.hooks.received(&d->rv);
			d->state |= CTS_FILLED;
			break;
		}
		/* Known before the CTS leaves, so its DATA always finds it. */
		d->rv.next = pr.recvs;
		pr.recvs = &d->rv;
		break;
	}
	}
	pr.tp->write(d);
}

void shl_proto_written(struct shl_io_send *d)
{
	if (d->counted)
		count_written();
	switch (d->frame.type) {
	case SHL_IO_RTS:  /* wait for the CTS */
		d->state = RTS_WAITING;
		if (d->cancel) {
			count_generated(1);
			pr.tp->write(make((struct shl_io_frame){
				.type = SHL_IO_CANCEL, .src = d->frame.src, .dst = d->frame.dst,
				.context = d->frame.context, .cookie = d->frame.cookie }));
		}
		return;
	case SHL_IO_CTS:  /* its receive is the protocol's until its DATA is in */
		d->state |= CTS_WRITTEN;
		if (d->state & CTS_FILLED)
			give_back(d);
		return;
	}
	if (d->req != NULL)
		pr.hooks.sent(d->req);
	free(d->owned);
	give_back(d);
}

/* ---- arriving frames (the lock holder's) ---- */

/* A whole EAGER payload, or an RTS, has arrived in `env`: hand it over. */
static int deliver(const struct shl_io_frame *f, struct shl_envelope *env, uint64_t bytes,
		   struct shl_io_sink *s)
{
	env->context = f->context;
	env->src = f->src;
	env->tag = f->tag;
	env->bytes = bytes;
	/* An RTS is claimed like an on-node send that waits (p2p/match.h's claim()): a CANCEL from
	 * its sender races with the receive for its state. The cookie is only a mark. */
	env->cookie = env->payload == SHL_Q_REMOTE ? env : NULL;
	env->via_fbox = false;
	atomic_store_explicit(&env->state, SHL_Q_PENDING, memory_order_relaxed);
	if (pr.hooks.deliver(f->dst, env) < 0) {
		snprintf(s->why, sizeof(s->why), "frame for context %u, which spans no nodes",
			 f->context);
		return -EPROTO;
	}
	count_retired();
	return 0;
}

int shl_proto_header(uint32_t from, const struct shl_io_frame *f, struct shl_io_sink *s)
{
	struct shl_io_recv *rv;

	s->buf = NULL;
	s->keep = 0;
	s->env = NULL;
	s->rv = NULL;
	switch (f->type) {
	case SHL_IO_EAGER:
		s->env = shl_pool_get(&pr.envs, f->length > SHL_Q_INLINE_MAX ? SHL_Q_CHUNK_MEDIUM
									   : SHL_Q_CHUNK_NONE);
		if (s->env == NULL)
			pr.tp->fail("out of memory for an arriving message");
		if (f->length > SHL_Q_INLINE_MAX) {
			s->env->payload = SHL_Q_POOLED;
			s->env->data = s->env->chunk;
			s->buf = s->env->chunk;
		} else {
			s->env->payload = SHL_Q_INLINE;
			s->buf = s->env->inline_data;
		}
		s->keep = f->length;
		return 0;
	case SHL_IO_RTS:
	case SHL_IO_CTS:
		s->buf = s->small;
		s->keep = 8;
		return 0;
	case SHL_IO_DATA:  /* for a receive we are waiting for, within its size */
		for (rv = pr.recvs; rv != NULL && rv->id != f->cookie; rv = rv->next)
			;
		if (rv == NULL || rv->src != f->src || rv->dst != f->dst ||
		    f->length > rv->total - rv->got ||
		    caa_container_of(rv, struct shl_io_send, rv)->frame.context != f->context) {
			snprintf(s->why, sizeof(s->why), "DATA frame for no receive waiting for it "
				 "(or beyond its size)");
			return -EPROTO;
		}
		s->rv = rv;
		if (rv->got < rv->keep) {
			s->buf = (unsigned char *)rv->buf + rv->got;
			s->keep = rv->keep - rv->got < f->length ? rv->keep - rv->got : f->length;
		}
		return 0;
	}
	return 0;  /* CANCEL, CANCELLED: no payload */
}

/* An RTS's size has arrived from node `from`: its envelope into the receiver's inbox. Its
 * cookie must be new (above every earlier one of that node), and that node must have fewer
 * than rts_max unanswered here. */
static int got_rts(uint32_t from, const struct shl_io_frame *f, struct shl_io_sink *s)
{
	struct shl_envelope *env;
	struct rts_in *x;
	uint64_t v;
	int err;

	if (shl_io_frame_decode_size(f, s->small, &v) < 0) {
		snprintf(s->why, sizeof(s->why), "RTS announcing an impossible size");
		return -EMSGSIZE;
	}
	if (f->cookie <= pr.rts_last[from]) {
		snprintf(s->why, sizeof(s->why), "RTS with cookie %llu, not above its node's last "
			 "(%llu)", (unsigned long long)f->cookie,
			 (unsigned long long)pr.rts_last[from]);
		return -EPROTO;
	}
	if (pr.rts_pending[from] >= pr.rts_max) {
		snprintf(s->why, sizeof(s->why), "more than %u rendezvous requests unanswered "
			 "(SHOAL_RTS_MAX)", pr.rts_max);
		return -EPROTO;
	}
	pr.rts_last[from] = f->cookie;
	env = shl_pool_get(&pr.envs, SHL_Q_CHUNK_NONE);
	x = pr.rts_spare;
	if (x != NULL)
		pr.rts_spare = x->next;
	else
		x = malloc(sizeof(*x));
	if (env == NULL || x == NULL)
		pr.tp->fail("out of memory for an arriving message");
	env->payload = SHL_Q_REMOTE;
	memcpy(env->inline_data, &f->cookie, 8);
	*x = (struct rts_in){ .src = f->src, .dst = f->dst, .node = from, .cookie = f->cookie,
			      .env = env, .next = pr.rts_in };
	pr.rts_in = x;  /* before the rank can post its CTS */
	pr.rts_pending[from]++;
	err = deliver(f, env, v, s);
	if (err < 0) {
		rts_in_done(&pr.rts_in);
		shl_pool_put(env);
	}
	return err;
}

/* A CTS's receiver id has arrived: the receiver is ready; DATA frames follow the RTS. */
static int got_cts(uint32_t from, const struct shl_io_frame *f, struct shl_io_sink *s)
{
	struct shl_io_send **link = rts_waiting(from, f->dst, f->src, f->cookie), *d;
	uint64_t v, chunks;

	if (link == NULL || (*link)->frame.context != f->context) {
		snprintf(s->why, sizeof(s->why), "CTS for no send waiting for one");
		return -EPROTO;
	}
	shl_io_frame_decode_size(f, s->small, &v);
	d = *link;
	*link = d->later;
	chunks = (d->bytes + pr.limits.frame_max - 1) / pr.limits.frame_max;
	/* Counted before the CTS is retired (below): the counts never read level while
	 * these DATA frames are still to be sent. */
	count_generated(chunks);
	if (chunks == 0) {  /* an empty message: no DATA, the send is done once matched */
		count_written();
		if (d->req != NULL)
			pr.hooks.sent(d->req);
		free(d->owned);
		give_back(d);
	}
	for (uint64_t i = 0; i < chunks; i++) {
		bool last = i + 1 == chunks;
		uint64_t off = i * pr.limits.frame_max;
		struct shl_io_frame data = {
			.type = SHL_IO_DATA, .src = d->frame.src, .dst = d->frame.dst,
			.context = d->frame.context,
			.length = last ? d->bytes - off : pr.limits.frame_max, .cookie = v };
		const void *payload = (const char *)d->data + off;
		struct shl_io_send *e = last ? d : make(data);
		/* The last reuses the RTS's descriptor: its req, its owned data, its count. */
		e->frame = data;
		e->payload = payload;
		e->counted = last;
		pr.tp->write(e);
	}
	count_retired();
	return 0;
}

/* A CANCEL from the sender of an RTS delivered here: drop it if no receive has claimed it
 * (the rank finds it cancelled and gives it back) and say so; otherwise say nothing, its
 * CTS is on its way. A CANCEL that finds no RTS unanswered is legal only as the loser of
 * that race: for an RTS its node sent here (a cookie not above that node's last RTS), whose
 * CTS crossed the CANCEL. One for a cookie that node never sent here, or on another
 * context than its RTS, is refused. */
static int got_cancel(uint32_t from, const struct shl_io_frame *f, struct shl_io_sink *s)
{
	struct rts_in **link = rts_in_of(f->src, f->dst, f->cookie);
	uint8_t expected = SHL_Q_PENDING;

	if (link == NULL ? f->cookie > pr.rts_last[from] : (*link)->env->context != f->context) {
		snprintf(s->why, sizeof(s->why), "CANCEL of a message its node never sent here "
			 "(cookie %llu, context %u)", (unsigned long long)f->cookie, f->context);
		return -EPROTO;
	}
	/* Pairs with the receiver's CAS in p2p/match.h's claim(): exactly one of them wins. */
	if (link == NULL || !atomic_compare_exchange_strong(&(*link)->env->state, &expected,
							    SHL_Q_CANCELLED))
		return 0;
	rts_in_done(link);
	count_generated(1);
	pr.tp->write(make((struct shl_io_frame){ .type = SHL_IO_CANCELLED, .src = f->dst,
						 .dst = f->src, .context = f->context,
						 .cookie = f->cookie }));
	return 0;
}

/* The answer to our CANCEL: the send is cancelled, its RTS will get no CTS. Only an RTS
 * whose CANCEL was written (`cancel`) can get one. */
static int got_cancelled(uint32_t from, const struct shl_io_frame *f, struct shl_io_sink *s)
{
	struct shl_io_send **link = rts_waiting(from, f->dst, f->src, f->cookie), *d;

	if (link == NULL || !(*link)->cancel || (*link)->frame.context != f->context) {
		snprintf(s->why, sizeof(s->why), "CANCELLED for no send that asked to cancel");
		return -EPROTO;
	}
	d = *link;
	*link = d->later;
	count_written();
	pr.hooks.cancelled(d->req);
	free(d->owned);
	give_back(d);
	count_retired();
	return 0;
}

/* Every DATA byte of frame `f` for receive `rv` is in. */
static void got_data(const struct shl_io_frame *f, struct shl_io_recv *rv)
{
	rv->got += f->length;
	if (rv->got == rv->total) {
		struct shl_io_recv **link = &pr.recvs;
		struct shl_io_send *d = caa_container_of(rv, struct shl_io_send, rv);
		while (*link != rv)
			link = &(*link)->next;
		*link = rv->next;
		pr.hooks.received(rv);
		d->state |= CTS_FILLED;
		if (d->state & CTS_WRITTEN)
			give_back(d);
	}
	count_retired();
}

int shl_proto_frame(uint32_t from, const struct shl_io_frame *f, struct shl_io_sink *s)
{
	int err = 0;

	switch (f->type) {
	case SHL_IO_EAGER:
		err = deliver(f, s->env, f->length, s);
		if (err < 0)
			shl_pool_put(s->env);
		s->env = NULL;
		break;
	case SHL_IO_RTS:
		err = got_rts(from, f, s);
		break;
	case SHL_IO_CTS:
		err = got_cts(from, f, s);
		break;
	case SHL_IO_DATA:
		got_data(f, s->rv);
		break;
	case SHL_IO_CANCEL:
		err = got_cancel(from, f, s);  /* its CANCELLED, if any, is counted first */
		if (err == 0)
			count_retired();
		break;
	case SHL_IO_CANCELLED:
		err = got_cancelled(from, f, s);
		break;
	}
	return err;
}

void shl_proto_abort(const struct shl_io_frame *f, struct shl_io_sink *s)
{
	if (s->env != NULL)
		shl_pool_put(s->env);
	s->env = NULL;
}

/* ---- start ---- */

/* SHOAL_RTS_MAX: a number from 1 to 2^31, else the default (docs/offnode.md). */
static uint32_t rts_max(void)
{
	const char *v = getenv("SHOAL_RTS_MAX");
	char *end;
	unsigned long long n;

	if (v == NULL || *v == '\0')
		return SHL_IO_RTS_MAX;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno != 0 || *end != '\0' || n == 0 || n > (1ull << 31) || *v == '-') {
		fprintf(stderr, "shoal: SHOAL_RTS_MAX=%s is not a number from 1 to %llu; using "
			"%u\n", v, 1ull << 31, SHL_IO_RTS_MAX);
		return SHL_IO_RTS_MAX;
	}
	return (uint32_t)n;
}

int shl_io_start(const struct shl_tp_ops *tp, const struct shl_io_config *cfg,
		 const struct shl_io_hooks *hooks)
{
	size_t size = (size_t)cfg->world_size;

	tp->limits(&pr.limits);
	if (pr.limits.inline_max < pr.limits.eager_max || pr.limits.frame_max == 0)
		return -EINVAL;
	pr.hooks = *hooks;
	pr.node_of = malloc(size * sizeof(*pr.node_of));
	pr.pools = calloc(size, sizeof(*pr.pools));
	pr.rts = calloc(cfg->nnodes, sizeof(*pr.rts));
	pr.rts_pending = calloc(cfg->nnodes, sizeof(*pr.rts_pending));
	pr.rts_last = calloc(cfg->nnodes, sizeof(*pr.rts_last));
	if (pr.node_of == NULL || pr.pools == NULL || pr.rts == NULL || pr.rts_pending == NULL ||
	    pr.rts_last == NULL)
		return -ENOMEM;
	pr.rts_max = rts_max();
	memcpy(pr.node_of, cfg->node_of, size * sizeof(*pr.node_of));
	for (size_t w = 0; w < size; w++) {
		if (cfg->node_of[w] != cfg->node)
			continue;
		pr.pools[w] = aligned_alloc(alignof(struct shl_io_pool), sizeof(*pr.pools[w]));
		if (pr.pools[w] == NULL)
			return -ENOMEM;
		memset(pr.pools[w], 0, sizeof(*pr.pools[w]));
	}
	shl_pool_init_sized(&pr.envs, pr.limits.eager_max);
	pthread_mutex_init(&pr.shared_mu, NULL);
	pr.tp = tp;
	return tp->start(cfg);
}

const struct shl_io_limits *shl_io_limits(void)
{
	return &pr.limits;
}

bool shl_io_poll(bool *joined)
{
	return pr.tp->poll(joined);
}

void shl_io_poll_end(void)
{
	pr.tp->poll_end();
}
