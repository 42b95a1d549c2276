/* The neighborhood collectives (MPI 4.1, 8.6-8.9): Neighbor_allgather(v) and
 * Neighbor_alltoall(v/w), blocking, nonblocking and persistent, on a communicator with a
 * process topology (struct shl_topo, comm/comm.h). Entered by rank threads: the user's
 * calls, MPI_Start of a persistent one (shl_coll_neigh_restart), and each rank's progress
 * engine on a job of several nodes (shl_coll_neigh_progress). Moves data only between a
 * rank and its neighbours: no member waits for any rank that is not its neighbour.
 *
 * Pairing (MPI 4.1, 8.6): block i of a rank's send buffer goes to destinations[i] and
 * block j of its receive buffer comes from sources[j]. On a Cartesian topology the data
 * sent towards +1 of dimension d arrives in the receive block of -1 of d at the
 * destination (send block i pairs with receive block i ^ 1), which holds when a periodic
 * dimension of size 1 or 2 makes a rank its own neighbour or the same neighbour twice. On
 * a graph or distributed graph the n-th edge from a to b in a's destinations pairs with
 * the n-th occurrence of a in b's sources.
 *
 * On a node (every member a rank thread of this process): each call is a *post* (its
 * arguments, the topology, a count of edges still to move) listed under the member and
 * the call's collective number k in the communicator's neighbourhood state, kept by the
 * shared object. Under the state's lock an arriving rank lists its post and looks up the
 * posts of its neighbours at k; each edge whose other end is listed already is moved by
 * the arriving rank, after the lock, straight from the sender's buffer into the
 * receiver's (one shl_dt_copy), and the posts' counts drop; an edge whose other end is
 * not there yet is moved by that end when it arrives. The rank whose move brings a post's
 * count to zero unlists it and completes its request (waking its owner). A nonblocking
 * call therefore needs nothing more of any rank than to arrive, and a rank waits only for
 * its own neighbours.
 *
 * Across nodes (c->sh->offnode): one point-to-point send per destination and one receive
 * per source on the internal context (context | SHL_CTX_INTERNAL), tagged with the call's
 * number and, on a Cartesian topology, the sender's block index; repeated graph edges keep
 * their order by the non-overtaking rule. A nonblocking call's request completes from the
 * rank's progress engine (shl_coll_neigh_progress, called by coll/net.c's) once every
 * send and receive has. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/internal.h"
#include "runtime/p2p/internal.h"

/* Flags in shl_cargs.root: a Neighbor_allgather(v)'s one send block goes to every
 * destination; a Neighbor_alltoallw's int counts were widened into a copy the call frees
 * (its byte displacements are MPI_Aint in both forms, so `wide` holds for it). */
#define ONE_SBLOCK 1
#define INT_COUNTS 2

/* ---- on a node ---- */

struct post {
	uint64_t k;
	struct post *next;            /* the member's list, under the state's lock */
	bool listed;
	bool abandoned;               /* its blocking owner returned with an error */
	bool owner_frees;             /* blocking: the owner reads the error and frees it */
	bool held;                    /* x's types held (nonblocking and persistent) */
	int member;
	const struct shl_topo *topo;
	struct shl_req *req;
	_Atomic int pending;          /* edges still to move, each end counted */
	_Atomic int err;
	/* The first failed edge, for the report: the peer, the blocks, their bytes. */
	int bad_peer, bad_sblk, bad_rblk;
	bool bad_sender;
	size_t bad_sbytes, bad_rbytes;
	struct shl_cargs x;
	MPI_Datatype types[];         /* held: the arrays of its own (arrays_copy) */
};

/* A communicator's neighbourhood state: each member's unfinished posts. */
struct shl_coll_neigh {
	pthread_mutex_t lock;
	int n;
	struct post **posts;          /* by member */
	struct shl_comm **icomm;      /* by member: its view on the internal context (off node) */
};

/* One edge to move: send block i of s into receive block j of d. */
struct edge {
	struct post *s, *d;
	int i, j;
};

