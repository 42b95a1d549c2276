/* Partitioned communication (MPI 4.1, chapter 4): MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived, and the start, poll and
 * release of their requests (kinds SHL_REQ_PSEND and SHL_REQ_PRECV).
 *
 * On a node, a send and a receive that match share a channel. Matching is done at initialization, in
 * the order of the initialization calls per (communicator, sender, receiver, tag), as the
 * standard says: the process-wide table `chans` keeps the channels that one side has
 * initialized and the other not yet, oldest first; the k-th Psend_init finds the k-th
 * Precv_init there (or leaves its channel for it). Each epoch (one MPI_Start and its
 * completion on each side) the sender's partition i, bytes [i*sb, (i+1)*sb) of its
 * message, is copied straight from the sender's buffer into the receiver's, layout to
 * layout (shl_dt_copy_range), by whichever side comes second: MPI_Pready copies when the
 * receiver has started the same epoch, else the receiver's MPI_Start copies what was
 * readied. One compare-and-swap on the partition's `claimed` epoch decides who copies. The
 * copier adds the bytes to the arrival count of each receive partition they cover, which
 * MPI_Parrived reads, and the copier of the last partition completes both requests. The
 * two sides may cut the message into different numbers of partitions.
 *
 * Threads: MPI_Pready and its kin run in any thread of the sending rank, several at once
 * (MPI_THREAD_MULTIPLE), without the rank lock: they touch only atomics and their own
 * partitions' bytes. MPI_Parrived runs in any thread of the receiving rank. Inits, Start
 * and release run in the owning rank's threads; the table is guarded by its lock.
 *
 * With a rank of another node (struct far) the partitions travel as messages on the
 * communicator's internal context (`context | SHL_CTX_INTERNAL`, which no user receive
 * matches; world ranks as ranks, as coll/net.c's). Both sides number their channels to one
 * peer with one tag in init order (`k`, from the process-wide `counters`); the sender
 * announces its channel at init with a SETUP message {tag, k, sid} whose `sid`, unique in
 * the process, makes the tag of its data (SHL_PART_TAG_DATA + sid); each readied partition
 * goes as messages of at most SHL_PART_CHUNK bytes, each with its epoch and offset. The
 * receiver learns `sid` from the SETUPs (one it takes for another of its channels waits
 * in the process-wide `setups`), keeps one receive of its data tag posted, applies what
 * belongs to its current epoch and keeps what comes early until its MPI_Start. Its polls
 * (the waits and tests, MPI_Parrived, MPI_Start) drive it, rank locked; MPI_Pready takes
 * the rank lock to post its messages. The sender's request completes once every partition
 * was readied and its messages written. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/p2p/check.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/partition.h"

/* What a send and its receive share. The key and the sides' fields are written by each
 * side's init before it publishes its side (has_send, has_recv: seq_cst stores, also under
 * the table's lock), and read by the other only after it has seen that flag. */
struct chan {
	/* Matching key. */
	uint32_t context;
	int src, dst, tag;            /* world ranks, and the tag */
	struct chan *next;            /* in `chans` while one side is missing */
	_Atomic int refs;             /* sides attached and not released */
	_Atomic bool has_send, has_recv;
	/* The sender's: its message as `sparts` partitions of `sbytes` bytes. */
	const char *sbuf;
	struct shl_datatype *stype;
	int sparts;
	size_t sbytes;
	struct shl_req *sreq;
	_Atomic uint64_t *ready;      /* by send partition: the epoch it was last readied in */
	_Atomic uint64_t *claimed;    /* by send partition: the epoch it was last copied in */
	/* The receiver's. */
	char *rbuf;
	struct shl_datatype *rtype;
	int rparts;
	size_t rbytes;
	struct shl_req *rreq;
	_Atomic size_t *arrived;      /* by receive partition: its bytes copied this epoch */
	/* Epochs, counted from 1 by each side's MPI_Start; the receiver's is published after
	 * its arrival counts are reset (seq_cst, against MPI_Pready's load). */
	alignas(64) _Atomic uint64_t recv_epoch;
	_Atomic int copied;           /* send partitions copied this epoch; the sender resets
				       * it at MPI_Start, before readying any */
};

/* Channels waiting for their other side, oldest first: process-wide, under `lock`. */
static struct {
	pthread_mutex_t lock;
	struct chan *head, **tail;
} chans = { PTHREAD_MUTEX_INITIALIZER, NULL, &chans.head };

/* Internal tags of partitioned messages between nodes (on `context | SHL_CTX_INTERNAL`):
 * above the tags of coll/net.c's exchanges (below 2^29) and below SHL_RMA_TAG_BASE. */
#define SHL_PART_TAG_SETUP 0x20000000
#define SHL_PART_TAG_DATA 0x20000001
#define SHL_PART_SID_MAX (0x3fffff00 - SHL_PART_TAG_DATA)
/* The largest message of partition data: a partition is cut in such pieces, so the
 * receiver's one posted receive per channel fits every one. */
#define SHL_PART_CHUNK (64 * 1024)

