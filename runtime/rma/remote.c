/* One-sided communication with ranks of other nodes (rma.h, "ranks of other nodes"): every
 * access, lock request, grant, unlock and flush is an EAGER frame on the window's own
 * communicator's context, tagged from SHL_RMA_TAG_BASE up (comm/route.h), from the world
 * rank of its sender to that of its receiver. At the target's node whoever reads the
 * connections applies an access to the target's memory in shl_rma_deliver, so a target
 * that makes no MPI call still serves its origins, and answers at once an access that
 * returns data or completes a request (get, get_accumulate, fetch, compare-and-swap, R*).
 * A put or accumulate without a request has no answer of its own: frames of one origin
 * node are read in order (one connection, one reader), so the answer to the FLUSH the
 * origin sends before it waits confirms them all and carries the first error they met.
 * Small ones ride together in BATCH frames. At the origin's node the same hook takes the
 * answer: the data into the origin's result buffer, the access's request completed,
 * w->pending counted down and the origin woken.
 * Entered by rank threads (the shl_rma_remote_* calls: the owner of a window, rank
 * unlocked; shl_rma_remote_grant from any thread releasing a lock) and by whoever holds
 * the transport's lock (shl_rma_deliver: the completion thread, or a rank polling the
 * connections). An arrival must not sleep or take a rank's lock; after it counts an answer
 * down (the origin may free its window then) it touches no window state.
 *
 * A request frame: struct rq, then `nruns` runs (struct run) of the target's layout from
 * rq.addr (its displacement in bytes), then the packed data the access sends. A run counts
 * bytes for put and get, and elements of the access's one predefined type (rq.basic, as an
 * index in `basics`) for the atomic kinds, which the target applies element by element
 * (shl_rma_atomic, shl_rma_cas). An access larger than one frame is cut into frames of at
 * most the transport's eager limit, each answered on its own (struct an, then the data)
 * when the access is. A BATCH frame is a sequence of (4-byte length, unanswered access
 * frame); a FLUSH is a struct rq with its cookie only, answered by a struct an. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "io/transport.h"
#include "runtime/comm/hooks.h"
#include "runtime/comm/route.h"
#include "runtime/core/rt.h"
#include "runtime/datatype/datatype.h"
#include "runtime/datatype/op.h"
#include "runtime/rma/rma.h"

/* Frame kinds, as tags. */
enum {
	TAG_OP = SHL_RMA_TAG_BASE,    /* an access: origin -> target */
	TAG_ANSWER,                   /* its answer: target -> origin */
	TAG_LOCK,                     /* origin -> target: take the lock for me */
	TAG_GRANT,                    /* target -> origin: it is yours */
	TAG_UNLOCK,                   /* origin -> target: give it back (no answer) */
	TAG_FLUSH,                    /* origin -> target: confirm my accesses (answered) */
	TAG_BATCH,                    /* origin -> target: small unanswered accesses, in order */
};

/* An unanswered access frame that fits a batch with a FLUSH entry is appended to its
 * target's batch (a 4-byte length, then the frame) instead of being posted; the batch, at
 * most an EAGER frame (batch_max), goes as one BATCH frame before any other frame to that
 * target, or when the next entry would not fit: a stream of small puts is a few frames,
 * not one write each, and a put and its flush are one frame. A batch's memory lives from
 * its first entry to its post. A FLUSH may close a batch, as its last entry: a struct rq
 * of kind KIND_FLUSH with its cookie; room for it is kept in every batch. */
#define KIND_FLUSH 0xff
#define FLUSH_ENTRY (sizeof(uint32_t) + sizeof(struct rq))


/* An access frame's header (also LOCK, UNLOCK's, with `excl` only, and FLUSH's, with
 * `cookie` only). */
struct rq {
	uint64_t cookie;              /* the origin's, echoed by the answer; 0: no answer */
	int64_t addr;                 /* the target displacement in bytes (dynamic: address) */
	uint32_t nruns;
	uint8_t kind;                 /* enum shl_rma_kind */
	uint8_t op;                   /* enum shl_op_kind (atomic kinds) */
	uint8_t basic;                /* index in basics[] (atomic kinds) */
	uint8_t excl;                 /* LOCK, UNLOCK: exclusive */
};

/* A run of the target's layout, from rq.addr: `n` bytes, or `n` elements of the basic
 * type `extent` apart. */
struct run {
	int64_t off;
	uint64_t n;
};

/* An answer's header, then `bytes` of data. */
struct an {
	uint64_t cookie;
	int32_t err;                  /* MPI_SUCCESS or the error class of the access */
	uint32_t bytes;
};

/* A batch's bytes: one EAGER frame. */
static size_t batch_max(void)
{
	return shl_io_limits()->eager_max;
}

/* The largest access frame a batch takes. */
static size_t batch_one(void)
{
	return batch_max() - sizeof(uint32_t) - FLUSH_ENTRY;
}