void shl_coll_neigh_run(struct shl_meeting *m)
{
	(void)m;  /* never run: marks a persistent neighbourhood request (shl_coll_restart) */
}

static struct shl_coll_neigh *state(struct shl_comm_shared *sh)
{
	struct shl_coll_neigh *s = atomic_load_explicit(&sh->neigh, memory_order_acquire);

	if (s != NULL)
		return s;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->n = sh->nmembers;
	s->posts = calloc((size_t)s->n, sizeof(*s->posts));
	s->icomm = calloc((size_t)s->n, sizeof(*s->icomm));
	if (s->posts == NULL || s->icomm == NULL) {
		free(s->posts);
		free(s->icomm);
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	struct shl_coll_neigh *none = NULL;
	if (!atomic_compare_exchange_strong(&sh->neigh, &none, s)) {
		pthread_mutex_destroy(&s->lock);
		free(s->posts);
		free(s->icomm);
		free(s);
		return none;
	}
	return s;
}

void shl_coll_neigh_free(struct shl_comm_shared *sh)
{
	struct shl_coll_neigh *s = atomic_load(&sh->neigh);

	if (s == NULL)
		return;
	for (int i = 0; i < s->n; i++)
		free(s->icomm[i]);
	pthread_mutex_destroy(&s->lock);
	free(s->posts);
	free(s->icomm);
	free(s);
}

static bool is_cart(const struct shl_topo *t)
{
	return t->kind == MPI_CART;
}

/* The receive block of `d` that send block i of rank `s` (topology ts) fills, or -1. */
static int pair_recv(const struct shl_topo *ts, int s, int i, const struct shl_topo *td, int d)
{
	if (is_cart(ts))
		return i ^ 1;
	int n = 0;
	for (int l = 0; l < i; l++)
		n += ts->destinations[l] == d;
	for (int j = 0; j < td->indegree; j++)
		if (td->sources[j] == s && n-- == 0)
			return j;
	return -1;
}

/* The send block of `s` that fills receive block j of rank `d`, or -1. */
static int pair_send(const struct shl_topo *ts, int s, const struct shl_topo *td, int d, int j)
{
	if (is_cart(td))
		return j ^ 1;
	int n = 0;
	for (int l = 0; l < j; l++)
		n += td->sources[l] == s;
	for (int i = 0; i < ts->outdegree; i++)
		if (ts->destinations[i] == d && n-- == 0)
			return i;
	return -1;
}

static struct shl_coll_blk send_block(const struct shl_cargs *x, int i)
{
	return shl_coll_sblock(x, x->root & ONE_SBLOCK ? 0 : i);
}

/* Bytes of the arrays a copy of `x` that outlives the call keeps of its own: the …w type
 * arrays padded to one length (shl_coll_hold holds x->nv of each), widened counts. */
static size_t arrays_size(const struct shl_cargs *x, const struct shl_topo *t)
{
	int nv = t->indegree > t->outdegree ? t->indegree : t->outdegree;
	size_t b = 0;

	if (x->svec == SHL_VEC_W)
		b += 2 * (size_t)nv * sizeof(MPI_Datatype);
	if (x->root & INT_COUNTS)
		b += (size_t)(t->indegree + t->outdegree) * sizeof(MPI_Count);
	return b;
}

/* Point copy `x` at arrays of its own in `mem` (arrays_size bytes). */
static void arrays_copy(struct shl_cargs *x, void *mem, const struct shl_topo *t)
{
	int nv = t->indegree > t->outdegree ? t->indegree : t->outdegree;
	MPI_Datatype *ty = mem;

	if (x->svec == SHL_VEC_W) {
		for (int i = 0; i < nv; i++) {
			ty[i] = i < t->outdegree ? x->stypes[i] : MPI_BYTE;
			ty[nv + i] = i < t->indegree ? x->rtypes[i] : MPI_BYTE;
		}
		x->stypes = ty;
		x->rtypes = ty + nv;
		x->nv = nv;
		ty += 2 * nv;
	}
	if (x->root & INT_COUNTS) {
		MPI_Count *n = (MPI_Count *)ty;
		memcpy(n, x->scounts, (size_t)t->outdegree * sizeof(*n));
		memcpy(n + t->outdegree, x->rcounts, (size_t)t->indegree * sizeof(*n));
		x->scounts = n;
		x->rcounts = n + t->outdegree;
	}
}

static void fail(struct post *p, int err, int peer, bool sender, int sblk, int rblk,
		 size_t sb, size_t rb)
{
	int none = 0;

	if (!atomic_compare_exchange_strong(&p->err, &none, err))
		return;
	p->bad_peer = peer;
	p->bad_sender = sender;
	p->bad_sblk = sblk;
	p->bad_rblk = rblk;
	p->bad_sbytes = sb;
	p->bad_rbytes = rb;
}

static void unlist(struct shl_coll_neigh *st, struct post *p)
{
	struct post **l;

	if (!p->listed)
		return;
	for (l = &st->posts[p->member]; *l != p; l = &(*l)->next)
		;
	*l = p->next;
	p->listed = false;
}

static void finish(struct shl_coll_neigh *st, struct post *p)
{
	struct shl_req *q = p->req;

	pthread_mutex_lock(&st->lock);
	unlist(st, p);
	bool owner = p->owner_frees && !p->abandoned;
	pthread_mutex_unlock(&st->lock);
	q->status.MPI_ERROR = atomic_load_explicit(&p->err, memory_order_relaxed);
	if (q->status.MPI_ERROR == MPI_ERR_TRUNCATE || q->status.MPI_ERROR == MPI_ERR_COUNT) {
		/* The failed edge, for the wait's report (shl_coll_why_status). */
		int me = p->member;   /* an intracommunicator's member index is its rank */
		q->status.MPI_SOURCE = p->bad_sender ? me : p->bad_peer;
		q->status.MPI_TAG = p->bad_sender ? p->bad_peer : me;
		q->status.shl_sent_bytes = (MPI_Count)p->bad_sbytes;
		q->status.shl_bytes = (MPI_Count)p->bad_rbytes;
	}
	if (!owner) {
		if (p->held)
			shl_coll_drop_holds(&p->x.a);
		free(p);
	}
	shl_req_complete(q);
}

static void drop(struct shl_coll_neigh *st, struct post *p, int n)
{
	if (atomic_fetch_sub_explicit(&p->pending, n, memory_order_acq_rel) == n)
		finish(st, p);
}

static void move(struct shl_coll_neigh *st, const struct edge *e)
{
	int srank = e->s->member, drank = e->d->member;

	if (e->j < 0 || e->i < 0) {
		fail(e->s, MPI_ERR_TOPOLOGY, drank, true, e->i, e->j, 0, 0);
		fail(e->d, MPI_ERR_TOPOLOGY, srank, false, e->i, e->j, 0, 0);
	} else {
		struct shl_coll_blk s = send_block(&e->s->x, e->i);
		struct shl_coll_blk d = shl_coll_rblock(&e->d->x, e->j);
		size_t sb = shl_coll_blk_bytes(s), db = shl_coll_blk_bytes(d);
		if (sb != db) {
			int err = sb > db ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
			fail(e->s, err, drank, true, e->i, e->j, sb, db);
			fail(e->d, err, srank, false, e->i, e->j, sb, db);
			if (sb > db)
				sb = db;
		}
		if (sb > 0)
			shl_dt_copy_inline(d.p, d.t, s.p, s.t, sb);
	}
	drop(st, e->s, 1);
	drop(st, e->d, 1);
}

static struct post *find(struct post *p, uint64_t k)
{
	while (p != NULL && p->k != k)
		p = p->next;
	return p;
}

/* Owner thread: list post `p` (its x, topo, member, req set) as call k and move the edges
 * whose other end is listed. `p` may be finished (and, unless owner_frees, freed) by the
 * time this returns. Returns 0 or MPI_ERR_NO_MEM. */
static int arrive(struct shl_coll_neigh *st, struct post *p, uint64_t k)
{
	const struct shl_topo *t = p->topo;
	int me = p->member, n = 0, pending = 0;
	struct edge few[16], *e = few;

	for (int i = 0; i < t->outdegree; i++)
		pending += t->destinations[i] != MPI_PROC_NULL;
	for (int j = 0; j < t->indegree; j++)
		pending += t->sources[j] != MPI_PROC_NULL;
	p->k = k;
	p->listed = false;
	if (pending == 0) {
		atomic_init(&p->pending, 1);
		drop(st, p, 1);
		return 0;
	}
	atomic_init(&p->pending, pending);
	if (pending > (int)(sizeof(few) / sizeof(few[0])) &&
	    (e = malloc((size_t)pending * sizeof(*e))) == NULL)
		return MPI_ERR_NO_MEM;
	pthread_mutex_lock(&st->lock);
	p->next = st->posts[me];
	st->posts[me] = p;
	p->listed = true;
	for (int i = 0; i < t->outdegree; i++) {
		int d = t->destinations[i];
		struct post *o;
		if (d == MPI_PROC_NULL || (o = d == me ? p : find(st->posts[d], k)) == NULL)
			continue;
		e[n++] = (struct edge){ p, o, i, pair_recv(t, me, i, o->topo, d) };
	}
	for (int j = 0; j < t->indegree; j++) {
		int s = t->sources[j];
		struct post *o;
		if (s == MPI_PROC_NULL || s == me || (o = find(st->posts[s], k)) == NULL)
			continue;
		e[n++] = (struct edge){ o, p, pair_send(o->topo, s, t, me, j), j };
	}
	pthread_mutex_unlock(&st->lock);
	for (int l = 0; l < n; l++)
		move(st, &e[l]);
	if (e != few)
		free(e);
	return 0;
}

/* A post of `x` for `c` completing `q`; `hold`: the call returns before the post is done,
 * so it keeps arrays of its own and holds the types. NULL when out of memory. */
static struct post *post_new(struct shl_comm *c, const struct shl_cargs *x, struct shl_req *q,
			     bool hold)
{
	const struct shl_topo *t = c->topo;
	size_t extra = hold ? arrays_size(x, t) : 0;
	struct post *p = malloc(sizeof(*p) + extra);

	if (p == NULL)
		return NULL;
	p->next = NULL;
	p->listed = p->abandoned = false;
	p->owner_frees = !hold;
	p->held = hold;
	p->member = c->member;
	p->topo = t;
	p->req = q;
	atomic_init(&p->err, 0);
	p->x = *x;
	p->x.a = (struct shl_arrival){ .req = q };
	if (hold) {
		arrays_copy(&p->x, p->types, t);
		shl_coll_hold(&p->x);
	}
	return p;
}

/* ---- across nodes ---- */

/* A call's sends and receives on an off-node communicator, until all are done. */
struct offop {
	struct offop *next;           /* the owner's list (owner thread, rank locked) */
	struct shl_req *req;
	struct shl_cargs x;
	bool held;
	int n;
	struct shl_req *sub[];        /* then, held, the arrays of its own (arrays_copy) */
};

/* By world rank: the rank's unfinished off-node calls (each entry the rank's own, under
 * its rank lock); the table is made by the first call (release, read with acquire). */
static struct offop **_Atomic offq;
static pthread_mutex_t offq_lock = PTHREAD_MUTEX_INITIALIZER;

/* The rank's view of `c` on the internal context. */
static struct shl_comm *icomm(struct shl_coll_neigh *st, struct shl_comm *c)
{
	struct shl_comm *ic = st->icomm[c->member];