struct setup {
	int32_t tag, sid;
	uint64_t k;
	uint64_t total;               /* the sender's bytes an epoch */
};

struct piece {
	uint64_t epoch, offset, len;  /* then `len` bytes of the message from `offset` */
};

/* A message kept: a send still being written, or data that came before its epoch. */
struct held {
	struct shl_req *q;            /* sender: the send's request */
	char *buf;
	struct held *next;
};

/* One side of a channel to a rank of another node. Touched by the owning rank's threads
 * with the rank locked, but for `ready`, `arrived` and `readied` (atomics). */
struct far {
	struct shl_comm icomm;        /* internal context, world ranks */
	int peer;                     /* world rank */
	int tag;
	uint64_t k;
	int sid;                      /* receiver: -1 until its SETUP is seen */
	size_t sent_total;            /* receiver: the sender's bytes an epoch, from its SETUP */
	const char *buf;
	struct shl_datatype *type;
	int parts;
	size_t pbytes, total;
	/* sender */
	_Atomic uint64_t *ready;      /* by partition: the epoch it was last readied in */
	int readied;                  /* partitions readied this epoch (rank locked) */
	struct held *outs;            /* sends not yet written */
	/* receiver */
	_Atomic size_t *arrived;      /* by partition: bytes in this epoch */
	size_t got;                   /* bytes in this epoch */
	struct shl_req *setup_rq, *data_rq;
	struct setup setup_in;
	char *data_buf;
	struct held *early, **early_tail;  /* data of a later epoch, in order */
};

/* Process-wide, under `lock`: the next `k` of each (rank, context, peer, tag, direction),
 * and SETUPs a receiver took for another of its channels. */
struct counter {
	int self, peer, tag;
	uint32_t context;
	bool send;
	uint64_t next;
	struct counter *link;
};
struct seen {
	int self, peer;
	uint32_t context;
	struct setup s;
	struct seen *link;
};
static struct {
	pthread_mutex_t lock;
	struct counter *counters;
	struct seen *setups;
	int sids;
} farx = { PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0 };

/* One side's view, a request's `ext`. `epoch` is written by MPI_Start in the owner's
 * thread and read by MPI_Pready in its others: the program orders them (it must start the
 * request before readying a partition). */
struct part {
	struct chan *ch;              /* on the node; NULL: another node or MPI_PROC_NULL */
	struct far *far;              /* another node; NULL: on the node or MPI_PROC_NULL */
	bool send;
	int parts;
	size_t pbytes;                /* bytes of one partition */
	uint64_t epoch;
};

static void chan_drop(struct chan *ch)
{
	if (atomic_fetch_sub(&ch->refs, 1) != 1)
		return;
	free((void *)ch->ready);
	free((void *)ch->claimed);
	free((void *)ch->arrived);
	free(ch);
}

/* ---- copying ---- */

/* Copy send partition `i` of epoch `e` into the receiver's buffer unless the other side has
 * (both sides have started epoch `e` and the partition is readied). Any thread of either
 * rank, no lock. */
static void try_copy(struct chan *ch, int i, uint64_t e)
{
	uint64_t expect = e - 1;
	size_t off = (size_t)i * ch->sbytes, end = off + ch->sbytes;

	/* Pairs with the other side's CAS: one copier per partition and epoch. */
	if (!atomic_compare_exchange_strong(&ch->claimed[i], &expect, e))
		return;
	if (ch->sbytes > 0) {
		shl_dt_copy_range(ch->rbuf, ch->rtype, ch->sbuf, ch->stype, off, ch->sbytes);
		for (size_t j = off / ch->rbytes; j < (size_t)ch->rparts && j * ch->rbytes < end;
		     j++) {
			size_t lo = j * ch->rbytes > off ? j * ch->rbytes : off;
			size_t hi = (j + 1) * ch->rbytes < end ? (j + 1) * ch->rbytes : end;
			/* Release: MPI_Parrived's acquire load then sees the bytes. */
			atomic_fetch_add_explicit(&ch->arrived[j], hi - lo, memory_order_release);
		}
	}
	/* acq_rel: the last copier sees every other copier's bytes before it completes. */
	if (atomic_fetch_add_explicit(&ch->copied, 1, memory_order_acq_rel) + 1 == ch->sparts) {
		struct shl_req *sreq = ch->sreq;
		shl_req_complete(ch->rreq);
		shl_req_complete(sreq);
	}
}


/* ---- between nodes ---- */

/* Post an internal receive of `bytes` into `buf` from f's peer with internal tag `tag`. */
static struct shl_req *far_post(struct shl_rank *r, struct far *f, void *buf, size_t bytes,
				int tag)
{
	struct shl_req *q = shl_req_new(r, SHL_REQ_RECV);

	if (q == NULL)
		shl_panic("MPI_Precv_init", ENOMEM, "no request for partitioned data");
	q->comm = &f->icomm;
	q->buf = buf;
	q->count = (MPI_Count)bytes;
	q->type = MPI_BYTE;  /* predefined: never held or released */
	q->peer = f->peer;
	q->tag = tag;
	shl_p2p_start(r, q);
	return q;
}