/* The predefined types an atomic access may name, in an order every node shares. */
static struct shl_datatype *const basics[] = {
	&shl_mpi_char, &shl_mpi_signed_char, &shl_mpi_unsigned_char, &shl_mpi_byte,
	&shl_mpi_wchar, &shl_mpi_short, &shl_mpi_unsigned_short, &shl_mpi_int, &shl_mpi_unsigned,
	&shl_mpi_long, &shl_mpi_unsigned_long, &shl_mpi_long_long, &shl_mpi_unsigned_long_long,
	&shl_mpi_float, &shl_mpi_double, &shl_mpi_long_double, &shl_mpi_c_bool, &shl_mpi_int8_t,
	&shl_mpi_int16_t, &shl_mpi_int32_t, &shl_mpi_int64_t, &shl_mpi_uint8_t,
	&shl_mpi_uint16_t, &shl_mpi_uint32_t, &shl_mpi_uint64_t, &shl_mpi_c_float_complex,
	&shl_mpi_c_double_complex, &shl_mpi_c_long_double_complex, &shl_mpi_aint,
	&shl_mpi_offset, &shl_mpi_count, &shl_mpi_packed, &shl_mpi_float_int,
	&shl_mpi_double_int, &shl_mpi_long_int, &shl_mpi_2int, &shl_mpi_short_int,
	&shl_mpi_long_double_int, &shl_mpi_cxx_bool, &shl_mpi_cxx_float_complex,
	&shl_mpi_cxx_double_complex, &shl_mpi_cxx_long_double_complex,
	&shl_mpi_character, &shl_mpi_logical, &shl_mpi_integer, &shl_mpi_real,
	&shl_mpi_double_precision, &shl_mpi_complex, &shl_mpi_double_complex, &shl_mpi_integer1,
	&shl_mpi_integer2, &shl_mpi_integer4, &shl_mpi_integer8, &shl_mpi_integer16,
	&shl_mpi_real4, &shl_mpi_real8, &shl_mpi_real16, &shl_mpi_complex8, &shl_mpi_complex16,
	&shl_mpi_complex32, &shl_mpi_logical1, &shl_mpi_logical2, &shl_mpi_logical4,
	&shl_mpi_logical8, &shl_mpi_logical16, &shl_mpi_2real, &shl_mpi_2double_precision,
	&shl_mpi_2integer,
};
#define NBASICS (sizeof(basics) / sizeof(basics[0]))

/* The predefined ops, by kind. */
static struct shl_op *const ops[] = {
	[SHL_OP_MAX] = &shl_mpi_max, [SHL_OP_MIN] = &shl_mpi_min, [SHL_OP_SUM] = &shl_mpi_sum,
	[SHL_OP_PROD] = &shl_mpi_prod, [SHL_OP_LAND] = &shl_mpi_land,
	[SHL_OP_BAND] = &shl_mpi_band, [SHL_OP_LOR] = &shl_mpi_lor, [SHL_OP_BOR] = &shl_mpi_bor,
	[SHL_OP_LXOR] = &shl_mpi_lxor, [SHL_OP_BXOR] = &shl_mpi_bxor,
	[SHL_OP_MINLOC] = &shl_mpi_minloc, [SHL_OP_MAXLOC] = &shl_mpi_maxloc,
	[SHL_OP_REPLACE] = &shl_mpi_replace, [SHL_OP_NO_OP] = &shl_mpi_no_op,
};

/* One access of an origin with data to take or a request to complete, shared by its
 * frames: the last answer (or the origin, if it posted no frame) finishes it. */
struct access {
	_Atomic int left;             /* frames unanswered, plus one while the origin posts */
	void *result;                 /* GET, GET_ACC, CAS: where the data goes */
	struct shl_datatype *rtype;   /* ... its layout (held) */
	struct shl_req *req;          /* Rput & co, or NULL */
};

/* One frame awaiting its answer. */
struct pend {
	struct pend *next;
	uint64_t cookie;
	struct access *a;             /* or NULL: a FLUSH */
	size_t sig, bytes;            /* the answer's data: signature bytes [sig, sig + bytes) */
};

/* An origin's state for one window: its frames awaiting answers, by target, in the order
 * posted (the target answers in that order: one connection, one reader), the frames sent
 * without an answer since the last FLUSH, the first error each target reported, and lock
 * grants. As a target: the first error of the unanswered accesses of each origin since
 * its last FLUSH. Made by expose, freed by forget. */
struct origin {
	pthread_mutex_t mu;           /* guards head, last, next_cookie */
	struct pend **head, **last;   /* by window rank */
	uint64_t next_cookie;
	_Atomic uint32_t *silent;     /* by window rank: unanswered frames since the last FLUSH */
	_Atomic int *err;             /* by window rank: first error class since the last flush */
	_Atomic int *granted;         /* by window rank: the GRANT of the lock asked arrived */
	_Atomic int *seen;            /* by window rank of the origin: its unanswered accesses'
				       * first error class, for the answer to its next FLUSH */
	pthread_mutex_t bmu;          /* guards batch, blen; held while a frame is posted */
	unsigned char **batch;        /* by window rank: batch_max() bytes while entries wait */
	size_t *blen;                 /* by window rank: bytes in batch */
	int nbatch;                   /* entries of batch and blen */
};

/* A window's node object: what arrivals on its context find, by world rank of this node. */
struct slot {
	struct shl_win *w;
	struct shl_win_target *t;
	struct origin *_Atomic o;     /* release-stored last: the slot is whole */
};

struct node {
	struct shl_route_rma link;    /* first: comm/route.c frees the object */
	int nexposed;                 /* this node's ranks that exposed (under `exposing`) */
	struct slot slot[];           /* by world rank */
};

/* A lock request of another node, queued on its target (t->queue). */
struct lockreq {
	struct shl_rma_lockreq q;     /* first: t->queue links these */
	uint32_t context;
	int32_t target;               /* the target's world rank, the GRANT's source */
};

/* Serializes the ranks of this node exposing and forgetting windows. */
static pthread_mutex_t exposing = PTHREAD_MUTEX_INITIALIZER;

/* Set while this thread delivers a frame (it holds the transport's lock): a grant made
 * then is written at once (shl_io_post_answer). */
static __thread bool in_arrival;

/* ---- both sides ---- */

/* Whether frames of `kind` carry elements of a basic type (else bytes). */
static bool atomic_kind(int kind)
{
	return kind == SHL_RMA_ACC || kind == SHL_RMA_GET_ACC || kind == SHL_RMA_CAS;
}

/* Data bytes one unit of a run sends to the target and gets back in the answer. */
static void unit_bytes(int kind, int op, const struct shl_datatype *basic, size_t *req,
		       size_t *ans)
{
	size_t u = atomic_kind(kind) ? basic->size : 1;

	*req = kind == SHL_RMA_PUT || kind == SHL_RMA_ACC ||
	       (kind == SHL_RMA_GET_ACC && op != SHL_OP_NO_OP) ? u : 0;
	*ans = kind == SHL_RMA_GET || kind == SHL_RMA_GET_ACC ? u : 0;
	if (kind == SHL_RMA_CAS) {
		*req = 2 * u;  /* the value, then the compare */
		*ans = u;
	}
}

