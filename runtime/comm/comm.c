/* Communicators: shared objects, context ids, the meeting where members build them, and
 * every MPI_Comm_* / MPI_Intercomm_* constructor, destructor and query. Entered by rank
 * threads (several per rank under MPI_THREAD_MULTIPLE). Never blocks except in shl_wait
 * (and Intercomm_create's leaders in point-to-point); never writes another rank's live objects.
 *
 * Creation: every member joins a meeting on the parent's shared object (shl_comm_meet),
 * keyed by the collective's number on the parent; the last to arrive agrees on context ids
 * (shl_ctx_agree), builds the children's shared objects and hands each member its place,
 * then completes every member's request. Blocking calls wait on a stack request, so a
 * waiting rank sleeps on its futex like any other wait; MPI_Comm_idup just does not wait. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/coll/net.h"

/* Process-wide: context ids and MPI_COMM_WORLD's shared object. */
static struct {
	pthread_mutex_t lock;            /* guards `next` and `bits` */
	uint32_t next;                   /* where the search starts: a freed id returns late */
	uint64_t bits[SHL_CTX_MAX / 64]; /* bit i set: context id i in use */
	struct shl_comm_shared *world;   /* written by shl_comm_job_init before ranks run */
} comms = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* ---- context ids ---- */

static void ctx_mark(uint32_t id)
{
	comms.bits[id / 64] |= 1ull << (id % 64);
}

int shl_ctx_agree(uint32_t *ctx)
{
	int rc = -ENOSPC;

	/* The node's members only: the node-wide bitmap is the whole agreement. Across
	 * nodes, the leaders agree on an id free on every node (coll/net.c). */
	pthread_mutex_lock(&comms.lock);
	for (uint32_t i = 0; i < SHL_CTX_MAX; i++) {
		uint32_t id = (comms.next + i) % SHL_CTX_MAX;
		if (comms.bits[id / 64] & (1ull << (id % 64)))
			continue;
		ctx_mark(id);
		comms.next = (id + 1) % SHL_CTX_MAX;
		*ctx = id;
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&comms.lock);
	return rc;
}

static void ctx_release(uint32_t id)
{
	pthread_mutex_lock(&comms.lock);
	comms.bits[id / 64] &= ~(1ull << (id % 64));
	pthread_mutex_unlock(&comms.lock);
}

uint32_t shl_ctx_lowest_free(void)
{
	uint32_t id = SHL_CTX_MAX;

	pthread_mutex_lock(&comms.lock);
	for (uint32_t w = 0; w < SHL_CTX_MAX / 64 && id == SHL_CTX_MAX; w++)
		if (~comms.bits[w] != 0)
			id = w * 64 + (uint32_t)__builtin_ctzll(~comms.bits[w]);
	pthread_mutex_unlock(&comms.lock);
	return id;
}

bool shl_ctx_in_use(uint32_t id)
{
	bool used;

	pthread_mutex_lock(&comms.lock);
	used = id < SHL_CTX_MAX && (comms.bits[id / 64] & (1ull << (id % 64)));
	pthread_mutex_unlock(&comms.lock);
	return used;
}

void shl_ctx_reserve(uint32_t base, uint64_t mask[4])
{
	pthread_mutex_lock(&comms.lock);
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t id = base + i;
		if (id < SHL_CTX_MAX && !(comms.bits[id / 64] & (1ull << (id % 64)))) {
			ctx_mark(id);
			mask[i / 64] |= 1ull << (i % 64);
		}
	}
	pthread_mutex_unlock(&comms.lock);
}

void shl_ctx_unmark(uint32_t id)
{
	ctx_release(id);
}

/* ---- shared objects ---- */

/* A shared object for groups of n0 and n1 members (n1 > 0 only for an intercommunicator),
 * world[] unfilled, one reference per member, no context yet. */
static struct shl_comm_shared *shared_new(int n0, int n1, bool inter)
{
	int n = n0 + n1;
	size_t bytes = sizeof(struct shl_comm_shared);
	struct shl_comm_shared *sh = aligned_alloc(64, (bytes + 63) / 64 * 64);

	if (sh == NULL)
		return NULL;
	memset(sh, 0, bytes);
	sh->world = malloc((size_t)(n ? n : 1) * sizeof(int));
	size_t hist = (size_t)(n ? n : 1) * SHL_COLL_HIST * sizeof(sh->hist[0]);
	sh->hist = aligned_alloc(64, hist);
	if (sh->world == NULL || sh->hist == NULL) {
		free(sh->world);
		free(sh->hist);
		free(sh);
		return NULL;
	}
	memset(sh->hist, 0, hist);  /* entry 0 names no call: collectives are numbered from 1 */
	sh->inter = inter;
	sh->nmembers = n;
	sh->gsize[0] = n0;
	sh->gsize[1] = n1;
	atomic_init(&sh->refs, n);
	pthread_mutex_init(&sh->lock, NULL);
	return sh;
}

static void shared_free(struct shl_comm_shared *sh)
{
	for (int k = 0; k < SHL_RING_KINDS; k++)
		shl_coll_ring_free(sh->ring[k]);
	shl_coll_net_free(sh);
	pthread_mutex_destroy(&sh->lock);
	free(sh->hist);
	free(sh->world);
	free(sh);
}

/* A shared object with a fresh context id, or NULL; *err says why. */
static struct shl_comm_shared *shared_make(int n0, int n1, bool inter, int *err)
{
	struct shl_comm_shared *sh = shared_new(n0, n1, inter);

	if (sh == NULL) {
		*err = MPI_ERR_NO_MEM;
		return NULL;
	}
	if (shl_ctx_agree(&sh->context) < 0) {
		shared_free(sh);
		*err = MPI_ERR_OTHER;  /* every context id is in use */
		return NULL;
	}
	return sh;
}

struct shl_comm_shared *shl_comm_shared_for(int n, uint32_t ctx, int refs)
{
	struct shl_comm_shared *sh = shared_new(n, 0, false);

	if (sh != NULL) {
		sh->context = ctx;
		atomic_store(&sh->refs, refs);
	}
	return sh;
}

static void shared_drop(struct shl_comm_shared *sh)
{
	/* acq_rel: the last member out sees every other member's use of the object. */
	if (atomic_fetch_sub_explicit(&sh->refs, 1, memory_order_acq_rel) != 1)
		return;
	ctx_release(sh->context);
	shared_free(sh);
}