static void far_drop(struct shl_rank *r, struct shl_req *q)
{
	q->type = NULL;
	shl_req_release(r, q);
}

/* An internal receive no longer wanted: unposted, or, when a message took it (its data may
 * still be coming from the other node), waited for. Returns whether it holds a message. */
static bool far_retire(struct shl_rank *r, struct shl_req *q)
{
	if (!shl_req_done(q) && shl_p2p_is_posted(r, q)) {
		shl_p2p_cancel(r, q);
		return false;
	}
	shl_wait(r, shl_req_done, q);
	return !q->status.shl_cancelled;
}

/* The next `k` of (self, context, peer, tag, send), counting it. */
static int far_next_k(int self, uint32_t context, int peer, int tag, bool send, uint64_t *k)
{
	struct counter *c;

	pthread_mutex_lock(&farx.lock);
	for (c = farx.counters; c != NULL; c = c->link)
		if (c->self == self && c->context == context && c->peer == peer && c->tag == tag &&
		    c->send == send)
			break;
	if (c == NULL && (c = calloc(1, sizeof(*c))) != NULL) {
		*c = (struct counter){ self, peer, tag, context, send, 0, farx.counters };
		farx.counters = c;
	}
	if (c != NULL)
		*k = c->next++;
	pthread_mutex_unlock(&farx.lock);
	return c != NULL ? 0 : -ENOMEM;
}

/* A SETUP receiver `self` took from `peer` on `context` for another of its channels. */
static void far_keep_setup(int self, int peer, uint32_t context, const struct setup *s)
{
	struct seen *n = malloc(sizeof(*n));

	if (n == NULL)
		shl_panic("MPI_Precv_init", ENOMEM, "no memory for a partitioned channel");
	pthread_mutex_lock(&farx.lock);
	*n = (struct seen){ self, peer, context, *s, farx.setups };
	farx.setups = n;
	pthread_mutex_unlock(&farx.lock);
}