static struct node *node_of(uint32_t context)
{
	return (struct node *)shl_route_rma_get(context);
}

/* ---- the origin's side ---- */

/* The runs of the target's layout being gathered (shl_dt_walk's visitor). */
struct runs {
	struct run *v;
	size_t n, cap;
	bool elems;                   /* runs of elements (atomic kinds), else of bytes */
	ptrdiff_t extent;             /* elems: the basic type's */
	char *base;
	bool nomem;
};

static bool add_run(struct runs *rs, int64_t off, uint64_t n)
{
	if (rs->n > 0) {
		struct run *p = &rs->v[rs->n - 1];
		if (p->off + (int64_t)p->n * (rs->elems ? rs->extent : 1) == off) {
			p->n += n;
			return true;
		}
	}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 16;
		struct run *v = realloc(rs->v, cap * sizeof(*v));
		if (v == NULL) {
			rs->nomem = true;
			return false;
		}
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n++] = (struct run){ off, n };
	return true;
}

static bool visit(void *ctx, const struct shl_datatype *basic, char *addr, size_t n)
{
	struct runs *rs = ctx;
	int64_t off = addr - rs->base;

	if (n == 0)
		return true;
	if (rs->elems)
		return add_run(rs, off, n);
	if (basic->extent == (ptrdiff_t)basic->size)
		return add_run(rs, off, n * basic->size);
	for (size_t i = 0; i < n; i++)
		if (!add_run(rs, off + (int64_t)i * basic->extent, basic->size))
			return false;
	return true;
}

/* The runs of `count` elements of `t` (elements of `basic` when `elems`). Returns 0 or
 * -ENOMEM. */
static int flatten(struct runs *rs, const struct shl_datatype *t, MPI_Count count,
		   const struct shl_datatype *basic, bool elems)
{
	*rs = (struct runs){ .elems = elems, .extent = basic ? basic->extent : 1 };
	if (count == 0 || t->size == 0)
		return 0;
	if (t->contig && (!elems || basic->extent == (ptrdiff_t)basic->size)) {
		uint64_t bytes = (uint64_t)count * t->size;
		return add_run(rs, 0, elems ? bytes / basic->size : bytes) ? 0 : -ENOMEM;
	}
	/* Any address far from both ends: the walk adds the type's displacements to it. */
	rs->base = (char *)((uintptr_t)1 << 62);
	shl_dt_walk(t, rs->base, (size_t)count, visit, rs);
	return rs->nomem ? -ENOMEM : 0;
}

static struct origin *origin_of(struct shl_win *w)
{
	struct node *nd = node_of(w->c->context);

	return nd != NULL ? atomic_load_explicit(&nd->slot[w->peers[w->rank].world].o,
						 memory_order_acquire) : NULL;
}

/* The last hold of `a` went: its data is in; complete its request. */
static void access_done(struct access *a)
{
	struct shl_req *req = a->req;

	shl_dt_release(a->rtype);
	free(a);
	if (req != NULL)
		shl_req_complete(req);
}

static void access_drop(struct access *a)
{
	if (a != NULL && atomic_fetch_sub_explicit(&a->left, 1, memory_order_acq_rel) == 1)
		access_done(a);
}

/* Owner, rank unlocked: post a frame of `len` bytes that `fill` writes, to `target`. */
static int post_raw(struct shl_rank *r, struct shl_win *w, int target, int tag,
		    const void *head, size_t hlen, size_t len,
		    void (*fill)(unsigned char *p, void *arg), void *arg)
{
	struct shl_io_msg m = { .src = r->world_rank, .dst = w->peers[target].world,
				.context = w->c->context, .tag = tag };
	struct shl_io_send *d;

	shl_rank_lock(r);
	d = shl_io_send_get(r->world_rank, len);
	if (d == NULL) {
		shl_rank_unlock(r);
		return MPI_ERR_NO_MEM;
	}
	memcpy(d->space, head, hlen);
	if (fill != NULL)
		fill(d->space, arg);
	shl_io_post_eager(d, &m, d->space, len, NULL);
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}

/* o->bmu held: post the batch of `target`, if any. */
static int post_batch(struct shl_rank *r, struct shl_win *w, struct origin *o, int target)
{
	int err;

	if (o->blen[target] == 0)
		return MPI_SUCCESS;
	err = post_raw(r, w, target, TAG_BATCH, o->batch[target], o->blen[target],
		       o->blen[target], NULL, NULL);
	if (err == MPI_SUCCESS) {
		free(o->batch[target]);
		o->batch[target] = NULL;
		o->blen[target] = 0;
	}
	return err;
}

/* post_raw after the batch of `target`: frames to one target leave in the order made. */
static int post_frame(struct shl_rank *r, struct shl_win *w, int target, int tag,
		      const void *head, size_t hlen, size_t len,
		      void (*fill)(unsigned char *p, void *arg), void *arg)
{
	struct origin *o = origin_of(w);
	int err;

	if (o == NULL)
		return MPI_ERR_INTERN;
	pthread_mutex_lock(&o->bmu);
	err = post_batch(r, w, o, target);
	if (err == MPI_SUCCESS)
		err = post_raw(r, w, target, tag, head, hlen, len, fill, arg);
	pthread_mutex_unlock(&o->bmu);
	return err;
}

/* Append an unanswered access frame (`len` <= batch_one() bytes: header `h`, the rest by
 * `fill`) to the batch of `target`, posting the batch first when it is full. */