int shl_comm_job_init(int size)
{
	struct shl_comm_shared *w = shared_new(size, 0, false);

	if (w == NULL)
		return -ENOMEM;
	w->context = SHL_CTX_WORLD;
	for (int i = 0; i < size; i++)
		w->world[i] = i;
	ctx_mark(SHL_CTX_WORLD);
	ctx_mark(SHL_CTX_SELF);
	comms.world = w;
	for (int i = 0; i < size; i++) {
		struct shl_rank *r = shl_job.ranks[i];
		struct shl_comm_shared *s;

		if (r == NULL) {  /* a rank of another node */
			w->offnode = true;
			continue;
		}
		s = shared_new(1, 0, false);
		r->objs = calloc(1, sizeof(*r->objs));
		if (s == NULL || r->objs == NULL)
			return -ENOMEM;
		s->context = SHL_CTX_SELF;
		s->world[0] = i;
		/* Marked like their sentinels, so shl_comm_handle gives those back. */
		r->world.predef = SHL_COMM_IS_WORLD;
		r->self.predef = SHL_COMM_IS_SELF;
		r->world.sh = w;
		r->world.member = i;
		r->self.sh = s;
		r->self.member = 0;
		r->objs->universe_size = size;
		r->objs->last_used_code = MPI_ERR_LASTCODE;
	}
	return 0;
}

void shl_comm_finalize(struct shl_rank *r)
{
	shl_attr_delete_all(r, &r->self);
	shl_attr_delete_all(r, &r->world);
	shl_attr_finalize_types(r);
}

/* ---- meetings ---- */

int shl_comm_meet(struct shl_comm_shared *sh, uint64_t key, int n, int member, shl_meet_fn *fn,
		  struct shl_arrival *a)
{
	struct shl_meeting **link, *m;
	bool last;

	a->err = MPI_SUCCESS;
	pthread_mutex_lock(&sh->lock);
	if (atomic_load_explicit(&sh->broken, memory_order_relaxed) && !(key >> 63)) {
		/* Its members' collectives are out of step (shl_coll_check): fail at once. */
		pthread_mutex_unlock(&sh->lock);
		a->err = MPI_ERR_NOT_SAME;
		if (a->heap && a->drop != NULL)
			a->drop(a);
		a->req->status.MPI_ERROR = MPI_ERR_NOT_SAME;
		struct shl_req *q = a->req;
		if (a->heap)
			free(a);
		shl_req_complete(q);
		return 0;
	}
	for (link = &sh->meetings; (m = *link) != NULL; link = &m->next)
		if (m->key == key)
			break;
	if (m == NULL) {
		m = calloc(1, sizeof(*m) + (size_t)n * sizeof(m->arrival[0]));
		if (m == NULL) {
			pthread_mutex_unlock(&sh->lock);
			return -ENOMEM;
		}
		*m = (struct shl_meeting){ .key = key, .fn = fn, .n = n, .sh = sh,
					   .next = sh->meetings };
		sh->meetings = m;
		link = &sh->meetings;
	}
	/* Different operations, sizes or a member twice: the calls do not match. */
	if (m->fn != fn || m->n != n || member < 0 || member >= m->n || m->arrival[member]) {
		m->mismatch = true;
		for (member = 0; member < m->n && m->arrival[member] != NULL; member++)
			;
	}
	m->arrival[member] = a;
	last = ++m->arrived == m->n;
	if (last)
		*link = m->next;
	pthread_mutex_unlock(&sh->lock);
	if (!last)
		return 0;
	/* Everyone's contribution was published before their unlock of sh->lock. */
	if (m->mismatch)
		for (int i = 0; i < m->n; i++)
			m->arrival[i]->err = MPI_ERR_NOT_SAME;
	else
		m->fn(m);
	shl_coll_share_run(m);
	for (int i = 0; i < m->n; i++) {
		struct shl_arrival *x = m->arrival[i];
		struct shl_req *q = x->req;
		bool heap = x->heap;
		if (heap && x->drop != NULL)
			x->drop(x);
		if (x->err != MPI_SUCCESS)
			q->status.MPI_ERROR = x->err;
		/* The member may return (and its arrival vanish) once this completes. */
		shl_req_complete(q);
		if (heap)
			free(x);
	}
	free(m);
	return 0;
}

int shl_comm_meet_wait(struct shl_rank *r, struct shl_comm_shared *sh, uint64_t key, int n,
		       int member, shl_meet_fn *fn, const void *in, void *out)
{
	struct shl_req q = { .magic = SHL_REQ_MAGIC, .kind = SHL_REQ_DONE, .owner = r };
	struct shl_arrival a = { .req = &q, .in = in, .out = out };

	if (shl_comm_meet(sh, key, n, member, fn, &a) < 0)
		return MPI_ERR_NO_MEM;
	shl_rank_lock(r);
	shl_wait(r, shl_req_done, &q);
	shl_rank_unlock(r);
	return a.err;
}

/* Join the next collective of `c` (all members), call `name`, and wait for it, checking
 * now and then that every member called something that meets (shl_coll_check). */
static int meet_all(struct shl_rank *r, struct shl_comm *c, const char *name, shl_meet_fn *fn,
		    const void *in, void *out)
{
	struct shl_req q = { .magic = SHL_REQ_MAGIC, .kind = SHL_REQ_DONE, .owner = r };
	struct shl_arrival a = { .req = &q, .in = in, .out = out };
	uint64_t k = shl_coll_next(c, name, SHL_COLL_MEET);

	if (shl_comm_meet(c->sh, k, c->sh->nmembers, c->member, fn, &a) < 0)
		return MPI_ERR_NO_MEM;
	shl_coll_wait_checked(r, c, k, &q);
	return a.err;
}

/* ---- per-rank objects ---- */

void shl_comm_view(struct shl_comm *c, struct shl_comm_shared *sh, int member)
{
	int side = sh->inter && member >= sh->gsize[0];
	int base = side ? sh->gsize[0] : 0;

	c->context = sh->context;
	c->sh = sh;
	c->member = member;
	c->rank = member - base;
	c->size = sh->gsize[side];
	c->world = sh->world + base;
	c->inter = sh->inter;
	if (sh->inter) {
		c->remote_size = sh->gsize[!side];
		c->remote_world = sh->world + (side ? 0 : sh->gsize[0]);
	}
}

/* A rank's new object inheriting `parent`'s error handler; not yet a view. */
static struct shl_comm *comm_alloc(struct shl_comm *parent)
{
	struct shl_comm *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->magic = SHL_COMM_MAGIC;
	atomic_init(&c->refs, 1);
	c->errh = parent->errh;
	shl_errh_hold(c->errh);
	return c;
}

void shl_comm_free_dropped(struct shl_comm *c)
{
	shl_errh_drop(c->errh);
	shl_info_free(c->info);
	if (c->sh != NULL)
		shared_drop(c->sh);
	free(c);
}

/* Undo comm_alloc (and view), or free the user's handle: the caller has deleted the
 * attributes. The handle is invalid at once; the object lives on while requests hold it. */
static void comm_release(struct shl_comm *c)
{
	c->magic = 0;
	shl_comm_drop(c);
}