/* Whether a SETUP for receive `f` of rank `self` was kept; it sets f->sid. */
static bool far_take_setup(struct far *f, int self)
{
	bool found = false;

	pthread_mutex_lock(&farx.lock);
	for (struct seen **link = &farx.setups, *n; (n = *link) != NULL; link = &n->link) {
		if (n->self == self && n->peer == f->peer && n->context == f->icomm.context &&
		    n->s.tag == f->tag && n->s.k == f->k) {
			f->sid = n->s.sid;
			f->sent_total = n->s.total;
			*link = n->link;
			free(n);
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&farx.lock);
	return found;
}

/* Receive `f` of rank `r`: take SETUPs from its peer until its own shows, then post the
 * receive of its data. */
static void far_learn(struct shl_rank *r, struct far *f)
{
	while (!far_take_setup(f, r->world_rank)) {
		if (f->setup_rq == NULL)
			f->setup_rq = far_post(r, f, &f->setup_in, sizeof(f->setup_in),
					       SHL_PART_TAG_SETUP);
		if (!shl_req_done(f->setup_rq))
			return;
		struct setup s = f->setup_in;
		far_drop(r, f->setup_rq);
		f->setup_rq = NULL;
		far_keep_setup(r->world_rank, f->peer, f->icomm.context, &s);
	}
	if (f->setup_rq != NULL) {
		if (far_retire(r, f->setup_rq))
			far_keep_setup(r->world_rank, f->peer, f->icomm.context, &f->setup_in);
		far_drop(r, f->setup_rq);
		f->setup_rq = NULL;
	}
	f->data_buf = malloc(sizeof(struct piece) + SHL_PART_CHUNK);
	if (f->data_buf == NULL)
		shl_panic("MPI_Precv_init", ENOMEM, "no memory for partitioned data");
	f->data_rq = far_post(r, f, f->data_buf, sizeof(struct piece) + SHL_PART_CHUNK,
			      SHL_PART_TAG_DATA + f->sid);
}

/* A piece of this epoch's data into receive `q`'s buffer. */
static void far_apply(struct far *f, struct shl_req *q, const char *msg)
{
	struct piece pc;
	size_t end;

	memcpy(&pc, msg, sizeof(pc));
	end = pc.offset + pc.len;
	if (pc.len == 0 || end > f->total)
		return;
	/* The dense side of a range copy is addressed from the message's start. */
	shl_dt_copy_range((void *)f->buf, f->type,
			  (const void *)((uintptr_t)(msg + sizeof(pc)) - pc.offset), NULL,
			  pc.offset, pc.len);
	for (size_t j = pc.offset / f->pbytes; j < (size_t)f->parts && j * f->pbytes < end; j++) {
		size_t lo = j * f->pbytes > pc.offset ? j * f->pbytes : pc.offset;
		size_t hi = (j + 1) * f->pbytes < end ? (j + 1) * f->pbytes : end;
		/* Release: MPI_Parrived's acquire load then sees the bytes. */
		atomic_fetch_add_explicit(&f->arrived[j], hi - lo, memory_order_release);
	}
	f->got += pc.len;
	if (f->got == f->total)
		shl_req_complete(q);  /* a thread of the rank may wait for it */
}

static void far_recv_poll(struct shl_rank *r, struct shl_req *q, struct part *p)
{
	struct far *f = p->far;

	if (f->sid < 0) {
		far_learn(r, f);
		if (f->sid < 0)
			return;
	}
	if (f->sent_total != f->total) {
		/* The send's partitions add up to another size (on a node the second init
		 * finds it): every epoch ends in MPI_ERR_TRUNCATE instead of waiting. */
		if (q->active && !shl_req_done(q)) {
			q->status.MPI_ERROR = MPI_ERR_TRUNCATE;
			shl_req_complete(q);
		}
		return;
	}
	while (shl_req_done(f->data_rq)) {
		struct piece pc;
		memcpy(&pc, f->data_buf, sizeof(pc));
		far_drop(r, f->data_rq);
		if (q->active && pc.epoch == p->epoch && !shl_req_done(q)) {
			far_apply(f, q, f->data_buf);
		} else {
			/* Of an epoch not started here yet: kept until its MPI_Start. */
			struct held *h = malloc(sizeof(*h));
			if (h == NULL)
				shl_panic("MPI_Wait", ENOMEM, "no memory for partitioned data");
			*h = (struct held){ NULL, f->data_buf, NULL };
			*f->early_tail = h;
			f->early_tail = &h->next;
			f->data_buf = malloc(sizeof(struct piece) + SHL_PART_CHUNK);
			if (f->data_buf == NULL)
				shl_panic("MPI_Wait", ENOMEM, "no memory for partitioned data");
		}
		f->data_rq = far_post(r, f, f->data_buf, sizeof(struct piece) + SHL_PART_CHUNK,
				      SHL_PART_TAG_DATA + f->sid);
	}
}

static void far_send_poll(struct shl_rank *r, struct shl_req *q, struct far *f)
{
	for (struct held **link = &f->outs, *h; (h = *link) != NULL;) {
		if (!shl_req_done(h->q)) {
			link = &h->next;
			continue;
		}
		*link = h->next;
		far_drop(r, h->q);
		free(h->buf);
		free(h);
	}
	if (q->active && f->readied == f->parts && f->outs == NULL)
		shl_req_complete_own(r, q);
}

/* Send partition `i` of epoch `e` of send `f` to its peer, in pieces. Rank locked. */
static int far_ready(struct shl_rank *r, struct far *f, int i, uint64_t e)
{
	size_t off = (size_t)i * f->pbytes, end = off + f->pbytes;

	for (size_t at = off; at < end; at += SHL_PART_CHUNK) {
		size_t len = end - at < SHL_PART_CHUNK ? end - at : SHL_PART_CHUNK;
		struct piece pc = { e, at, len };
		char *msg = malloc(sizeof(pc) + len);
		struct held *h = malloc(sizeof(*h));
		struct shl_req *sq = shl_req_new(r, SHL_REQ_SEND);
		if (msg == NULL || h == NULL || sq == NULL) {
			free(msg);
			free(h);
			if (sq != NULL)
				far_drop(r, sq);
			return -ENOMEM;
		}
		memcpy(msg, &pc, sizeof(pc));
		shl_dt_copy_range((void *)((uintptr_t)(msg + sizeof(pc)) - at), NULL, f->buf, f->type,
				  at, len);
		if (shl_p2p_send(r, &f->icomm, msg, (MPI_Count)(sizeof(pc) + len), MPI_BYTE, f->peer,
				 SHL_PART_TAG_DATA + f->sid, SHL_MODE_STANDARD, sq) != 0) {
			free(msg);
			free(h);
			far_drop(r, sq);
			return -ENOMEM;
		}
		*h = (struct held){ sq, msg, f->outs };
		f->outs = h;
	}
	f->readied++;
	return 0;
}

static void far_free(struct shl_rank *r, struct far *f)
{
	while (f->outs != NULL) {
		struct held *h = f->outs;
		shl_wait(r, shl_req_done, h->q);
		f->outs = h->next;
		far_drop(r, h->q);
		free(h->buf);
		free(h);
	}
	if (f->setup_rq != NULL) {
		if (far_retire(r, f->setup_rq))
			far_keep_setup(r->world_rank, f->peer, f->icomm.context, &f->setup_in);
		far_drop(r, f->setup_rq);
	}
	if (f->data_rq != NULL) {
		far_retire(r, f->data_rq);  /* data of an epoch never started here: dropped */
		far_drop(r, f->data_rq);
	}
	while (f->early != NULL) {
		struct held *h = f->early;
		f->early = h->next;
		free(h->buf);
		free(h);
	}
	free(f->data_buf);
	free((void *)f->ready);
	free((void *)f->arrived);
	free(f);
}

/* A channel to `world`, a rank of another node, for init. Returns 0 or -ENOMEM. */
static int far_make(struct shl_rank *r, struct shl_comm *c, bool send, int world, int tag,
		    const void *buf, struct shl_datatype *type, int parts, size_t pbytes,
		    struct far **out)
{
	struct far *f = calloc(1, sizeof(*f));
	size_t n = parts > 0 ? (size_t)parts : 1;

	if (f == NULL)
		return -ENOMEM;
	f->icomm = (struct shl_comm){ .magic = SHL_COMM_MAGIC,
				      .context = c->context | SHL_CTX_INTERNAL,
				      .rank = r->world_rank, .size = shl_job.size, .sh = c->sh };
	f->peer = world;
	f->tag = tag;
	f->sid = -1;
	f->buf = buf;
	f->type = type;
	f->parts = parts;
	f->pbytes = pbytes;
	f->total = (size_t)parts * pbytes;
	f->early_tail = &f->early;
	if (send)
		f->ready = calloc(n, sizeof(*f->ready));
	else
		f->arrived = calloc(n, sizeof(*f->arrived));
	if ((send ? (void *)f->ready : (void *)f->arrived) == NULL ||
	    far_next_k(r->world_rank, f->icomm.context, world, tag, send, &f->k) < 0) {
		free((void *)f->ready);
		free((void *)f->arrived);
		free(f);
		return -ENOMEM;
	}
	if (send) {
		pthread_mutex_lock(&farx.lock);
		if (farx.sids >= SHL_PART_SID_MAX) {
			pthread_mutex_unlock(&farx.lock);
			free((void *)f->ready);
			free(f);
			return -ENOMEM;
		}
		f->sid = farx.sids++;
		pthread_mutex_unlock(&farx.lock);
		/* Announce the channel: a small message, copied and complete at once. */
		struct setup s = { tag, f->sid, f->k, f->total };
		shl_rank_lock(r);
		int rc = shl_p2p_send(r, &f->icomm, &s, sizeof(s), MPI_BYTE, world,
				      SHL_PART_TAG_SETUP, SHL_MODE_STANDARD, &r->sent);
		shl_rank_unlock(r);
		if (rc != 0) {
			free((void *)f->ready);
			free(f);
			return rc;
		}
	}
	*out = f;
	return 0;
}

/* ---- hooks ---- */

void shl_p2p_part_poll(struct shl_rank *r, struct shl_req *q)
{
	struct part *p = q->ext;

	if (p->far == NULL || !q->active)
		return;  /* on the node, the copier completes the requests */
	if (p->send)
		far_send_poll(r, q, p->far);
	else
		far_recv_poll(r, q, p);
}

int shl_p2p_part_start(struct shl_rank *r, struct shl_req *q)
{
	struct part *p = q->ext;
	struct chan *ch = p->ch;
	uint64_t e = ++p->epoch;

	atomic_store_explicit(&q->done, 0, memory_order_relaxed);
	q->active = true;
	q->cancelled = false;
	if (p->far != NULL) {
		struct far *f = p->far;
		if (p->send) {
			f->readied = 0;
		} else {
			for (int j = 0; j < f->parts; j++)
				atomic_store_explicit(&f->arrived[j], 0, memory_order_relaxed);
			f->got = 0;
			/* What came early for this epoch, in its order. */
			for (struct held **link = &f->early, *h; (h = *link) != NULL;) {
				struct piece pc;
				memcpy(&pc, h->buf, sizeof(pc));
				if (pc.epoch != e) {
					link = &h->next;
					continue;
				}
				*link = h->next;
				if (f->early_tail == &h->next)
					f->early_tail = link;
				far_apply(f, q, h->buf);
				free(h->buf);
				free(h);
			}
		}
		if (f->total == 0 || p->parts == 0)
			shl_req_complete_own(r, q);
		else
			shl_p2p_part_poll(r, q);
		return 0;
	}
	if (ch == NULL || p->parts == 0) {
		/* MPI_PROC_NULL, or nothing to move: complete at once. */
		shl_req_complete_own(r, q);
		return 0;
	}
	if (p->send) {
		atomic_store_explicit(&ch->copied, 0, memory_order_relaxed);
		return 0;
	}
	for (int j = 0; j < ch->rparts; j++)
		atomic_store_explicit(&ch->arrived[j], 0, memory_order_relaxed);
	/* seq_cst, against MPI_Pready's store of `ready` and load of recv_epoch: either it
	 * sees us started and copies, or we see its partition readied below. */
	atomic_store(&ch->recv_epoch, e);
	if (!atomic_load(&ch->has_send))
		return 0;  /* the sender copies each partition as it readies it */
	for (int i = 0; i < ch->sparts; i++)
		if (atomic_load(&ch->ready[i]) == e)
			try_copy(ch, i, e);
	return 0;
}

void shl_p2p_part_free(struct shl_rank *r, struct shl_req *q)
{
	struct part *p = q->ext;
	struct chan *ch = p->ch;

	if (p->far != NULL)
		far_free(r, p->far);
	if (ch != NULL) {
		pthread_mutex_lock(&chans.lock);
		if (!atomic_load(&ch->has_send) || !atomic_load(&ch->has_recv)) {
			/* Still waiting for its other side: out of the table. */
			for (struct chan **link = &chans.head; *link != NULL; link = &(*link)->next) {
				if (*link == ch) {
					*link = ch->next;
					if (chans.tail == &ch->next)
						chans.tail = link;
					break;
				}
			}
		}
		pthread_mutex_unlock(&chans.lock);
		chan_drop(ch);
	}
	free(p);
}

/* ---- initialization ---- */

/* Attach the calling side (`send`) of a channel (context, src, dst, tag) to the oldest
 * channel waiting for it, or to a new one left waiting. Fills the side's fields with
 * `fill(ch, arg)` before publishing it. Returns the channel, or NULL (no memory; *err
 * -ENOMEM) or a matched channel whose other side disagrees (*err -EINVAL, *other its
 * bytes). */
struct side {
	const void *buf;
	struct shl_datatype *type;
	int parts;
	size_t pbytes;
	struct shl_req *req;
};

static int attach(struct chan **out, bool send, uint32_t context, int src, int dst, int tag,
		  const struct side *s, size_t *other)
{
	struct chan *ch = NULL;
	_Atomic uint64_t *ready = NULL, *claimed = NULL;
	_Atomic size_t *arrived = NULL;
	size_t n = s->parts > 0 ? (size_t)s->parts : 1;

	if (send) {
		ready = calloc(n, sizeof(*ready));
		claimed = calloc(n, sizeof(*claimed));
	} else {
		arrived = calloc(n, sizeof(*arrived));
	}
	if ((send && (ready == NULL || claimed == NULL)) || (!send && arrived == NULL))
		goto nomem;
	pthread_mutex_lock(&chans.lock);
	for (struct chan **link = &chans.head; *link != NULL; link = &(*link)->next) {
		struct chan *c = *link;
		if (c->context != context || c->src != src || c->dst != dst || c->tag != tag ||
		    atomic_load_explicit(send ? &c->has_send : &c->has_recv, memory_order_relaxed))
			continue;
		size_t theirs = send ? (size_t)c->rparts * c->rbytes : (size_t)c->sparts * c->sbytes;
		if (theirs != (size_t)s->parts * s->pbytes) {
			pthread_mutex_unlock(&chans.lock);
			*other = theirs;
			free((void *)ready);
			free((void *)claimed);
			free((void *)arrived);
			return -EINVAL;
		}
		*link = c->next;
		if (chans.tail == &c->next)
			chans.tail = link;
		ch = c;
		break;
	}
	if (ch == NULL) {
		ch = calloc(1, sizeof(*ch));
		if (ch == NULL) {
			pthread_mutex_unlock(&chans.lock);
			goto nomem;
		}
		ch->context = context;
		ch->src = src;
		ch->dst = dst;
		ch->tag = tag;
		*chans.tail = ch;
		chans.tail = &ch->next;
		ch->next = NULL;
	}
	if (send) {
		ch->sbuf = s->buf;
		ch->stype = s->type;
		ch->sparts = s->parts;
		ch->sbytes = s->pbytes;
		ch->sreq = s->req;
		ch->ready = ready;
		ch->claimed = claimed;
	} else {
		ch->rbuf = (char *)s->buf;
		ch->rtype = s->type;
		ch->rparts = s->parts;
		ch->rbytes = s->pbytes;
		ch->rreq = s->req;
		ch->arrived = arrived;
	}
	atomic_fetch_add(&ch->refs, 1);
	atomic_store(send ? &ch->has_send : &ch->has_recv, true);  /* seq_cst: see part_start */
	pthread_mutex_unlock(&chans.lock);
	*out = ch;
	return 0;
nomem:
	free((void *)ready);
	free((void *)claimed);
	free((void *)arrived);
	return -ENOMEM;
}

static int init(const char *fn, bool send, const void *buf, int partitions, MPI_Count count,
		MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	struct part *p;
	struct shl_req *q;
	MPI_Count total;
	size_t other = 0;
	int err = shl_check_comm(fn, r, comm, &c), rc = 0;

	if (err != MPI_SUCCESS)
		return err;
	/* No hints are understood; any info object, or MPI_INFO_NULL, is fine. */
	if (info != MPI_INFO_NULL && shl_info_get(r, info) == NULL)
		return shl_err(c, MPI_ERR_INFO, fn, "info is not a valid info object");
	if (partitions < 0)
		return shl_err(c, MPI_ERR_ARG, fn, "partitions %d is negative", partitions);
	if (count < 0)
		return shl_err(c, MPI_ERR_COUNT, fn, "count %lld is negative", (long long)count);
	if (partitions > 0 && count > PTRDIFF_MAX / partitions)
		return shl_err(c, MPI_ERR_COUNT, fn, "partitions %d x count %lld is too large",
			       partitions, (long long)count);
	total = (MPI_Count)partitions * count;
	if (send) {
		err = check_send(fn, "", r, comm, &c, buf, total, datatype, peer, tag);
	} else {
		err = check_recv(fn, "", r, comm, &c, (void *)buf, total, datatype, peer, tag);
		if (err == MPI_SUCCESS && peer == MPI_ANY_SOURCE)
			err = shl_err(c, MPI_ERR_RANK, fn, "source MPI_ANY_SOURCE is not allowed in "
				      "a partitioned receive (MPI 4.1, 4.2.2)");
		if (err == MPI_SUCCESS && tag == MPI_ANY_TAG)
			err = shl_err(c, MPI_ERR_TAG, fn, "tag MPI_ANY_TAG is not allowed in a "
				      "partitioned receive (MPI 4.1, 4.2.2)");
	}
	if (err == MPI_SUCCESS && request == NULL)
		err = shl_err(c, MPI_ERR_REQUEST, fn, "request is NULL");
	if (err != MPI_SUCCESS)
		return err;
	int world = peer == MPI_PROC_NULL ? -1 : shl_comm_remote_world(c, peer);
	p = malloc(sizeof(*p));
	if (p == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	*p = (struct part){ NULL, NULL, send, partitions, (size_t)count * datatype->size, 0 };
	shl_rank_lock(r);
	q = shl_req_new(r, send ? SHL_REQ_PSEND : SHL_REQ_PRECV);
	shl_rank_unlock(r);
	if (q == NULL) {
		free(p);
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	shl_p2p_fill(q, c, buf, total, datatype, peer, tag, SHL_MODE_STANDARD);
	/* What MPI_Wait reports of a receive: the whole message from `source` (the sender's
	 * count is the same; MPI 4.1, 4.2.2). */
	if (!send)
		q->status = (MPI_Status){ .MPI_SOURCE = peer, .MPI_TAG = tag,
					  .shl_bytes = total * (MPI_Count)datatype->size };
	if (peer == MPI_PROC_NULL)
		shl_status_empty(&q->status, MPI_PROC_NULL);
	if (world >= 0 && shl_job.ranks[world] == NULL) {
		/* A rank of another node: last, as it announces the channel. */
		rc = far_make(r, c, send, world, tag, buf, datatype, partitions, p->pbytes, &p->far);
	} else if (world >= 0) {
		struct side s = { buf, datatype, partitions, p->pbytes, q };
		int me = r->world_rank;
		rc = attach(&p->ch, send, c->context, send ? me : world, send ? world : me, tag, &s,
			    &other);
	}
	if (rc != 0) {
		free(p);
		q->type = NULL;  /* not held yet */
		shl_rank_lock(r);
		shl_req_release(r, q);
		shl_rank_unlock(r);
		if (rc == -ENOMEM)
			return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
		return shl_err(c, MPI_ERR_TRUNCATE, fn, "the matching partitioned %s of rank %d "
			       "with tag %d has %zu bytes, this one %lld (%d partitions of %lld x %s)",
			       send ? "receive" : "send", peer, tag, other,
			       (long long)(total * (MPI_Count)datatype->size), partitions,
			       (long long)count, datatype->name ? datatype->name : "datatype");
	}
	shl_dt_hold(datatype);  /* released with the request (shl_req_release) */
	q->comm = shl_comm_hold(c);
	q->holds_comm = true;
	q->persistent = true;
	q->active = false;
	q->ext = p;
	*request = q;
	return MPI_SUCCESS;
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
		    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init("MPI_Psend_init", true, buf, partitions, count, datatype, dest, tag, comm,
		    info, request);
}
SHL_WEAK_ALIAS(Psend_init);

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
		    int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	return init("MPI_Precv_init", false, buf, partitions, count, datatype, source, tag, comm,
		    info, request);
}
SHL_WEAK_ALIAS(Precv_init);

/* ---- readying and arrival ---- */

/* The partitioned request `request` of kind `kind` of the calling rank, active; or the
 * error raised. */
static int check_part(const char *fn, struct shl_rank *r, MPI_Request request,
		      enum shl_req_kind kind, struct part **p)
{
	struct shl_req *q = request;

	if (q == MPI_REQUEST_NULL || !shl_handle_in_arena(q, sizeof(*q)) ||
	    q->magic != SHL_REQ_MAGIC || q->owner != r)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "request is not a valid request of this "
			       "rank (freed already?)");
	if (q->kind != kind)
		return shl_err(q->comm, MPI_ERR_REQUEST, fn, "request is not a partitioned %s "
			       "(MPI_%s_init)", kind == SHL_REQ_PSEND ? "send" : "receive",
			       kind == SHL_REQ_PSEND ? "Psend" : "Precv");
	*p = q->ext;
	return MPI_SUCCESS;
}

/* Ready partition `i` of active send `q` (checked). */
static int ready_one(const char *fn, struct shl_req *q, struct part *p, int i)
{
	struct chan *ch = p->ch;
	uint64_t e = p->epoch;

	if (i < 0 || i >= p->parts)
		return shl_err(q->comm, MPI_ERR_ARG, fn, "partition %d is outside 0..%d (the "
			       "request's partitions)", i, p->parts - 1);
	if (p->far != NULL) {
		struct shl_rank *r = q->owner;
		int rc;
		if (atomic_exchange(&p->far->ready[i], e) == e)
			return shl_err(q->comm, MPI_ERR_OTHER, fn, "partition %d was readied already "
				       "in this epoch (since the last MPI_Start)", i);
		shl_rank_lock(r);
		rc = far_ready(r, p->far, i, e);
		shl_rank_unlock(r);
		if (rc != 0)
			return shl_err(q->comm, MPI_ERR_NO_MEM, fn, "out of memory");
		return MPI_SUCCESS;
	}
	if (ch == NULL)
		return MPI_SUCCESS;  /* MPI_PROC_NULL */
	/* seq_cst, against the receiver's store of recv_epoch and load of `ready`
	 * (shl_p2p_part_start): one of us sees the other. */
	if (atomic_exchange(&ch->ready[i], e) == e)
		return shl_err(q->comm, MPI_ERR_OTHER, fn, "partition %d was readied already in "
			       "this epoch (since the last MPI_Start)", i);
	if (atomic_load(&ch->recv_epoch) >= e)
		try_copy(ch, i, e);
	return MPI_SUCCESS;
}

/* The checks every Pready call makes. */
static int ready_args(const char *fn, MPI_Request request, struct part **p)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	int err = check_part(fn, r, request, SHL_REQ_PSEND, p);

	if (err == MPI_SUCCESS && !request->active)
		err = shl_err(request->comm, MPI_ERR_REQUEST, fn, "request is not active (MPI_Start "
			      "it before readying partitions)");
	return err;
}