	if (ic != NULL)
		return ic;
	if ((ic = malloc(sizeof(*ic))) == NULL)
		return NULL;
	*ic = *c;
	ic->predef = SHL_COMM_NOT_PREDEF;
	ic->context = c->context | SHL_CTX_INTERNAL;
	ic->attrs = NULL;
	ic->info = NULL;
	atomic_init(&ic->refs, 1);
	st->icomm[c->member] = ic;
	return ic;
}

/* Call k's tag for the block the sender numbers i (0 on a graph). */
static int off_tag(uint64_t k, const struct shl_topo *t, int i)
{
	return (int)(3u << 29 | (uint32_t)(k & 0x7fffff) << 6 | (is_cart(t) ? (uint32_t)i & 63 : 0));
}

static bool off_done(struct offop *o)
{
	for (int l = 0; l < o->n; l++)
		if (!shl_req_done(o->sub[l]))
			return false;
	return true;
}

/* Owner, rank locked: release `o`'s requests, completing o->req with their first error. */
static void off_finish(struct shl_rank *r, struct offop *o)
{
	int err = 0;

	for (int l = 0; l < o->n; l++) {
		struct shl_req *s = o->sub[l];
		if (err == 0 && s->status.MPI_ERROR != MPI_SUCCESS)
			err = s->status.MPI_ERROR;
		if (err == 0 && s->kind == SHL_REQ_RECV &&
		    (size_t)s->status.shl_bytes != (size_t)s->count * s->type->size)
			err = MPI_ERR_COUNT;
		s->type = NULL;
		shl_req_release(r, s);
	}
	o->req->status.MPI_ERROR = err;
	if (o->held)
		shl_coll_drop_holds(&o->x.a);
	struct shl_req *q = o->req;
	free(o);
	shl_req_complete(q);
}

void shl_coll_neigh_progress(struct shl_rank *r)
{
	struct offop **q = atomic_load_explicit(&offq, memory_order_acquire), **l, *o;

	if (q == NULL || q[r->world_rank] == NULL)
		return;
	for (l = &q[r->world_rank]; (o = *l) != NULL;) {
		if (off_done(o)) {
			*l = o->next;
			off_finish(r, o);
		} else {
			l = &o->next;
		}
	}
}

static struct shl_req *off_post(struct shl_rank *r, struct shl_comm *ic, const char *fn,
				enum shl_req_kind kind, struct shl_coll_blk b, int peer, int tag)
{
	struct shl_req *q = shl_req_new(r, kind);