/* What the last arriver hands a member: its place in a new shared object, or none. */
struct made {
	struct shl_comm_shared *sh;   /* NULL: the member gets MPI_COMM_NULL */
	int member;
};

/* Turn `made` into the rank's new communicator (or MPI_COMM_NULL). */
static int adopt(struct shl_comm *parent, const struct made *md, MPI_Comm *newcomm,
		 const char *fn)
{
	struct shl_comm *c;

	*newcomm = MPI_COMM_NULL;
	if (md->sh == NULL)
		return MPI_SUCCESS;
	c = comm_alloc(parent);
	if (c == NULL) {
		shared_drop(md->sh);
		return shl_err(parent, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	shl_comm_view(c, md->sh, md->member);
	*newcomm = c;
	return MPI_SUCCESS;
}

static int get_comm(const char *fn, struct shl_rank *r, MPI_Comm comm, struct shl_comm **c)
{
	*c = shl_comm_get(r, comm);
	if (*c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm%s",
			       comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
	return MPI_SUCCESS;
}

static int get_intra(const char *fn, struct shl_rank *r, MPI_Comm comm, struct shl_comm **c)
{
	int err = get_comm(fn, r, comm, c);

	if (err == MPI_SUCCESS && (*c)->inter)
		return shl_err(*c, MPI_ERR_COMM, fn, "comm is an intercommunicator");
	return err;
}

/* ---- dup ---- */

static void dup_run(struct shl_meeting *m)
{
	struct shl_comm_shared *p = m->sh;
	int err = MPI_SUCCESS;
	struct shl_comm_shared *sh = shared_make(p->gsize[0], p->gsize[1], p->inter, &err);

	if (sh != NULL)
		memcpy(sh->world, p->world, (size_t)p->nmembers * sizeof(int));
	for (int i = 0; i < m->n; i++) {
		/* The member's new object is not visible to its user until completion. */
		if (sh != NULL)
			shl_comm_view(m->arrival[i]->out, sh, i);
		else
			m->arrival[i]->err = err;
	}
}

/* MPI_Comm_dup and friends: `info` is the new hints (NULL: the parent's); with `request`,
 * return once this rank has joined. */
static int dup(const char *fn, MPI_Comm comm, MPI_Info info, bool with_info, MPI_Comm *newcomm,
	       MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p, *c;
	struct shl_info *hints = NULL;
	int err = get_comm(fn, r, comm, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, fn)) != MPI_SUCCESS)
		return err;
	if (newcomm == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "newcomm is NULL");
	if (with_info && info != MPI_INFO_NULL && (hints = shl_info_get(r, info)) == NULL)
		return shl_err(p, MPI_ERR_INFO, fn, "invalid info argument");
	c = comm_alloc(p);
	if (c == NULL)
		return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
	if (with_info ? hints != NULL : p->info != NULL) {
		c->info = shl_info_dup(with_info ? hints : p->info);
		if (c->info == NULL) {
			comm_release(c);
			return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
		}
	}
	err = shl_attr_copy(r, p, c);
	if (err != MPI_SUCCESS) {
		shl_attr_delete_all(r, c);
		comm_release(c);
		return shl_err(p, err, fn, "an attribute copy callback failed");
	}
	/* Across nodes, a split of one color in member order; of an intercommunicator, the
	 * same two groups. */
	int key = p->inter ? p->member : p->rank, g0 = p->inter ? p->sh->gsize[0] : 0;
	if (request == NULL) {
		struct shl_net_made nm = { .view = c, .gsize0 = g0 };
		err = p->sh->offnode ? shl_comm_net_split(r, p, 0, key, &nm, NULL)
				     : meet_all(r, p, fn, dup_run, NULL, c);
		if (err != MPI_SUCCESS) {
			shl_attr_delete_all(r, c);
			comm_release(c);
			return shl_err(p, err, fn, "the members could not create the communicator");
		}
		*newcomm = c;
		return MPI_SUCCESS;
	}
	/* Nonblocking: the arrival outlives this call; the meeting frees it. */
	struct shl_arrival *a = calloc(1, sizeof(*a));
	struct shl_req *q = NULL;
	if (a != NULL) {
		shl_rank_lock(r);
		q = shl_req_new(r, SHL_REQ_DONE);
		shl_rank_unlock(r);
	}
	if (q != NULL) {
		q->comm = shl_comm_hold(p);
		q->holds_comm = true;
		*a = (struct shl_arrival){ .req = q, .out = c, .heap = true };
		struct shl_net_made nm = { .view = c, .gsize0 = g0 };
		if (p->sh->offnode ? shl_comm_net_split(r, p, 0, key, &nm, q) == 0
				   : shl_comm_meet(p->sh, shl_coll_next(p, fn, SHL_COLL_MEET),
						   p->sh->nmembers, p->member, dup_run, a) == 0) {
			if (p->sh->offnode)
				free(a);
			*newcomm = c;
			*request = q;
			return MPI_SUCCESS;
		}
		shl_rank_lock(r);
		shl_req_release(r, q);
		shl_rank_unlock(r);
	}
	/* Out of memory before the meeting saw this rank. */
	free(a);
	shl_attr_delete_all(r, c);
	comm_release(c);
	return shl_err(p, MPI_ERR_NO_MEM, fn, "out of memory");
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	return dup("MPI_Comm_dup", comm, MPI_INFO_NULL, false, newcomm, NULL);
}
SHL_WEAK_ALIAS(Comm_dup);

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	return dup("MPI_Comm_dup_with_info", comm, info, true, newcomm, NULL);
}
SHL_WEAK_ALIAS(Comm_dup_with_info);

/* MPI_Comm_idup's request is NULL: raised on comm, as the collectives' (shl_coll_comm). */
static int no_request(const char *fn, MPI_Comm comm)
{
	return shl_err(shl_comm_get(shl_rank_or_die(fn), comm), MPI_ERR_REQUEST, fn,
		       "request is NULL");
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	if (request == NULL)
		return no_request("MPI_Comm_idup", comm);
	return dup("MPI_Comm_idup", comm, MPI_INFO_NULL, false, newcomm, request);
}
SHL_WEAK_ALIAS(Comm_idup);

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
			     MPI_Request *request)
{
	if (request == NULL)
		return no_request("MPI_Comm_idup_with_info", comm);
	return dup("MPI_Comm_idup_with_info", comm, info, true, newcomm, request);
}
SHL_WEAK_ALIAS(Comm_idup_with_info);

/* ---- split ---- */

struct split_in {
	int color, key;
	int type;                     /* MPI_Comm_split_type's split_type, -1 for MPI_Comm_split */
};

struct split_entry {
	int color, side, key, member;
};