static int add_batch(struct shl_rank *r, struct shl_win *w, struct origin *o, int target,
		     const void *h, size_t hlen, size_t len,
		     void (*fill)(unsigned char *p, void *arg), void *arg)
{
	uint32_t n = (uint32_t)len;
	int err = MPI_SUCCESS;

	pthread_mutex_lock(&o->bmu);
	if (o->blen[target] + sizeof(n) + len > batch_max() - FLUSH_ENTRY)
		err = post_batch(r, w, o, target);
	if (err == MPI_SUCCESS && o->batch[target] == NULL &&
	    (o->batch[target] = malloc(batch_max())) == NULL)
		err = MPI_ERR_NO_MEM;
	if (err == MPI_SUCCESS) {
		unsigned char *p = o->batch[target] + o->blen[target];
		memcpy(p, &n, sizeof(n));
		memcpy(p + sizeof(n), h, hlen);
		fill(p + sizeof(n), arg);
		o->blen[target] += sizeof(n) + len;
	}
	pthread_mutex_unlock(&o->bmu);
	return err;
}

/* What one access frame holds beyond its header: runs rs[first..] (the first from unit
 * `skip`), `k` runs, the last one cut at `lastn` units; data slice [sig, sig + bytes) of
 * the origin's signature. */
struct frame {
	const struct shl_rma_op *op;
	const struct runs *rs;
	size_t first, k;
	uint64_t skip, lastn;
	size_t sig, bytes, reqdata;
	size_t stride;                /* bytes between units of a run at the target */
};

static void fill_access(unsigned char *p, void *arg)
{
	struct frame *f = arg;
	struct run *out = (struct run *)(p + sizeof(struct rq));
	unsigned char *data = (unsigned char *)(out + f->k);

	for (size_t j = 0; j < f->k; j++) {
		struct run x = f->rs->v[f->first + j];
		uint64_t from = j == 0 ? f->skip : 0;
		uint64_t n = (j + 1 == f->k ? f->lastn : x.n) - from;
		x.off += (int64_t)(from * f->stride);
		x.n = n;
		memcpy(&out[j], &x, sizeof(x));
	}
	if (f->op->kind == SHL_RMA_CAS) {
		memcpy(data, f->op->origin, f->op->basic->size);
		memcpy(data + f->op->basic->size, f->op->compare, f->op->basic->size);
	} else if (f->reqdata > 0 && f->bytes > 0) {
		/* The dense side is addressed at its signature offset. */
		shl_dt_copy_range(data - f->sig, NULL, f->op->origin, f->op->otype, f->sig,
				  f->bytes);
	}
}

/* Holding o->mu: take the frame at `*link` off `target`'s list of frames awaiting answers. */
static void pend_unlink(struct origin *o, int target, struct pend **link)
{
	struct pend *x = *link;

	*link = x->next;
	if (o->last[target] == x) {
		o->last[target] = NULL;
		for (struct pend *y = o->head[target]; y != NULL; y = y->next)
			o->last[target] = y;
	}
}

/* The origin, before posting frame `p` to `target`: its cookie, the frame listed behind
 * the others to that target and counted in w->pending (before it can be answered). */
static uint64_t pend_add(struct shl_win *w, struct origin *o, int target, struct pend *p)
{
	pthread_mutex_lock(&o->mu);
	p->cookie = ++o->next_cookie;
	if (o->head[target] == NULL)
		o->head[target] = p;
	else
		o->last[target]->next = p;
	o->last[target] = p;
	pthread_mutex_unlock(&o->mu);
	atomic_fetch_add_explicit(&w->pending[target], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&w->npending, 1, memory_order_relaxed);
	return p->cookie;
}

/* The origin, when frame `p` (pend_add) could not be posted: unlisted, uncounted, freed. */
static void pend_drop(struct shl_win *w, struct origin *o, int target, struct pend *p)
{
	struct pend **link;

	pthread_mutex_lock(&o->mu);
	for (link = &o->head[target]; *link != p; link = &(*link)->next)
		;
	pend_unlink(o, target, link);
	pthread_mutex_unlock(&o->mu);
	free(p);
	atomic_fetch_sub_explicit(&w->npending, 1, memory_order_release);
	atomic_fetch_sub_explicit(&w->pending[target], 1, memory_order_release);
}

int shl_rma_remote_op(struct shl_rank *r, struct shl_win *w, const struct shl_rma_op *op)
{
	struct origin *o = origin_of(w);
	bool elems = atomic_kind(op->kind);
	const struct shl_datatype *basic = op->basic;
	size_t usz = elems ? basic->size : 1, reqdata, ansdata;
	size_t eager = shl_io_limits()->eager_max;
	struct access *a = NULL;
	struct runs rs;
	int basic_id = 0xff, err = MPI_SUCCESS;
	int target = op->target;

	if (o == NULL)
		return MPI_ERR_INTERN;
	if (elems) {
		for (size_t i = 0; i < NBASICS && basic_id == 0xff; i++)
			if (basics[i] == basic)
				basic_id = (int)i;
		if (basic_id == 0xff)
			return MPI_ERR_TYPE;
	}
	unit_bytes(op->kind, op->op ? (int)op->op->kind : 0, basic, &reqdata, &ansdata);
	if (flatten(&rs, op->ttype, op->kind == SHL_RMA_CAS ? 1 : op->tcount, basic, elems) < 0)
		return MPI_ERR_NO_MEM;
	if (ansdata > 0 || op->req != NULL) {
		a = malloc(sizeof(*a));
		if (a == NULL) {
			free(rs.v);
			return MPI_ERR_NO_MEM;
		}
		atomic_init(&a->left, 1);
		a->result = op->result;
		a->rtype = ansdata > 0 ? op->rtype : NULL;
		shl_dt_hold(a->rtype);
		a->req = op->req;
	}
	struct frame f = { .op = op, .rs = &rs, .reqdata = reqdata,
			   .stride = elems ? (size_t)basic->extent : 1 };
	size_t i = 0, sig = 0;
	uint64_t done = 0;
	while (i < rs.n && err == MPI_SUCCESS) {
		size_t room_req = eager - sizeof(struct rq), room_ans = eager - sizeof(struct an);
		size_t units = 0;
		f.first = i;
		f.skip = done;
		f.k = 0;
		while (i < rs.n && room_req >= sizeof(struct run) + reqdata &&
		       room_ans >= ansdata) {
			uint64_t fit = rs.v[i].n - done;
			if (reqdata > 0 && fit > (room_req - sizeof(struct run)) / reqdata)
				fit = (room_req - sizeof(struct run)) / reqdata;
			if (ansdata > 0 && fit > room_ans / ansdata)
				fit = room_ans / ansdata;
			room_req -= sizeof(struct run) + fit * reqdata;
			room_ans -= fit * ansdata;
			units += fit;
			f.k++;
			done += fit;
			f.lastn = done;
			if (done == rs.v[i].n) {
				i++;
				done = 0;
			}
		}
		f.sig = sig;
		f.bytes = units * usz;
		sig += f.bytes;
		size_t len = sizeof(struct rq) + f.k * sizeof(struct run) +
			     (op->kind == SHL_RMA_CAS ? reqdata : units * reqdata);
		struct rq h = { .addr = (int64_t)op->disp, .nruns = (uint32_t)f.k,
				.kind = (uint8_t)op->kind, .op = op->op ? (uint8_t)op->op->kind : 0,
				.basic = (uint8_t)basic_id };
		if (a == NULL) {
			/* Nothing to take back or complete: confirmed by the next FLUSH. */
			err = len <= batch_one()
			      ? add_batch(r, w, o, target, &h, sizeof(h), len, fill_access, &f)
			      : post_frame(r, w, target, TAG_OP, &h, sizeof(h), len, fill_access, &f);
			if (err == MPI_SUCCESS)
				atomic_fetch_add_explicit(&o->silent[target], 1,
							  memory_order_relaxed);
			continue;
		}
		struct pend *p = malloc(sizeof(*p));
		if (p == NULL) {
			err = MPI_ERR_NO_MEM;
			break;
		}
		*p = (struct pend){ .a = a, .sig = f.sig, .bytes = ansdata > 0 ? f.bytes : 0 };
		atomic_fetch_add_explicit(&a->left, 1, memory_order_relaxed);
		h.cookie = pend_add(w, o, target, p);
		err = post_frame(r, w, target, TAG_OP, &h, sizeof(h), len, fill_access, &f);
		if (err != MPI_SUCCESS) {
			pend_drop(w, o, target, p);
			atomic_fetch_sub_explicit(&a->left, 1, memory_order_relaxed);
		}
	}
	free(rs.v);
	access_drop(a);
	return err;
}