	if (q == NULL)
		shl_panic(fn, ENOMEM, "no request for a neighbourhood message");
	shl_p2p_fill(q, ic, b.p, b.count, b.t, peer, tag, SHL_MODE_STANDARD);
	if (shl_p2p_start(r, q) < 0)
		shl_panic(fn, ENOMEM, "no memory for a neighbourhood message");
	return q;
}

/* Owner thread, rank unlocked: start call k of `x` on off-node `c`, completing `q`.
 * Returns 0 or MPI_ERR_NO_MEM. */
static int off_start(struct shl_rank *r, struct shl_comm *c, struct shl_coll_neigh *st,
		     const struct shl_cargs *x, struct shl_req *q, uint64_t k, bool hold)
{
	const struct shl_topo *t = c->topo;
	struct shl_comm *ic = icomm(st, c);
	int n = t->indegree + t->outdegree;
	size_t extra = hold ? arrays_size(x, t) : 0;
	struct offop *o = malloc(sizeof(*o) + (size_t)n * sizeof(o->sub[0]) + extra);

	if (ic == NULL || o == NULL) {
		free(o);
		return MPI_ERR_NO_MEM;
	}
	struct offop **tab = atomic_load_explicit(&offq, memory_order_acquire);
	if (tab == NULL) {
		pthread_mutex_lock(&offq_lock);
		if ((tab = atomic_load_explicit(&offq, memory_order_relaxed)) == NULL) {
			tab = calloc((size_t)shl_job.size, sizeof(*tab));
			atomic_store_explicit(&offq, tab, memory_order_release);
		}
		pthread_mutex_unlock(&offq_lock);
		if (tab == NULL) {
			free(o);
			return MPI_ERR_NO_MEM;
		}
	}
	o->req = q;
	o->x = *x;
	o->held = hold;
	o->n = 0;
	if (hold) {
		arrays_copy(&o->x, o->sub + n, t);
		shl_coll_hold(&o->x);
	}
	shl_rank_lock(r);
	/* Receives first: a message from a neighbour that arrives meanwhile meets them. */
	for (int j = 0; j < t->indegree; j++)
		if (t->sources[j] != MPI_PROC_NULL)
			o->sub[o->n++] = off_post(r, ic, x->fn, SHL_REQ_RECV,
						  shl_coll_rblock(&o->x, j), t->sources[j],
						  off_tag(k, t, j ^ 1));
	for (int i = 0; i < t->outdegree; i++)
		if (t->destinations[i] != MPI_PROC_NULL)
			o->sub[o->n++] = off_post(r, ic, x->fn, SHL_REQ_SEND, send_block(&o->x, i),
						  t->destinations[i], off_tag(k, t, i));
	o->next = tab[r->world_rank];
	tab[r->world_rank] = o;
	shl_progress(r);
	shl_rank_unlock(r);
	return 0;
}

/* ---- the call path ---- */

/* Owner thread, rank unlocked: start call `x` on `c` as its next collective, completing
 * `q`; `hold`: the call returns before it is done. Blocking on a node: *pp gets the post
 * (its owner frees it). Returns 0 or an error class; *k the call's number. */
static int start(struct shl_rank *r, struct shl_comm *c, const struct shl_cargs *x,
		 struct shl_req *q, bool hold, struct post **pp, uint64_t *k)
{
	struct shl_coll_neigh *st = state(c->sh);