static int split_cmp(const void *x, const void *y)
{
	const struct split_entry *a = x, *b = y;

	if (a->color != b->color)
		return a->color < b->color ? -1 : 1;
	if (a->side != b->side)
		return a->side - b->side;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->member - b->member;
}

/* Members of one color, [e, e + k): a new communicator of them. On an intercommunicator
 * the color must appear on both sides; otherwise its members get MPI_COMM_NULL. */
static void split_color(struct shl_meeting *m, const struct split_entry *e, int k)
{
	int k0 = 0, err = MPI_SUCCESS;
	struct shl_comm_shared *sh;

	while (k0 < k && e[k0].side == 0)
		k0++;
	if (m->sh->inter && (k0 == 0 || k0 == k))
		return;  /* outs stay { NULL } */
	sh = shared_make(k0, k - k0, m->sh->inter, &err);
	for (int j = 0; j < k; j++) {
		struct shl_arrival *a = m->arrival[e[j].member];
		if (sh == NULL) {
			a->err = err;
			continue;
		}
		sh->world[j] = m->sh->world[e[j].member];
		*(struct made *)a->out = (struct made){ sh, j };
	}
}

static void split_run(struct shl_meeting *m)
{
	struct split_entry *e = malloc((size_t)m->n * sizeof(*e));
	int n = 0;

	if (e == NULL) {
		for (int i = 0; i < m->n; i++)
			m->arrival[i]->err = MPI_ERR_NO_MEM;
		return;
	}
	/* MPI 4.1 (7.4.2): every member passes the same split_type, or MPI_UNDEFINED. */
	int type = MPI_UNDEFINED;
	for (int i = 0; i < m->n; i++) {
		int t = ((const struct split_in *)m->arrival[i]->in)->type;
		if (t != MPI_UNDEFINED && type != MPI_UNDEFINED && t != type) {
			for (int j = 0; j < m->n; j++)
				m->arrival[j]->err = MPI_ERR_NOT_SAME;
			free(e);
			return;
		}
		if (t != MPI_UNDEFINED)
			type = t;
	}
	for (int i = 0; i < m->n; i++) {
		const struct split_in *in = m->arrival[i]->in;
		if (in->color != MPI_UNDEFINED)
			e[n++] = (struct split_entry){ in->color, i >= m->sh->gsize[0], in->key, i };
	}
	qsort(e, (size_t)n, sizeof(*e), split_cmp);
	for (int i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && e[j].color == e[i].color; j++)
			;
		split_color(m, e + i, j - i);
	}
	free(e);
}

/* `type`: MPI_Comm_split_type's split_type, which every member must pass alike, or -1. */
static int split(const char *fn, struct shl_rank *r, struct shl_comm *p, int color, int key,
		 int type, MPI_Comm *newcomm)
{
	struct split_in in = { color, key, type };
	struct made md = { NULL, 0 };
	int err;

	if (newcomm == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "newcomm is NULL");
	if (color < 0 && color != MPI_UNDEFINED)
		return shl_err(p, MPI_ERR_ARG, fn, "color %d is negative (and not MPI_UNDEFINED)",
			       color);
	if (p->sh->offnode) {
		struct shl_net_made nm = { .gsize0 = p->inter ? -1 : 0 };
		err = shl_comm_net_split(r, p, color, key, &nm, NULL);
		md = (struct made){ nm.sh, nm.member };
	} else {
		err = meet_all(r, p, fn, split_run, &in, &md);
	}
	if (err == MPI_ERR_NOT_SAME)
		return shl_err(p, err, fn, "the members passed different split_type values");
	if (err != MPI_SUCCESS)
		return shl_err(p, err, fn, "the members could not create the communicators");
	return adopt(p, &md, newcomm, fn);
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_split");
	struct shl_comm *p;
	int err = get_comm("MPI_Comm_split", r, comm, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, "MPI_Comm_split")) != MPI_SUCCESS)
		return err;
	return split("MPI_Comm_split", r, p, color, key, -1, newcomm);
}
SHL_WEAK_ALIAS(Comm_split);

/* Whether `info` asks MPI_COMM_TYPE_HW_GUIDED for a level we have: the node's memory. */
static bool guided_shared(struct shl_rank *r, MPI_Info info)
{
	int flag = 0, len = MPI_MAX_INFO_VAL;
	char value[MPI_MAX_INFO_VAL];

	if (info == MPI_INFO_NULL || shl_info_get(r, info) == NULL)
		return false;
	PMPI_Info_get_string(info, "mpi_hw_resource_type", &len, value, &flag);
	return flag && strcmp(value, "mpi_shared_memory") == 0;
}

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
			 MPI_Comm *newcomm)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_split_type");
	struct shl_comm *p;
	int err = get_intra("MPI_Comm_split_type", r, comm, &p);
	int color;

	if (err != MPI_SUCCESS)
		return err;
	if (info != MPI_INFO_NULL && shl_info_get(r, info) == NULL)
		return shl_err(p, MPI_ERR_INFO, "MPI_Comm_split_type", "invalid info argument");
	if ((err = shl_coll_usable(p, "MPI_Comm_split_type")) != MPI_SUCCESS)
		return err;
	switch (split_type) {
	case MPI_COMM_TYPE_SHARED:
		/* Every rank of a node process shares its memory: the node is the color. */
		color = p->sh->offnode ? shl_coll_net_node_of(r->world_rank) : 0;
		break;
	case MPI_COMM_TYPE_HW_GUIDED:
	case MPI_COMM_TYPE_RESOURCE_GUIDED:
		color = !guided_shared(r, info) ? MPI_UNDEFINED
			: p->sh->offnode ? shl_coll_net_node_of(r->world_rank) : 0;
		break;
	case MPI_COMM_TYPE_HW_UNGUIDED:
		/* No hardware level strictly inside a node process is modelled (MPI 4.1,
		 * 7.4.2 allows MPI_COMM_NULL then). */
	case MPI_UNDEFINED:
		color = MPI_UNDEFINED;
		break;
	default:
		return shl_err(p, MPI_ERR_ARG, "MPI_Comm_split_type",
			       "split_type %d is not a communicator type", split_type);
	}
	return split("MPI_Comm_split_type", r, p, color, key, split_type, newcomm);
}
SHL_WEAK_ALIAS(Comm_split_type);

/* ---- create, create_group ---- */

/* MPI_Comm_create: each member names a subgroup of the parent; members naming the same
 * group, and in it, get a communicator of it. Groups are identified by their first member:
 * MPI requires the groups named to be identical or disjoint. */
/* Whether every member of `g` named a group with `g`'s first member first: members that
 * named the same ranks in different orders ({0,1} and {1,0}) would otherwise each make a
 * communicator that the others never join. */