struct flushing {
	struct shl_win *w;
	int target;
};

static bool flushed(void *arg)
{
	struct flushing *f = arg;

	if (f->target >= 0)
		return atomic_load_explicit(&f->w->pending[f->target], memory_order_acquire) == 0;
	if (atomic_load_explicit(&f->w->npending, memory_order_acquire) != 0)
		return false;
	/* Each answer counts its target down last: once all read 0, no arrival touches w. */
	for (int i = 0; i < f->w->size; i++)
		if (atomic_load_explicit(&f->w->pending[i], memory_order_acquire) != 0)
			return false;
	return true;
}

/* Ask `target` to confirm the frames sent to it without an answer, if any: its answer
 * comes after theirs were applied (one connection, read in order) and carries the first
 * error they met. Counted in w->pending like an access. */
static int post_flush(struct shl_rank *r, struct shl_win *w, struct origin *o, int target)
{
	uint32_t n = atomic_exchange_explicit(&o->silent[target], 0, memory_order_relaxed);
	struct pend *p;
	struct rq h = { 0 };
	int err;

	if (n == 0)
		return MPI_SUCCESS;
	p = malloc(sizeof(*p));
	if (p == NULL) {
		atomic_fetch_add_explicit(&o->silent[target], n, memory_order_relaxed);
		return MPI_ERR_NO_MEM;
	}
	*p = (struct pend){ 0 };
	h.cookie = pend_add(w, o, target, p);
	pthread_mutex_lock(&o->bmu);
	if (o->blen[target] > 0) {
		/* The batch's last entry: one frame, one write, one arrival at the target. */
		uint32_t len = sizeof(h);
		size_t at = o->blen[target];
		h.kind = KIND_FLUSH;
		memcpy(o->batch[target] + at, &len, sizeof(len));
		memcpy(o->batch[target] + at + sizeof(len), &h, sizeof(h));
		o->blen[target] += FLUSH_ENTRY;
		err = post_batch(r, w, o, target);
		if (err != MPI_SUCCESS)
			o->blen[target] = at;
	} else {
		err = post_raw(r, w, target, TAG_FLUSH, &h, sizeof(h), sizeof(h), NULL, NULL);
	}
	pthread_mutex_unlock(&o->bmu);
	if (err != MPI_SUCCESS) {
		pend_drop(w, o, target, p);
		atomic_fetch_add_explicit(&o->silent[target], n, memory_order_relaxed);
	}
	return err;
}

int shl_rma_remote_flush(struct shl_rank *r, struct shl_win *w, int target)
{
	struct origin *o = origin_of(w);
	struct flushing f = { w, target };
	int err = MPI_SUCCESS;

	if (o == NULL)
		return MPI_SUCCESS;  /* nothing was sent */
	for (int i = target >= 0 ? target : 0; i < (target >= 0 ? target + 1 : w->size); i++) {
		int e = post_flush(r, w, o, i);
		if (err == MPI_SUCCESS)
			err = e;
	}
	if (!flushed(&f)) {
		shl_rank_lock(r);
		shl_wait(r, flushed, &f);
		shl_rank_unlock(r);
	}
	for (int i = target >= 0 ? target : 0; i < (target >= 0 ? target + 1 : w->size); i++) {
		int e = atomic_exchange_explicit(&o->err[i], MPI_SUCCESS, memory_order_acquire);
		if (err == MPI_SUCCESS)
			err = e;
	}
	return err;
}

struct granting {
	_Atomic int *granted;
};

static bool granted(void *arg)
{
	return atomic_load_explicit(((struct granting *)arg)->granted, memory_order_acquire);
}