int PMPI_Pready(int partition, MPI_Request request)
{
	struct part *p;
	int err = ready_args("MPI_Pready", request, &p);

	if (err != MPI_SUCCESS)
		return err;
	return ready_one("MPI_Pready", request, p, partition);
}
SHL_WEAK_ALIAS(Pready);

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
	struct part *p;
	int err = ready_args("MPI_Pready_range", request, &p);

	if (err != MPI_SUCCESS)
		return err;
	if (partition_low < 0 || partition_high >= p->parts || partition_low > partition_high)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Pready_range", "partitions %d..%d "
			       "are not a range within 0..%d (the request's partitions)",
			       partition_low, partition_high, p->parts - 1);
	for (int i = partition_low; i <= partition_high && err == MPI_SUCCESS; i++)
		err = ready_one("MPI_Pready_range", request, p, i);
	return err;
}
SHL_WEAK_ALIAS(Pready_range);

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
	struct part *p;
	int err = ready_args("MPI_Pready_list", request, &p);

	if (err != MPI_SUCCESS)
		return err;
	if (length < 0)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Pready_list", "length %d is negative",
			       length);
	if (length > 0 && array_of_partitions == NULL)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Pready_list",
			       "array_of_partitions is NULL");
	for (int k = 0; k < length; k++)
		if (array_of_partitions[k] < 0 || array_of_partitions[k] >= p->parts)
			return shl_err(request->comm, MPI_ERR_ARG, "MPI_Pready_list",
				       "array_of_partitions[%d] = %d is outside 0..%d (the request's "
				       "partitions)", k, array_of_partitions[k], p->parts - 1);
	for (int k = 0; k < length && err == MPI_SUCCESS; k++)
		err = ready_one("MPI_Pready_list", request, p, array_of_partitions[k]);
	return err;
}
SHL_WEAK_ALIAS(Pready_list);