static bool named_alike(struct shl_meeting *m, const int *index, const struct shl_group *g)
{
	for (int j = 0; j < g->size; j++) {
		const struct shl_group *h = m->arrival[index[g->world[j]]]->in;
		if (h->size == 0 || h->world[0] != g->world[0])
			return false;
	}
	return true;
}

static void create_run(struct shl_meeting *m)
{
	const struct shl_comm_shared *p = m->sh;
	struct shl_comm_shared **made_by = calloc((size_t)m->n, sizeof(*made_by));
	int *index = malloc((size_t)shl_job.size * sizeof(int));   /* world rank -> member */

	if (made_by == NULL || index == NULL) {
		for (int i = 0; i < m->n; i++)
			m->arrival[i]->err = MPI_ERR_NO_MEM;
		goto out;
	}
	for (int i = 0; i < m->n; i++)
		index[p->world[i]] = i;
	for (int i = 0; i < m->n; i++) {
		const struct shl_group *g = m->arrival[i]->in;
		int err = MPI_SUCCESS;
		if (g->size > 0 && g->world[0] == p->world[i]) {
			made_by[i] = shared_make(g->size, 0, false, &err);
			if (made_by[i] != NULL)
				memcpy(made_by[i]->world, g->world, (size_t)g->size * sizeof(int));
		}
		m->arrival[i]->err = err;
	}
	for (int i = 0; i < m->n; i++) {
		struct shl_arrival *a = m->arrival[i];
		const struct shl_group *g = a->in;
		int at = shl_group_find(g, p->world[i]);
		if (at == MPI_UNDEFINED || a->err != MPI_SUCCESS)
			continue;
		int first = index[g->world[0]];
		const struct shl_group *fg = m->arrival[first]->in;
		if (made_by[first] == NULL || fg->size != g->size ||
		    memcmp(fg->world, g->world, (size_t)g->size * sizeof(int)) != 0 ||
		    !named_alike(m, index, g)) {
			a->err = MPI_ERR_GROUP;
			continue;
		}
		*(struct made *)a->out = (struct made){ made_by[first], at };
	}
	/* Groups named but joined by nobody (all their members failed) go back. */
	for (int i = 0; i < m->n; i++) {
		const struct shl_group *g = m->arrival[i]->in;
		if (made_by[i] == NULL)
			continue;
		int joined = 0;
		for (int j = 0; j < g->size; j++) {
			const struct made *md = m->arrival[index[g->world[j]]]->out;
			joined += md->sh == made_by[i];
		}
		for (; joined < g->size; joined++)
			shared_drop(made_by[i]);
	}
out:
	free(made_by);
	free(index);
}

/* Every member of `g` is a member of `c`'s group. */
static bool subgroup(const struct shl_comm *c, const struct shl_group *g)
{
	for (int i = 0; i < g->size; i++) {
		int j;
		for (j = 0; j < c->size && shl_comm_world_rank(c, j) != g->world[i]; j++)
			;
		if (j == c->size)
			return false;
	}
	return true;
}

/* Member i's group: 0, or 1 for the second group of an intercommunicator. */
static int side_of(const struct shl_comm_shared *sh, int i)
{
	return sh->inter && i >= sh->gsize[0];
}

/* MPI_Comm_create on an intercommunicator (MPI 4.1, 7.4.2): every member of a group names
 * the same subgroup of it; the result connects the two subgroups, with MPI_COMM_NULL for
 * members outside theirs, and for everyone when either subgroup is empty. */
static void create_inter_run(struct shl_meeting *m)
{
	const struct shl_comm_shared *p = m->sh;
	const struct shl_group *g[2] = { m->arrival[0]->in, m->arrival[p->gsize[0]]->in };
	struct shl_comm_shared *sh = NULL;
	int err = MPI_SUCCESS;

	for (int i = 0; i < m->n; i++) {
		const struct shl_group *x = m->arrival[i]->in, *y = g[side_of(p, i)];
		if (x->size != y->size || memcmp(x->world, y->world, (size_t)x->size * sizeof(int)))
			err = MPI_ERR_GROUP;
	}
	if (err == MPI_SUCCESS && g[0]->size > 0 && g[1]->size > 0 &&
	    (sh = shared_make(g[0]->size, g[1]->size, true, &err)) != NULL) {
		memcpy(sh->world, g[0]->world, (size_t)g[0]->size * sizeof(int));
		memcpy(sh->world + g[0]->size, g[1]->world, (size_t)g[1]->size * sizeof(int));
	}
	for (int i = 0; i < m->n; i++) {
		int side = side_of(p, i), at = shl_group_find(g[side], p->world[i]);
		m->arrival[i]->err = err;
		/* shared_make counted one reference per member of the two subgroups. */
		if (sh != NULL && at != MPI_UNDEFINED)
			*(struct made *)m->arrival[i]->out =
				(struct made){ sh, (side ? g[0]->size : 0) + at };
	}
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_create");
	struct shl_comm *p;
	struct made md = { NULL, 0 };
	int err = get_comm("MPI_Comm_create", r, comm, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, "MPI_Comm_create")) != MPI_SUCCESS)
		return err;
	if (newcomm == NULL)
		return shl_err(p, MPI_ERR_ARG, "MPI_Comm_create", "newcomm is NULL");
	if (!shl_group_ok(group))
		return shl_err(p, MPI_ERR_GROUP, "MPI_Comm_create", "invalid group argument");
	if (!subgroup(p, group))
		return shl_err(p, MPI_ERR_GROUP, "MPI_Comm_create",
			       "group has a member that is not in comm");
	if (p->sh->offnode) {
		/* Across nodes, a split: the group (named by its first member) is the color,
		 * the place in it the key. Overlapping groups are not detected there. Of an
		 * intercommunicator, one color: each group names a subgroup of its own. */
		int at = shl_group_find(group, r->world_rank);
		if (p->inter)
			return split("MPI_Comm_create", r, p, at == MPI_UNDEFINED ? MPI_UNDEFINED
						       : 0, at, -1, newcomm);
		return split("MPI_Comm_create", r, p, at == MPI_UNDEFINED ? MPI_UNDEFINED
					       : group->world[0], at, -1, newcomm);
	}
	err = meet_all(r, p, "MPI_Comm_create", p->inter ? create_inter_run : create_run, group,
		       &md);
	if (err != MPI_SUCCESS)
		return shl_err(p, err, "MPI_Comm_create", "the members could not agree%s",
			       err != MPI_ERR_GROUP ? ""
			       : p->inter ? " (members of one group named different groups)"
					  : " (groups differ but overlap)");
	return adopt(p, &md, newcomm, "MPI_Comm_create");
}
SHL_WEAK_ALIAS(Comm_create);