int shl_rma_remote_lock(struct shl_rank *r, struct shl_win *w, int target, bool exclusive)
{
	struct origin *o = origin_of(w);
	struct rq h = { .excl = exclusive };
	struct granting g;
	int err;

	if (o == NULL)
		return MPI_ERR_INTERN;
	g.granted = &o->granted[target];
	atomic_store_explicit(g.granted, 0, memory_order_relaxed);
	err = post_frame(r, w, target, TAG_LOCK, &h, sizeof(h), sizeof(h), NULL, NULL);
	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	shl_wait(r, granted, &g);
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}

int shl_rma_remote_unlock(struct shl_rank *r, struct shl_win *w, int target, bool exclusive)
{
	struct rq h = { .excl = exclusive };

	/* Frames of one connection are read in order: it arrives after every access before. */
	return post_frame(r, w, target, TAG_UNLOCK, &h, sizeof(h), sizeof(h), NULL, NULL);
}

/* ---- the target's side (whoever reads the connections) ---- */

/* Send the GRANT of `q`: written now by a reader, else posted from the shared pool. */
static void send_grant(const struct lockreq *q)
{
	struct an h = { 0 };
	struct shl_io_msg m = { .src = q->target, .dst = q->q.origin, .context = q->context,
				.tag = TAG_GRANT };

	if (in_arrival) {
		struct shl_io_send *d = shl_io_answer_get(sizeof(h));
		memcpy(d->space, &h, sizeof(h));
		shl_io_post_answer(d, &m, sizeof(h));
		return;
	}
	/* No memory for a frame of a few bytes: the origin would wait forever. */
	if (!shl_io_post_copy(&m, &h, sizeof(h)))
		shl_panic("MPI_Win_unlock", ENOMEM, "no memory to grant a lock to a rank of "
			  "another node");
}

void shl_rma_remote_grant(struct shl_win_target *t)
{
	struct shl_rma_lockreq *q, *granted = NULL, **tail = &granted;

	pthread_mutex_lock(&t->mu);
	while ((q = t->queue) != NULL && shl_rma_lock_try(t, q->exclusive)) {
		t->queue = q->next;
		atomic_fetch_sub(&t->waiting, 1);
		q->next = NULL;
		*tail = q;
		tail = &q->next;
	}
	pthread_mutex_unlock(&t->mu);
	while ((q = granted) != NULL) {
		granted = q->next;
		send_grant((struct lockreq *)q);
		free(q);
	}
}

/* A LOCK from window rank `from` (world rank `origin`) for target `t` (world `self`). */
static void got_lock(struct shl_win_target *t, uint32_t context, int32_t self, int32_t origin,
		     bool exclusive)
{
	struct lockreq *x = malloc(sizeof(*x));
	bool now = false;

	if (x == NULL)
		shl_panic("MPI_Win_lock", ENOMEM, "no memory for a lock request of another node");
	*x = (struct lockreq){ .q = { .origin = origin, .exclusive = exclusive },
			       .context = context, .target = self };
	pthread_mutex_lock(&t->mu);
	/* Counted before trying (seq_cst), against a release that reads `waiting` after it
	 * frees the lock word: either the try sees it free, or the release grants the queue,
	 * which it reads under `mu` once this is queued. */
	atomic_fetch_add(&t->waiting, 1);
	if (t->queue == NULL && shl_rma_lock_try(t, exclusive)) {
		atomic_fetch_sub(&t->waiting, 1);
		now = true;
	} else {
		struct shl_rma_lockreq **link = &t->queue;
		while (*link != NULL)
			link = &(*link)->next;
		*link = &x->q;
	}
	pthread_mutex_unlock(&t->mu);
	if (now) {
		send_grant(x);
		free(x);
	}
}

/* Where [addr, addr + span) lies in the memory of `t` (flavor of `w`), or NULL outside. */
static char *target_at(const struct shl_win *w, struct shl_win_target *t, int64_t addr,
		       uint64_t span)
{
	if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
		if (addr < 0 || (uint64_t)addr > (uint64_t)t->size ||
		    span > (uint64_t)t->size - (uint64_t)addr)
			return NULL;
		return t->base + addr;
	}
	char *p = NULL;
	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < t->nregions && p == NULL; i++) {
		uintptr_t b = (uintptr_t)t->regions[i].base, a = (uintptr_t)addr;
		if (a >= b && a - b <= (uint64_t)t->regions[i].size &&
		    span <= (uint64_t)t->regions[i].size - (a - b))
			p = (char *)a;
	}
	pthread_mutex_unlock(&t->mu);
	return p;
}

/* An access frame for target `s` from window rank `from`: apply it and answer, or (no
 * cookie: a put or accumulate) keep its error for the answer to the next FLUSH. */