int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Parrived");
	struct part *p;
	struct chan *ch;
	int err;

	if (request != MPI_REQUEST_NULL && shl_handle_in_arena(request, sizeof(*request)) &&
	    request->magic == SHL_REQ_MAGIC && request->owner == r &&
	    request->kind == SHL_REQ_PSEND)
		return shl_err(request->comm, MPI_ERR_REQUEST, "MPI_Parrived", "request is a "
			       "partitioned send's: MPI_Parrived takes a partitioned receive");
	err = check_part("MPI_Parrived", r, request, SHL_REQ_PRECV, &p);
	if (err != MPI_SUCCESS)
		return err;
	if (flag == NULL)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Parrived", "flag is NULL");
	if (partition < 0 || partition >= p->parts)
		return shl_err(request->comm, MPI_ERR_ARG, "MPI_Parrived", "partition %d is outside "
			       "0..%d (the request's partitions)", partition, p->parts - 1);
	ch = p->ch;
	if (p->far != NULL && request->active) {
		shl_rank_lock(r);
		shl_progress(r);  /* the messages in, matched with our posted receives */
		if (!shl_req_done(request))
			far_recv_poll(r, request, p);
		*flag = shl_req_done(request) ||
			atomic_load_explicit(&p->far->arrived[partition], memory_order_acquire) ==
				p->far->pbytes;
		shl_rank_unlock(r);
		if (!*flag)
			shl_poll_missed();
		return MPI_SUCCESS;
	}
	/* An inactive request's partitions all arrived in its last epoch (or it has none). */
	if (!request->active || ch == NULL || shl_req_done(request)) {
		*flag = 1;
		return MPI_SUCCESS;
	}
	/* Acquire: pairs with the copier's release add (try_copy). */
	*flag = atomic_load_explicit(&ch->arrived[partition], memory_order_acquire) == ch->rbytes &&
		ch->rbytes > 0;
	if (!*flag)
		shl_poll_missed();
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Parrived);