/* MPI_Comm_create_group: only the group's members meet; everyone's group must match. */
static void create_group_run(struct shl_meeting *m)
{
	const struct shl_group *g = m->arrival[0]->in;
	int err = MPI_SUCCESS;
	struct shl_comm_shared *sh;

	for (int i = 1; i < m->n; i++) {
		const struct shl_group *h = m->arrival[i]->in;
		if (memcmp(h->world, g->world, (size_t)g->size * sizeof(int)) != 0)
			err = MPI_ERR_NOT_SAME;
	}
	sh = err == MPI_SUCCESS ? shared_make(g->size, 0, false, &err) : NULL;
	if (sh != NULL)
		memcpy(sh->world, g->world, (size_t)g->size * sizeof(int));
	for (int i = 0; i < m->n; i++) {
		m->arrival[i]->err = err;
		*(struct made *)m->arrival[i]->out = (struct made){ sh, i };
	}
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
	const char *fn = "MPI_Comm_create_group";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p;
	struct made md = { NULL, 0 };
	int err = get_intra(fn, r, comm, &p), at;

	if (err != MPI_SUCCESS)
		return err;
	if (newcomm == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "newcomm is NULL");
	if (!shl_group_ok(group))
		return shl_err(p, MPI_ERR_GROUP, fn, "invalid group argument");
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		return shl_err(p, MPI_ERR_TAG, fn, "tag %d is outside 0..%d (MPI_TAG_UB)", tag,
			       MPI_TAG_UB_VALUE);
	at = shl_group_find(group, r->world_rank);
	if (at == MPI_UNDEFINED) {
		*newcomm = MPI_COMM_NULL;  /* MPI 4.1, 7.4.2: callers outside the group */
		return MPI_SUCCESS;
	}
	if (!subgroup(p, group))
		return shl_err(p, MPI_ERR_GROUP, fn, "group has a member that is not in comm");
	if (p->sh->offnode) {
		struct shl_net_made nm = { 0 };
		err = shl_comm_net_create_group(r, p, group, tag, at, &nm);
		md = (struct made){ nm.sh, nm.member };
		if (err != MPI_SUCCESS)
			return shl_err(p, err, fn, "the group's members could not agree");
		return adopt(p, &md, newcomm, fn);
	}
	/* Key: bit 63 (a subset's rendezvous), the tag and the group's first member. */
	uint64_t key = 1ull << 63 | (uint64_t)tag << 32 | (uint32_t)group->world[0];
	err = shl_comm_meet_wait(r, p->sh, key, group->size, at, create_group_run, group, &md);
	if (err != MPI_SUCCESS)
		return shl_err(p, err, fn, "the group's members could not agree%s",
			       err == MPI_ERR_NOT_SAME ? " (their groups differ)" : "");
	return adopt(p, &md, newcomm, fn);
}
SHL_WEAK_ALIAS(Comm_create_group);

/* ---- intercommunicators ---- */

/* What the local leader tells its group: an error, or how the intercommunicator is made:
 * on this node (`sh`, made by the leader of lower world rank), or, when either group spans
 * nodes or the leaders are on different nodes (`net`), as MPI_Comm_create_group of both
 * groups on MPI_COMM_WORLD, whose leaders agree on the context id across nodes. `side` is
 * the local group's place (0: first), `rn` the remote group's size. */
struct ic_in {
	struct shl_comm_shared *sh;
	int side, rn, err;
	bool net;
	int *theirs;                  /* leader only: the remote group's world ranks */
};

/* What ic_run hands each member of an on-node local group. */
struct ic_out {
	struct made md;
	struct ic_in h;               /* theirs not set */
};

/* Hand every member of the local group the leader's result. */
static void ic_run(struct shl_meeting *m)
{
	const struct ic_in *lead = NULL;

	for (int i = 0; i < m->n; i++)
		if (m->arrival[i]->in != NULL)
			lead = m->arrival[i]->in;
	for (int i = 0; i < m->n; i++) {
		struct shl_arrival *a = m->arrival[i];
		struct ic_out *o = a->out;
		if (lead == NULL || lead->err != MPI_SUCCESS) {
			a->err = lead ? lead->err : MPI_ERR_ROOT;
			continue;
		}
		o->h = *lead;
		o->h.theirs = NULL;
		if (!lead->net)
			o->md = (struct made){ lead->sh,
					       lead->side ? lead->sh->gsize[0] + i : i };
	}
}

/* Whether a member of the n world ranks `w` is a rank of another node. */
static bool any_elsewhere(const int *w, int n)
{
	for (int i = 0; i < n; i++)
		if (shl_job.ranks[w[i]] == NULL)
			return true;
	return false;
}

/* The local leader's part: exchange the groups with the remote leader over `peer`. Both
 * leaders decide alike whether to go across nodes: the groups are disjoint, so on one
 * node each sees the other's members elsewhere exactly when its own span nodes. On one
 * node, the leader of lower world rank builds the shared object and sends its address
 * (both leaders share the node process). */
static void ic_lead(struct shl_rank *r, struct shl_comm *local, MPI_Comm peer,
		    struct shl_comm *pc, int remote_leader, int tag, struct ic_in *out)
{
	int n = local->size, rn = -1, *mine = malloc((size_t)n * sizeof(int)), *theirs = NULL;
	struct shl_comm_shared *sh = NULL;