	if (st == NULL)
		return MPI_ERR_NO_MEM;
	*k = shl_coll_next(c, x->fn, SHL_COLL_MEET);
	if (c->sh->offnode)
		return off_start(r, c, st, x, q, *k, hold);
	struct post *p = post_new(c, x, q, hold);
	if (p == NULL)
		return MPI_ERR_NO_MEM;
	if (pp != NULL)
		*pp = p;
	int err = arrive(st, p, *k);
	if (err != 0) {
		if (hold)
			shl_coll_drop_holds(&p->x.a);
		free(p);
		if (pp != NULL)
			*pp = NULL;
	}
	return err;
}

int shl_coll_neigh_restart(struct shl_rank *r, struct shl_req *q)
{
	uint64_t k;
	int err;

	atomic_store_explicit(&q->done, 0, memory_order_relaxed);
	shl_status_empty(&q->status, MPI_ANY_SOURCE);
	q->active = true;
	err = start(r, q->comm, q->cargs, q, true, NULL, &k);
	if (err != 0)
		q->active = false;
	return err;
}

/* The report of a blocking call's failed edge, naming both ranks. */
static int report(struct shl_comm *c, const char *fn, const struct post *p, int err)
{
	int me = c->rank;
	int s = p->bad_sender ? me : p->bad_peer, d = p->bad_sender ? p->bad_peer : me;

	if (err == MPI_ERR_TRUNCATE || err == MPI_ERR_COUNT)
		return shl_err(c, err, fn, "rank %d sends %zu bytes in its send block %d to rank "
			       "%d, whose receive block %d from it takes %zu bytes: the neighbours' "
			       "counts or datatypes do not match", s, p->bad_sbytes, p->bad_sblk, d,
			       p->bad_rblk, p->bad_rbytes);
	if (err == MPI_ERR_TOPOLOGY)
		return shl_err(c, err, fn, "ranks %d and %d do not list each other as neighbours "
			       "(a source without its destination, or the other way round)", s, d);
	return shl_coll_fail(c, fn, err);
}

/* Owner thread, rank unlocked: blocking call `x` on `c`. */
static int blocking(struct shl_rank *r, struct shl_comm *c, const char *fn,
		    const struct shl_cargs *x)
{
	bool off = c->sh->offnode;
	struct post *p = NULL;
	uint64_t k;

	shl_rank_lock(r);
	struct shl_req *q = shl_req_new(r, SHL_REQ_DONE);
	shl_rank_unlock(r);
	if (q == NULL)
		return shl_coll_fail(c, fn, MPI_ERR_NO_MEM);
	int err = start(r, c, x, q, off, &p, &k);
	if (err != 0) {
		shl_rank_lock(r);
		shl_req_release(r, q);
		shl_rank_unlock(r);
		return shl_coll_fail(c, fn, err);
	}
	shl_rank_lock(r);
	for (bool poll = true; !shl_wait_once(r, shl_req_done, q, SHL_COLL_CHECK_NS, poll);
	     poll = false) {
		if (shl_coll_check(c, k) == 0 || off)
			continue;  /* off the node, the other nodes' ranks answer every message */
		/* Another member's call k is no neighbourhood collective: give the post up; a
		 * neighbour that moves an edge of it later frees it. */
		struct shl_coll_neigh *st = atomic_load(&c->sh->neigh);
		pthread_mutex_lock(&st->lock);
		bool gone = shl_req_done(q);
		if (!gone) {
			p->abandoned = true;
			unlist(st, p);
		}
		pthread_mutex_unlock(&st->lock);
		if (gone)
			break;
		shl_rank_unlock(r);
		return shl_coll_fail(c, fn, MPI_ERR_NOT_SAME);
	}
	err = q->status.MPI_ERROR;
	shl_req_release(r, q);
	shl_rank_unlock(r);
	if (err != 0 && p != NULL)
		err = report(c, fn, p, err);
	else if (err != 0)
		err = shl_coll_fail(c, fn, err);
	free(p);
	return err;
}

/* A persistent request holding a copy of `x` with arrays of its own, types held. */
static int persistent(struct shl_rank *r, struct shl_comm *c, const char *fn,
		      const struct shl_cargs *x, MPI_Request *request)
{
	struct shl_cargs *h = malloc(sizeof(*h) + arrays_size(x, c->topo));

	if (h == NULL)
		return shl_coll_fail(c, fn, MPI_ERR_NO_MEM);
	*h = *x;
	h->a = (struct shl_arrival){ 0 };
	arrays_copy(h, h + 1, c->topo);
	h->root &= ~INT_COUNTS;  /* its counts are its own now */
	shl_rank_lock(r);
	struct shl_req *q = shl_req_new(r, SHL_REQ_DONE);
	shl_rank_unlock(r);
	if (q == NULL) {
		free(h);
		return shl_coll_fail(c, fn, MPI_ERR_NO_MEM);
	}
	shl_coll_hold(h);
	q->comm = shl_comm_hold(c);
	q->holds_comm = true;
	q->persistent = true;
	q->run = shl_coll_neigh_run;
	q->cargs = h;
	*request = q;
	return MPI_SUCCESS;
}

/* The arguments of one side (`what` "send" or "recv") of n blocks. */
static int check_side(struct shl_comm *c, const char *fn, const char *what, int n,
		      const struct shl_cargs *x, const void *buf, enum shl_coll_vec vec,
		      MPI_Count count, MPI_Datatype type, const void *counts, const void *displs,
		      const MPI_Datatype *types)
{
	char name[16];
	int err;

	snprintf(name, sizeof(name), "%sbuf", what);
	if (vec == SHL_VEC_NONE)  /* the buffer is read only where there are blocks */
		return (err = shl_check_count(c, fn, what, count, type)) ? err
		       : shl_coll_check_buf(c, fn, name, buf, n > 0 ? count : 0, type);
	if (vec == SHL_VEC_W && n > 0 && types == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "%stypes is NULL", what);
	if ((err = shl_coll_check_vec(c, fn, what, n, x, counts, displs,
				      vec == SHL_VEC_W ? types : NULL, type)))
		return err;
	return shl_coll_check_buf(c, fn, name, buf, 0, type);
}

/* The call once its counts are as `x` says (widened for an int …w). */
static int run(struct shl_rank *r, struct shl_comm *c, const char *fn,
	       const struct shl_cargs *x, MPI_Request *request, enum shl_coll_mode mode)
{
	const struct shl_topo *t = c->topo;
	int err;

	if ((err = check_side(c, fn, "send", t->outdegree, x, x->sbuf, x->svec, x->scount,
			      x->stype, x->scounts, x->sdispls, x->stypes)) ||
	    (err = check_side(c, fn, "recv", t->indegree, x, x->rbuf, x->rvec, x->rcount,
			      x->rtype, x->rcounts, x->rdispls, x->rtypes)) ||
	    (err = shl_coll_check_rlayout(c, fn, x, t->indegree)))
		return err;
	if (mode == SHL_COLL_BLOCKING)
		return blocking(r, c, fn, x);
	if (mode == SHL_COLL_PERSISTENT)
		return persistent(r, c, fn, x, request);
	shl_rank_lock(r);
	struct shl_req *q = shl_req_new(r, SHL_REQ_DONE);
	shl_rank_unlock(r);
	if (q == NULL)
		return shl_coll_fail(c, fn, MPI_ERR_NO_MEM);
	q->comm = shl_comm_hold(c);
	q->holds_comm = true;
	uint64_t k;
	err = start(r, c, x, q, true, NULL, &k);
	if (err != 0) {
		shl_rank_lock(r);
		shl_req_release(r, q);
		shl_rank_unlock(r);
		return shl_coll_fail(c, fn, err);
	}
	*request = q;
	return MPI_SUCCESS;
}

int shl_coll_neighbor(const char *fn, bool allgather, enum shl_coll_vec vec, bool wide,
		      const void *sbuf, MPI_Count scount, const void *scounts,
		      const void *sdispls, MPI_Datatype stype, const MPI_Datatype *stypes,
		      void *rbuf, MPI_Count rcount, const void *rcounts, const void *rdispls,
		      MPI_Datatype rtype, const MPI_Datatype *rtypes, MPI_Comm comm,
		      MPI_Request *request, enum shl_coll_mode mode)
{
	bool nb = mode != SHL_COLL_BLOCKING;
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_coll_comm(fn, r, comm, nb, request, &c);

	if (err != MPI_SUCCESS)
		return err;
	const struct shl_topo *t = c->topo;
	if (t == NULL || c->inter)
		return shl_err(c, MPI_ERR_TOPOLOGY, fn, "the communicator has no process topology "
			       "(neighborhood collectives need one of MPI_Cart_create, "
			       "MPI_Graph_create or MPI_Dist_graph_create(_adjacent))");
	struct shl_cargs x = { .sbuf = sbuf, .rbuf = rbuf, .scount = scount, .rcount = rcount,
			       .stype = stype, .rtype = rtype, .scounts = scounts,
			       .sdispls = sdispls, .rcounts = rcounts, .rdispls = rdispls,
			       .stypes = stypes, .rtypes = rtypes,
			       .svec = allgather ? SHL_VEC_NONE : vec, .rvec = vec,
			       .wide = wide, .keep_s = true, .keep_r = true,
			       .root = allgather ? ONE_SBLOCK : 0, .fn = fn };
	if (vec != SHL_VEC_W || wide)
		return run(r, c, fn, &x, request, mode);
	/* MPI_Neighbor_alltoallw: int counts, MPI_Aint displacements. */
	int no = t->outdegree, ni = t->indegree;
	if ((no > 0 && scounts == NULL) || (ni > 0 && rcounts == NULL))
		return shl_err(c, MPI_ERR_ARG, fn, "%s is NULL", no > 0 && scounts == NULL ?
			       "sendcounts" : "recvcounts");
	MPI_Count few[32], *n = few;
	if (no + ni > 32 && (n = malloc((size_t)(no + ni) * sizeof(*n))) == NULL)
		return shl_coll_fail(c, fn, MPI_ERR_NO_MEM);
	for (int i = 0; i < no; i++)
		n[i] = ((const int *)scounts)[i];
	for (int j = 0; j < ni; j++)
		n[no + j] = ((const int *)rcounts)[j];
	x.scounts = n;
	x.rcounts = n + no;
	x.wide = true;
	x.root |= INT_COUNTS;
	err = run(r, c, fn, &x, request, mode);
	if (n != few)
		free(n);
	return err;
}