static int got_access(struct slot *s, struct origin *o, struct shl_rank *to, int from,
		      const unsigned char *p, size_t len)
{
	struct rq h;
	const struct shl_datatype *basic = NULL;
	size_t reqdata, ansdata, units = 0, usz = 1;
	ptrdiff_t stride = 1;
	shl_kern *k = NULL;
	int err = MPI_SUCCESS;

	if (len < sizeof(h))
		return -EPROTO;
	memcpy(&h, p, sizeof(h));
	if (h.kind > SHL_RMA_CAS || h.nruns > (len - sizeof(h)) / sizeof(struct run))
		return -EPROTO;
	if (atomic_kind(h.kind)) {
		if (h.basic >= NBASICS || h.op > SHL_OP_NO_OP)
			return -EPROTO;
		basic = basics[h.basic];
		usz = basic->size;
		stride = basic->extent;
	}
	unit_bytes(h.kind, h.op, basic, &reqdata, &ansdata);
	const unsigned char *runs = p + sizeof(h);
	const unsigned char *data = runs + (size_t)h.nruns * sizeof(struct run);
	for (uint32_t j = 0; j < h.nruns; j++) {
		struct run x;
		memcpy(&x, runs + j * sizeof(x), sizeof(x));
		/* A run's data, sent or answered, fits one frame: no sum below overflows. */
		if (x.n == 0 || x.n > shl_io_limits()->eager_max)
			return -EPROTO;
		units += x.n;
	}
	size_t want = h.kind == SHL_RMA_CAS ? (units == 1 ? reqdata : SIZE_MAX) : units * reqdata;
	if (want != len - sizeof(h) - (size_t)h.nruns * sizeof(struct run) ||
	    units * ansdata > shl_io_limits()->eager_max)
		return -EPROTO;
	size_t abytes = units * ansdata;
	if (h.cookie == 0 && ansdata > 0)
		return -EPROTO;  /* data asked for with nowhere to send it */
	struct shl_io_send *d = h.cookie != 0 ? shl_io_answer_get(sizeof(struct an) + abytes)
					      : NULL;
	unsigned char *out = d != NULL ? d->space + sizeof(struct an) : NULL;
	if ((h.kind == SHL_RMA_ACC || h.kind == SHL_RMA_GET_ACC) && h.op != SHL_OP_REPLACE &&
	    h.op != SHL_OP_NO_OP) {
		struct shl_fold fo;
		char why[SHL_OP_WHY];
		if (shl_fold_init(&fo, ops[h.op], (MPI_Datatype)basic, 1, true, why) != 0)
			err = MPI_ERR_OP;
		else
			k = fo.k;
	}
	/* Every run in the window before any is touched. */
	for (uint32_t j = 0; j < h.nruns && err == MPI_SUCCESS; j++) {
		struct run x;
		memcpy(&x, runs + j * sizeof(x), sizeof(x));
		uint64_t span = atomic_kind(h.kind) ? (x.n - 1) * (uint64_t)stride +
			(uint64_t)(basic->true_lb + basic->true_extent) : x.n;
		if (target_at(s->w, s->t, h.addr + x.off, span) == NULL)
			err = MPI_ERR_RMA_RANGE;
	}
	for (uint32_t j = 0; j < h.nruns && err == MPI_SUCCESS; j++) {
		struct run x;
		memcpy(&x, runs + j * sizeof(x), sizeof(x));
		uint64_t span = atomic_kind(h.kind) ? (x.n - 1) * (uint64_t)stride +
			(uint64_t)(basic->true_lb + basic->true_extent) : x.n;
		char *at = target_at(s->w, s->t, h.addr + x.off, span);
		switch (h.kind) {
		case SHL_RMA_PUT:
			memcpy(at, data, x.n);
			break;
		case SHL_RMA_GET:
			memcpy(out, at, x.n);
			break;
		case SHL_RMA_ACC:
			shl_rma_atomic(h.op, k, basic, at, data, NULL, x.n);
			break;
		case SHL_RMA_GET_ACC:
			shl_rma_atomic(h.op, k, basic, at, reqdata > 0 ? (const void *)data : out,
				       out, x.n);
			break;
		case SHL_RMA_CAS:
			shl_rma_cas(basic, at, data, data + usz, out);
			break;
		}
		data += x.n * reqdata;
		out += x.n * ansdata;
	}
	if (d == NULL) {
		int none = MPI_SUCCESS;
		if (err != MPI_SUCCESS)
			atomic_compare_exchange_strong(&o->seen[from], &none, err);
		return 0;
	}
	struct an a = { .cookie = h.cookie, .err = err,
			 .bytes = err == MPI_SUCCESS ? (uint32_t)abytes : 0 };
	memcpy(d->space, &a, sizeof(a));
	struct shl_io_msg m = { .src = to->world_rank, .dst = shl_comm_world_rank(s->w->c, from),
				.context = s->w->c->context, .tag = TAG_ANSWER };
	shl_io_post_answer(d, &m, sizeof(a) + a.bytes);
	return 0;
}

/* A FLUSH from window rank `from`: every access it sent before is applied; answer with the
 * first error of those that had no answer of their own. */
static void got_flush(struct slot *s, struct origin *o, struct shl_rank *to, int from,
		      uint64_t cookie)
{
	struct an a = { .cookie = cookie,
			 .err = atomic_exchange_explicit(&o->seen[from], MPI_SUCCESS,
							 memory_order_relaxed) };
	struct shl_io_send *d = shl_io_answer_get(sizeof(a));
	struct shl_io_msg m = { .src = to->world_rank, .dst = shl_comm_world_rank(s->w->c, from),
				.context = s->w->c->context, .tag = TAG_ANSWER };

	memcpy(d->space, &a, sizeof(a));
	shl_io_post_answer(d, &m, sizeof(a));
}

/* A BATCH from window rank `from`: its unanswered access frames, applied in order. */
static int got_batch(struct slot *s, struct origin *o, struct shl_rank *to, int from,
		     const unsigned char *p, size_t len)
{
	while (len > 0) {
		uint32_t n;
		int err;
		if (len < sizeof(n))
			return -EPROTO;
		memcpy(&n, p, sizeof(n));
		if (n < sizeof(struct rq) || n > len - sizeof(n))
			return -EPROTO;
		struct rq h;
		memcpy(&h, p + sizeof(n), sizeof(h));
		if (h.kind == KIND_FLUSH) {
			/* The last entry, if any. */
			if (n != sizeof(h) || h.cookie == 0 || len != sizeof(n) + n)
				return -EPROTO;
			got_flush(s, o, to, from, h.cookie);
			return 0;
		}
		/* Only accesses without an answer ride in a batch. */
		if (h.cookie != 0)
			return -EPROTO;
		if ((err = got_access(s, o, to, from, p + sizeof(n), n)) != 0)
			return err;
		p += sizeof(n) + n;
		len -= sizeof(n) + n;
	}
	return 0;
}

/* ---- answers at the origin ---- */