	out->err = MPI_ERR_NO_MEM;
	if (mine == NULL)
		return;
	for (int i = 0; i < n; i++)
		mine[i] = shl_comm_world_rank(local, i);
	if (PMPI_Sendrecv(&n, 1, MPI_INT, remote_leader, tag, &rn, 1, MPI_INT, remote_leader, tag,
			  peer, MPI_STATUS_IGNORE) != MPI_SUCCESS || rn < 1)
		goto fail;
	theirs = malloc((size_t)rn * sizeof(int));
	if (theirs == NULL ||
	    PMPI_Sendrecv(mine, n, MPI_INT, remote_leader, tag, theirs, rn, MPI_INT,
			  remote_leader, tag, peer, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		goto fail;
	out->side = r->world_rank > shl_comm_remote_world(pc, remote_leader);
	out->rn = rn;
	out->net = local->sh->offnode || any_elsewhere(theirs, rn);
	if (out->net) {
		out->theirs = theirs;
		out->err = MPI_SUCCESS;
		free(mine);
		return;
	}
	if (out->side == 0) {
		int err = MPI_SUCCESS;
		sh = shared_make(n, rn, true, &err);
		if (sh != NULL) {
			memcpy(sh->world, mine, (size_t)n * sizeof(int));
			memcpy(sh->world + n, theirs, (size_t)rn * sizeof(int));
		}
		if (PMPI_Send(&sh, sizeof(sh), MPI_BYTE, remote_leader, tag, peer) != MPI_SUCCESS)
			goto fail;
	} else if (PMPI_Recv(&sh, sizeof(sh), MPI_BYTE, remote_leader, tag, peer,
			     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
		goto fail;
	}
	out->sh = sh;
	out->err = sh != NULL ? MPI_SUCCESS : MPI_ERR_OTHER;
	free(mine);
	free(theirs);
	return;
fail:
	out->err = MPI_ERR_OTHER;
	free(mine);
	free(theirs);
}

/* Across nodes: every member learns the remote group from its leader, then both groups
 * make the intercommunicator as MPI_Comm_create_group on MPI_COMM_WORLD of their union
 * (group 0 first, with `tag`), an intercommunicator of gsize0 = group 0's size. */
static int ic_net(struct shl_rank *r, struct shl_comm *lc, int local_leader,
		  const struct ic_in *h, int tag, struct made *md)
{
	int n = lc->size, rn = h->rn, err;
	int *theirs = lc->rank == local_leader ? h->theirs : malloc((size_t)rn * sizeof(int));
	struct shl_group *g = shl_group_new(n + rn);
	struct shl_net_made nm = { .gsize0 = h->side ? rn : n };

	err = theirs != NULL && g != NULL ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	/* Every member calls the Bcast, even one out of memory: the others would wait. */
	if (PMPI_Bcast(theirs, theirs ? rn : 0, MPI_INT, local_leader, shl_comm_handle(lc))
	    != MPI_SUCCESS && err == MPI_SUCCESS)
		err = MPI_ERR_OTHER;
	if (err == MPI_SUCCESS) {
		int *w0 = g->world + (h->side ? rn : 0), *w1 = g->world + (h->side ? 0 : n);
		for (int i = 0; i < n; i++)
			w0[i] = shl_comm_world_rank(lc, i);
		memcpy(w1, theirs, (size_t)rn * sizeof(int));
		err = shl_comm_net_create_group(r, &r->world, g, tag, (h->side ? rn : 0) + lc->rank,
						&nm);
	}
	*md = (struct made){ nm.sh, nm.member };
	if (lc->rank != local_leader)
		free(theirs);
	free(g);
	return err;
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
			  int remote_leader, int tag, MPI_Comm *newintercomm)
{
	const char *fn = "MPI_Intercomm_create";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *lc, *pc = NULL;
	struct ic_in lead = { .err = MPI_SUCCESS };
	struct ic_out o = { { NULL, 0 }, { .err = MPI_SUCCESS } };
	int err = get_intra(fn, r, local_comm, &lc);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(lc, fn)) != MPI_SUCCESS)
		return err;
	if (newintercomm == NULL)
		return shl_err(lc, MPI_ERR_ARG, fn, "newintercomm is NULL");
	if (local_leader < 0 || local_leader >= lc->size)
		return shl_err(lc, MPI_ERR_RANK, fn, "local_leader %d is not a rank of local_comm "
			       "(size %d)", local_leader, lc->size);
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		return shl_err(lc, MPI_ERR_TAG, fn, "tag %d is outside 0..%d (MPI_TAG_UB)", tag,
			       MPI_TAG_UB_VALUE);
	if (lc->rank == local_leader) {
		/* peer_comm and remote_leader matter only here (MPI 4.1, 7.6.2). */
		pc = shl_comm_get(r, peer_comm);
		if (pc == NULL)
			return shl_err(lc, MPI_ERR_COMM, fn, "invalid communicator argument "
				       "peer_comm%s",
				       peer_comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
		if (remote_leader < 0 || remote_leader >= shl_comm_remote_size(pc))
			return shl_err(lc, MPI_ERR_RANK, fn, "remote_leader %d is not a rank of "
				       "peer_comm", remote_leader);
		if (shl_comm_remote_world(pc, remote_leader) == r->world_rank)
			return shl_err(lc, MPI_ERR_RANK, fn, "remote_leader is the local leader");
		ic_lead(r, lc, peer_comm, pc, remote_leader, tag, &lead);
	}
	if (lc->sh->offnode) {
		/* The local group spans nodes: always the network way; the leader's verdict
		 * (error or not, the remote size and side) through a Bcast. */
		int hdr[3] = { lead.err, lead.side, lead.rn };
		err = PMPI_Bcast(hdr, 3, MPI_INT, local_leader, local_comm);
		o.h = (struct ic_in){ .err = hdr[0], .side = hdr[1], .rn = hdr[2], .net = true,
				      .theirs = lead.theirs };
		if (err == MPI_SUCCESS)
			err = o.h.err;
	} else {
		err = meet_all(r, lc, fn, ic_run, lc->rank == local_leader ? &lead : NULL, &o);
		o.h.theirs = lead.theirs;
	}
	if (err == MPI_SUCCESS && o.h.net)
		err = ic_net(r, lc, local_leader, &o.h, tag, &o.md);
	free(lead.theirs);
	if (err != MPI_SUCCESS)
		return shl_err(lc, err, fn, "the leaders could not exchange the groups");
	return adopt(lc, &o.md, newintercomm, fn);
}
SHL_WEAK_ALIAS(Intercomm_create);

/* Both groups meet; the group whose members passed high = false comes first (group 0 of
 * the intercommunicator if both passed the same). */
static void merge_run(struct shl_meeting *m)
{
	const struct shl_comm_shared *p = m->sh;
	int h0 = *(const int *)m->arrival[0]->in, h1 = *(const int *)m->arrival[p->gsize[0]]->in;
	int first = h0 && !h1 ? 1 : 0, err = MPI_SUCCESS;
	int base[2] = { 0, p->gsize[0] };
	struct shl_comm_shared *sh = shared_make(p->nmembers, 0, false, &err);

	if (sh != NULL) {
		memcpy(sh->world, p->world + base[first], (size_t)p->gsize[first] * sizeof(int));
		memcpy(sh->world + p->gsize[first], p->world + base[!first],
		       (size_t)p->gsize[!first] * sizeof(int));
	}
	for (int i = 0; i < m->n; i++) {
		int side = i >= p->gsize[0], rank = i - base[side];
		m->arrival[i]->err = err;
		*(struct made *)m->arrival[i]->out = (struct made){
			sh, side == first ? rank : p->gsize[first] + rank };
	}
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	const char *fn = "MPI_Intercomm_merge";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p;
	struct made md = { NULL, 0 };
	int h = high != 0;
	int err = get_comm(fn, r, intercomm, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, fn)) != MPI_SUCCESS)
		return err;
	if (!p->inter)
		return shl_err(p, MPI_ERR_COMM, fn, "intercomm is not an intercommunicator");
	if (newintracomm == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "newintracomm is NULL");
	if (p->sh->offnode) {
		/* A split of one color: the group that passed high = false first, group 0
		 * first if both passed the same, each in its order. */
		struct shl_net_made nm = { 0 };
		err = shl_comm_net_split(r, p, 0, h * p->sh->nmembers + p->member, &nm, NULL);
		md = (struct made){ nm.sh, nm.member };
	} else {
		err = meet_all(r, p, fn, merge_run, &h, &md);
	}
	if (err != MPI_SUCCESS)
		return shl_err(p, err, fn, "the groups could not merge");
	return adopt(p, &md, newintracomm, fn);
}
SHL_WEAK_ALIAS(Intercomm_merge);

/* ---- free ---- */

int PMPI_Comm_free(MPI_Comm *comm)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_free");
	struct shl_comm *c;
	int err;

	if (comm == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Comm_free", "comm is NULL");
	err = get_comm("MPI_Comm_free", r, *comm, &c);
	if (err != MPI_SUCCESS)
		return err;
	if (c->predef != SHL_COMM_NOT_PREDEF)
		return shl_err(c, MPI_ERR_COMM, "MPI_Comm_free", "%s cannot be freed", c->name);
	/* Delete callbacks run first; a failing one keeps the communicator (MPI 4.1, 7.7.2). */
	err = shl_attr_delete_all(r, c);
	if (err != MPI_SUCCESS)
		return shl_err(c, err, "MPI_Comm_free", "an attribute delete callback failed");
	comm_release(c);
	*comm = MPI_COMM_NULL;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_free);

/* ---- queries ---- */

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_test_inter");
	struct shl_comm *c;
	int err = get_comm("MPI_Comm_test_inter", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (flag == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_test_inter", "flag is NULL");
	*flag = c->inter;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_test_inter);

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_remote_size");
	struct shl_comm *c;
	int err = get_comm("MPI_Comm_remote_size", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (!c->inter)
		return shl_err(c, MPI_ERR_COMM, "MPI_Comm_remote_size",
			       "comm is not an intercommunicator");
	if (size == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_remote_size", "size is NULL");
	*size = c->remote_size;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_remote_size);

/* A group of the n world ranks given by `world` (NULL: 0..n-1). */
static int make_group(const char *fn, struct shl_comm *c, int n, const int *world,
		      MPI_Group *group)
{
	struct shl_group *g;

	if (group == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "group is NULL");
	g = shl_group_new(n);
	if (g == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	for (int i = 0; i < n; i++)
		g->world[i] = world ? world[i] : i;
	*group = g;
	return MPI_SUCCESS;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_group");
	struct shl_comm *c;
	int err = get_comm("MPI_Comm_group", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	return make_group("MPI_Comm_group", c, c->size, c->world, group);
}
SHL_WEAK_ALIAS(Comm_group);

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_remote_group");
	struct shl_comm *c;
	int err = get_comm("MPI_Comm_remote_group", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (!c->inter)
		return shl_err(c, MPI_ERR_COMM, "MPI_Comm_remote_group",
			       "comm is not an intercommunicator");
	return make_group("MPI_Comm_remote_group", c, c->remote_size, c->remote_world, group);
}
SHL_WEAK_ALIAS(Comm_remote_group);

/* MPI_IDENT/MPI_CONGRUENT when the tables are equal, MPI_SIMILAR when they hold the same
 * ranks, else MPI_UNEQUAL. `mark` has shl_job.size zeroed entries and is left zeroed. */
static int compare_tables(const struct shl_comm *a, const struct shl_comm *b, bool remote,
			  char *mark)
{
	int n = remote ? a->remote_size : a->size, result = MPI_CONGRUENT;

	if (n != (remote ? b->remote_size : b->size))
		return MPI_UNEQUAL;
	for (int i = 0; i < n; i++) {
		int wa = remote ? a->remote_world[i] : shl_comm_world_rank(a, i);
		int wb = remote ? b->remote_world[i] : shl_comm_world_rank(b, i);
		if (wa != wb)
			result = MPI_SIMILAR;
		mark[wa]++;
		mark[wb]--;
	}
	for (int i = 0; i < n; i++) {
		int wa = remote ? a->remote_world[i] : shl_comm_world_rank(a, i);
		if (mark[wa] != 0)
			result = MPI_UNEQUAL;
		mark[wa] = 0;
	}
	return result;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
	const char *fn = "MPI_Comm_compare";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *a, *b;
	char *mark;
	int err = get_comm(fn, r, comm1, &a);

	if (err == MPI_SUCCESS)
		err = get_comm(fn, r, comm2, &b);
	if (err != MPI_SUCCESS)
		return err;
	if (result == NULL)
		return shl_err(a, MPI_ERR_ARG, fn, "result is NULL");
	if (a == b) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	if (a->inter != b->inter) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	mark = calloc((size_t)shl_job.size, 1);
	if (mark == NULL)
		return shl_err(a, MPI_ERR_NO_MEM, fn, "out of memory");
	*result = compare_tables(a, b, false, mark);
	if (a->inter) {
		int remote = compare_tables(a, b, true, mark);
		if (remote > *result)
			*result = remote;
	}
	free(mark);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_compare);

/* ---- names and hints ---- */

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_set_name");
	struct shl_comm *c;
	int err = get_comm("MPI_Comm_set_name", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (comm_name == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_set_name", "comm_name is NULL");
	shl_rank_lock(r);
	/* Longer names are truncated (MPI 4.1, 7.8). */
	snprintf(c->name_buf, sizeof(c->name_buf), "%s", comm_name);
	c->name = c->name_buf;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_set_name);

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_get_name");
	struct shl_comm *c;
	int err = get_comm("MPI_Comm_get_name", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (comm_name == NULL || resultlen == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_get_name", "comm_name or resultlen is NULL");
	shl_rank_lock(r);
	*resultlen = snprintf(comm_name, MPI_MAX_OBJECT_NAME, "%s", c->name ? c->name : "");
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_get_name);

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_set_info");
	struct shl_comm *c;
	struct shl_info *in, *copy;
	int err = get_comm("MPI_Comm_set_info", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	in = shl_info_get(r, info);
	if (in == NULL)
		return shl_err(c, MPI_ERR_INFO, "MPI_Comm_set_info", "invalid info argument");
	copy = shl_info_dup(in);
	if (copy == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, "MPI_Comm_set_info", "out of memory");
	/* No hint changes Shoal's behaviour yet; all are kept and reported back. */
	shl_rank_lock(r);
	shl_info_free(c->info);
	c->info = copy;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_set_info);

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_get_info");
	struct shl_comm *c;
	struct shl_info *copy;
	int err = get_comm("MPI_Comm_get_info", r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (info_used == NULL)
		return shl_err(c, MPI_ERR_ARG, "MPI_Comm_get_info", "info_used is NULL");
	shl_rank_lock(r);
	copy = shl_info_dup(c->info);
	shl_rank_unlock(r);
	if (copy == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, "MPI_Comm_get_info", "out of memory");
	*info_used = copy;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_get_info);