static int got_answer(struct slot *s, struct origin *o, struct shl_rank *to, int from,
		      const unsigned char *p, size_t len)
{
	struct shl_win *w = s->w;
	struct an h;
	struct pend *x, **link;

	if (len < sizeof(h))
		return -EPROTO;
	memcpy(&h, p, sizeof(h));
	if (h.bytes != len - sizeof(h))
		return -EPROTO;
	pthread_mutex_lock(&o->mu);
	for (link = &o->head[from]; (x = *link) != NULL && x->cookie != h.cookie; link = &x->next)
		;
	if (x != NULL)
		pend_unlink(o, from, link);
	pthread_mutex_unlock(&o->mu);
	if (x == NULL || (h.err == MPI_SUCCESS && h.bytes != x->bytes))
		return -EPROTO;  /* an answer to no frame of ours */
	if (h.err != MPI_SUCCESS) {
		int none = MPI_SUCCESS;
		atomic_compare_exchange_strong(&o->err[from], &none, h.err);
	} else if (x->bytes > 0) {
		const unsigned char *data = p + sizeof(h);
		shl_dt_copy_range(x->a->result, x->a->rtype, data - x->sig, NULL, x->sig, x->bytes);
	}
	access_drop(x->a);
	free(x);
	/* The target's count last: the origin may free its window once it reads 0. */
	atomic_fetch_sub_explicit(&w->npending, 1, memory_order_release);
	atomic_fetch_sub_explicit(&w->pending[from], 1, memory_order_seq_cst);
	shl_rank_wake(to);
	return 0;
}

int shl_rma_deliver(struct shl_route_rma *obj, struct shl_rank *to, struct shl_envelope *env)
{
	struct node *nd = (struct node *)obj;
	struct slot *s = &nd->slot[to->world_rank];
	struct origin *o = atomic_load_explicit(&s->o, memory_order_acquire);
	const unsigned char *p = shl_envelope_payload(env);
	size_t len = env->bytes;
	int from = env->src;
	struct rq h;
	int err = 0;

	if (o == NULL || from < 0 || from >= s->w->size)
		return -EPROTO;
	in_arrival = true;
	switch (env->tag) {
	case TAG_OP:
		err = got_access(s, o, to, from, p, len);
		break;
	case TAG_BATCH:
		err = got_batch(s, o, to, from, p, len);
		break;
	case TAG_FLUSH:
		if (len != sizeof(h) || (memcpy(&h, p, sizeof(h)), h.cookie == 0)) {
			err = -EPROTO;
			break;
		}
		got_flush(s, o, to, from, h.cookie);
		break;
	case TAG_ANSWER:
		err = got_answer(s, o, to, from, p, len);
		break;
	case TAG_LOCK:
	case TAG_UNLOCK:
		if (len != sizeof(h)) {
			err = -EPROTO;
			break;
		}
		memcpy(&h, p, sizeof(h));
		if (env->tag == TAG_LOCK)
			got_lock(s->t, s->w->c->context, to->world_rank, shl_comm_world_rank(s->w->c, from),
				 h.excl);
		else
			shl_rma_lock_release(s->t, h.excl);
		break;
	case TAG_GRANT:
		atomic_store_explicit(&o->granted[from], 1, memory_order_release);
		shl_rank_wake(to);
		break;
	default:
		err = -EPROTO;
	}
	in_arrival = false;
	if (err == 0)
		shl_pool_put(env);
	return err;
}

/* ---- exposure ---- */

static void origin_free(struct origin *o)
{
	if (o == NULL)
		return;
	pthread_mutex_destroy(&o->mu);
	free(o->head);
	free(o->last);
	if (o->batch != NULL)
		for (int i = 0; i < o->nbatch; i++)
			free(o->batch[i]);
	free(o->batch);
	free(o->blen);
	pthread_mutex_destroy(&o->bmu);
	free(o->silent);
	free(o->err);
	free(o->granted);
	free(o->seen);
	free(o);
}

int shl_rma_remote_expose(struct shl_win *w, struct shl_win_target *t)
{
	int world = shl_comm_world_rank(w->c, w->rank);  /* peers[] is not filled yet */
	struct origin *o = calloc(1, sizeof(*o));
	struct node *nd;

	if (o == NULL)
		return -ENOMEM;
	pthread_mutex_init(&o->mu, NULL);
	pthread_mutex_init(&o->bmu, NULL);
	o->nbatch = w->size;
	o->batch = calloc((size_t)w->size, sizeof(*o->batch));
	o->blen = calloc((size_t)w->size, sizeof(*o->blen));
	o->head = calloc((size_t)w->size, sizeof(*o->head));
	o->last = calloc((size_t)w->size, sizeof(*o->last));
	o->silent = calloc((size_t)w->size, sizeof(*o->silent));
	o->err = calloc((size_t)w->size, sizeof(*o->err));
	o->granted = calloc((size_t)w->size, sizeof(*o->granted));
	o->seen = calloc((size_t)w->size, sizeof(*o->seen));
	if (o->head == NULL || o->last == NULL || o->silent == NULL || o->err == NULL ||
	    o->granted == NULL || o->seen == NULL || o->batch == NULL || o->blen == NULL) {
		origin_free(o);
		return -ENOMEM;
	}
	pthread_mutex_lock(&exposing);
	nd = node_of(w->c->context);
	if (nd == NULL) {
		nd = calloc(1, sizeof(*nd) + (size_t)shl_job.size * sizeof(nd->slot[0]));
		if (nd == NULL || shl_route_rma_set(w->c->context, &nd->link) < 0) {
			pthread_mutex_unlock(&exposing);
			free(nd);
			origin_free(o);
			return -ENOMEM;
		}
	}
	nd->slot[world].w = w;
	nd->slot[world].t = t;
	atomic_store_explicit(&nd->slot[world].o, o, memory_order_release);
	nd->nexposed++;
	pthread_mutex_unlock(&exposing);
	return 0;
}

void shl_rma_remote_forget(struct shl_win *w)
{
	int world = shl_comm_world_rank(w->c, w->rank);  /* peers[] is not filled yet */
	struct origin *o = NULL;
	struct node *nd;

	pthread_mutex_lock(&exposing);
	nd = node_of(w->c->context);
	if (nd != NULL) {
		o = atomic_exchange(&nd->slot[world].o, NULL);
		nd->slot[world].w = NULL;
		nd->slot[world].t = NULL;
		if (o != NULL && --nd->nexposed == 0)
			shl_route_rma_clear(w->c->context);  /* freed once no arrival reads it */
	}
	pthread_mutex_unlock(&exposing);
	origin_free(o);
}
