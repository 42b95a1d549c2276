/* The small-message paths of the blocking Bcast, Reduce and Allreduce on an
 * intracommunicator: rings of cells in the communicator's shared object, through which
 * members copy without a meeting, a lock or an allocation. Entered by rank threads (one
 * call per member per round). Must not be used by a call whose members may take other
 * paths: every member decides from what they agree on (intracommunicator, size, bytes).
 *
 * Rounds. Each member counts its ring-path calls per ring (c->rounds[kind]); round k uses
 * cell (k - 1) % ncells. A cell is `open` for one round at a time: members of round k
 * wait for open == k (only when the ring is full: the previous user of the cell, round
 * k - ncells, is not done yet), and the member that finishes round k opens it for
 * k + ncells. No member waits for a later round, so rounds complete in order per cell.
 *
 * Bcast: the root claims the cell (a second member believing it is the root finds it
 * claimed and reads as a non-root with MPI_ERR_ROOT), packs its data into it, publishes
 * ready = k and returns: it waits for nobody unless the ring is full. Each other member
 * waits for ready == k, unpacks, and counts itself done; the last of the n - 1 reopens.
 *
 * Reduce, Allreduce: every member packs its input into its own segment of the cell with
 * its count and root, and counts itself arrived. The member whose arrival completes the
 * round checks that all agree (bytes, op, root), folds the segments strictly in rank order
 * into the cell's result exactly as the meeting path folds (coll_reduce.c: same kernels,
 * same order, so results are bitwise the same on every rank and as before), and publishes
 * ready = k. Reduce: the root (every member that believes it is the root) waits for ready
 * and copies the result out; the other members return once arrived. Allreduce: everyone
 * waits and copies. The last member through reopens the cell.
 *
 * Waiting: a member polls (shl_poll), then counts itself in the ring's `sleepers`, records
 * the event it waits for in its own `want` word (round and word, re-armed at each look) and
 * sleeps in shl_wait. A member that publishes an event with a seq_cst RMW reads `sleepers`
 * (seq_cst) and, if any, takes every `want` naming that event back to 0 (a CAS, so a rank
 * woken once is not woken again by later rounds before it runs) and wakes that rank
 * (shl_rank_wake: each rank sleeps on its own futex). The orders pair as in shl_wait:
 * either the waiter * sees the publication in its last look, or the publisher sees its `want`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/coll_internal.h"

/* Cells per ring. A root may run this many broadcasts (a member this many reductions)
 * ahead of the slowest member before it waits. */
#define SHL_COLL_BCAST_CELLS 64
#define SHL_COLL_RED_CELLS 32

/* Budget of one reduction cell's segments: a member's segment is this divided among the
 * n members and the result, capped at shl_job.coll_small_max and rounded down to cache
 * lines; so a 64-rank ring is 16 cells of about 64 KiB and reductions up to 960 B take it. */
#define SHL_COLL_RED_BUDGET (32 * 1024)

/* The state words of a cell, then its data. `open`, `claimed` and `done` are written by
 * the members finishing a round; `ready` and the header by the one that publishes it;
 * `arrived` by every member of a reduction. */
struct cell {
	alignas(64) _Atomic uint64_t open;    /* the round that may use the cell now */
	_Atomic uint64_t claimed;             /* bcast: the last round a root claimed */
	_Atomic int done;                     /* members through with the open round */
	alignas(64) _Atomic uint64_t ready;   /* the round whose data (result) is published */
	int err;                              /* reductions: the round's error class, or 0 */
	int need;                             /* members that read the published data */
	int root;                             /* bcast: the root's rank */
	size_t len;                           /* bcast: bytes packed into data */
	alignas(64) _Atomic int arrived;      /* reductions: members that have arrived */
	alignas(64) char data[];              /* bcast: payload; reduce: result, segments */
};

/* A reduction member's segment: what it passed, then its packed input. */
struct seg {
	size_t bytes;
	enum shl_op_kind kind;
	int root;
	alignas(64) char data[];
};

/* The event a sleeping member waits for: 2 * round + which word (0 ready, 1 open). */
struct want {
	alignas(64) _Atomic uint64_t tag;
};

struct shl_coll_ring {
	int ncells;
	size_t cell_bytes;                    /* stride between cells */
	size_t seg;                           /* largest payload (bcast) or segment (reduce) */
	struct want *want;                    /* by member, in this allocation */
	alignas(64) _Atomic int sleepers;     /* members counted in before sleeping on it */
	alignas(64) char cells[];
};

static_assert(sizeof(struct cell) % 64 == 0, "a cell's data starts a cache line");
static_assert(sizeof(struct seg) == 64, "a segment's header is one cache line");

/* The largest reduction segment for n members: every member agrees on it. */
static size_t red_seg(int n)
{
	size_t s = SHL_COLL_RED_BUDGET / ((size_t)n + 1);

	return (s < shl_job.coll_small_max ? s : shl_job.coll_small_max) / 64 * 64;
}

bool shl_coll_small_ok(const struct shl_comm *c, enum shl_ring_kind kind, size_t bytes)
{
	if (c->inter)
		return false;
	return bytes <= (kind == SHL_RING_BCAST ? shl_job.coll_small_max : red_seg(c->size));
}

void shl_coll_ring_free(struct shl_coll_ring *g)
{
	free(g);
}

static struct cell *cell_at(struct shl_coll_ring *g, uint64_t k)
{
	return (struct cell *)(g->cells + (size_t)((k - 1) % (uint64_t)g->ncells) * g->cell_bytes);
}

static struct seg *seg_at(struct shl_coll_ring *g, struct cell *cl, int i)
{
	return (struct seg *)(cl->data + g->seg + (size_t)i * (sizeof(struct seg) + g->seg));
}

/* The communicator's ring of `kind`, made by the first member to need it. */
static struct shl_coll_ring *ring_get(struct shl_comm_shared *sh, enum shl_ring_kind kind)
{
	/* Acquire: pairs with the release of the compare-exchange that installed it. */
	struct shl_coll_ring *g = atomic_load_explicit(&sh->ring[kind], memory_order_acquire);
	struct shl_coll_ring *none = NULL;
	size_t seg, cell;
	int ncells = kind == SHL_RING_BCAST ? SHL_COLL_BCAST_CELLS : SHL_COLL_RED_CELLS;

	if (g != NULL)
		return g;
	if (kind == SHL_RING_BCAST) {
		seg = (shl_job.coll_small_max + 63) / 64 * 64;
		cell = sizeof(struct cell) + seg;
	} else {
		seg = red_seg(sh->nmembers);
		cell = sizeof(struct cell) + seg + (size_t)sh->nmembers * (sizeof(struct seg) + seg);
	}
	size_t bytes = sizeof(*g) + (size_t)ncells * cell + (size_t)sh->nmembers * sizeof(struct want);
	g = aligned_alloc(64, bytes);
	if (g == NULL)
		return NULL;
	memset(g, 0, bytes);
	g->ncells = ncells;
	g->want = (struct want *)(g->cells + (size_t)ncells * cell);
	g->cell_bytes = cell;
	g->seg = seg;
	for (int j = 0; j < g->ncells; j++)
		atomic_init(&cell_at(g, (uint64_t)j + 1)->open, (uint64_t)j + 1);
	if (!atomic_compare_exchange_strong_explicit(&sh->ring[kind], &none, g,
						     memory_order_acq_rel, memory_order_acquire)) {
		free(g);
		g = none;
	}
	return g;
}

/* ---- waiting and waking ---- */

enum { READY, OPEN };

struct until {
	_Atomic uint64_t *word;
	uint64_t k;
	_Atomic uint64_t *want;
	uint64_t tag;
};

static bool reached(void *arg)
{
	struct until *u = arg;

	/* seq_cst: after the `want` store (armed), against publish's RMW. */
	return atomic_load(u->word) == u->k;
}

static bool armed(void *arg)
{
	struct until *u = arg;

	atomic_store(u->want, u->tag);
	return reached(u);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Oversubscribed, shl_poll polls once; a wait for one running producer (a root's next
 * round, a cell's last reader) still polls for shl_job.coll_spin_ns: the producer usually
 * publishes within it, and sleeping between its rounds made members chase it one wake-up
 * per round (see SHL_COLL_SPIN_US). */
static bool spin(struct until *u)
{
	if (shl_job.spin_ns != 0 || shl_job.coll_spin_ns == 0)
		return false;
	uint64_t end = now_ns() + shl_job.coll_spin_ns;
	for (;;) {
		for (int i = 0; i < 64; i++) {
			if (reached(u))
				return true;
			__builtin_ia32_pause();
		}
		if (now_ns() > end)
			return false;
	}
}

/* Owner thread, rank unlocked: wait until word `which` of `cl` is k, polling (`one`: for
 * one producer, see spin), then sleeping. */
static void ring_wait(struct shl_rank *r, struct shl_coll_ring *g, const struct shl_comm *c,
		      struct cell *cl, int which, uint64_t k, bool one)
{
	struct until u = { which == READY ? &cl->ready : &cl->open, k,
			   &g->want[c->member].tag, 2 * k + (uint64_t)which };

	if (reached(&u))
		return;
	shl_rank_lock(r);
	if (!shl_poll(r, reached, &u) && !(one && spin(&u))) {
		atomic_fetch_add(&g->sleepers, 1);
		shl_wait(r, armed, &u);
		atomic_fetch_sub(&g->sleepers, 1);
	}
	shl_rank_unlock(r);
}

/* Publish word `which` of `cl` = k (release: what the caller wrote before), waking the
 * members asleep waiting for it. */
static void publish(struct shl_coll_ring *g, const struct shl_comm *c, struct cell *cl,
		    int which, uint64_t k)
{
	const struct shl_comm_shared *sh = c->sh;
	uint64_t tag = 2 * k + (uint64_t)which;

	atomic_exchange(which == READY ? &cl->ready : &cl->open, k);  /* seq_cst RMW */
	if (atomic_load(&g->sleepers) == 0)
		return;
	for (int i = 0; i < sh->nmembers; i++) {
		uint64_t t = tag;
		if (i == c->member || atomic_load(&g->want[i].tag) != tag)
			continue;
		/* seq_cst RMW, then shl_rank_wake: see there. */
		if (atomic_compare_exchange_strong(&g->want[i].tag, &t, 0))
			shl_rank_wake(shl_job.ranks[sh->world[i]]);
	}
}

/* Count the caller through round k of `cl`; the `need`-th reopens the cell. */
static void finish(struct shl_coll_ring *g, const struct shl_comm *c, struct cell *cl,
		   uint64_t k, int need)
{
	/* acq_rel: the last sees every reader's reads done before it reopens the cell. */
	if (need > 0 && atomic_fetch_add(&cl->done, 1) + 1 != need)
		return;
	atomic_store_explicit(&cl->done, 0, memory_order_relaxed);  /* ordered by `open` */
	publish(g, c, cl, OPEN, k + (uint64_t)g->ncells);
}

/* ---- broadcast ---- */

int shl_coll_small_bcast(struct shl_rank *r, struct shl_comm *c, void *buf, int count,
			 MPI_Datatype type, int root)
{
	size_t bytes = (size_t)count * type->size;
	uint64_t k = ++c->rounds[SHL_RING_BCAST];
	struct shl_coll_ring *g;
	struct cell *cl;
	int err = MPI_SUCCESS;

	c->seq++;  /* keep every member's collective numbering aligned */
	if (c->size == 1)
		return MPI_SUCCESS;
	if ((g = ring_get(c->sh, SHL_RING_BCAST)) == NULL)
		return MPI_ERR_NO_MEM;
	cl = cell_at(g, k);
	if (root == c->rank) {
		ring_wait(r, g, c, cl, OPEN, k, true);
		if (atomic_exchange(&cl->claimed, k) != k) {
			cl->root = root;
			cl->len = bytes;
			shl_dt_copy(cl->data, NULL, buf, type, bytes);
			publish(g, c, cl, READY, k);
			return MPI_SUCCESS;
		}
		err = MPI_ERR_ROOT;  /* another member claimed this round as its root */
	}
	ring_wait(r, g, c, cl, READY, k, true);
	if (cl->root != root) {
		err = MPI_ERR_ROOT;
	} else {
		size_t n = cl->len;
		if (n > bytes) {
			err = MPI_ERR_TRUNCATE;
			n = bytes;
		}
		shl_dt_copy(buf, type, cl->data, NULL, n);
	}
	finish(g, c, cl, k, c->size - 1);
	return err;
}

/* ---- reductions ---- */

/* The last arriver of round k: check the members agree, fold their segments in rank order
 * into the cell's result with the caller's op and type (a user function runs in its
 * thread with its handles, as in the meeting path). Returns 0 or an error class. */
static int fold_cell(struct shl_coll_ring *g, struct cell *cl, int n, struct shl_op *op,
		     MPI_Datatype type, int count, bool rooted)
{
	struct seg *s0 = seg_at(g, cl, 0);
	struct shl_fold f;
	char why[SHL_OP_WHY];

	for (int i = 1; i < n; i++) {
		struct seg *s = seg_at(g, cl, i);
		if (rooted && s->root != s0->root)
			return MPI_ERR_ROOT;
		if (s->kind != s0->kind)
			return MPI_ERR_OP;
		if (s->bytes != s0->bytes)
			return MPI_ERR_COUNT;
	}
	if (shl_fold_init(&f, op, type, count, false, why) != 0)
		return MPI_ERR_OP;  /* each member checked its own op and type: a mismatch */
	if (f.bytes != s0->bytes)
		return MPI_ERR_COUNT;
	if (f.bytes == 0)
		return 0;
	if (f.op->kind != SHL_OP_USER) {
		/* The kernel computes inout = in op inout; predefined ops are commutative
		 * bitwise, so this is acc op segment, as shl_fold_step computes it. */
		memcpy(cl->data, s0->data, f.bytes);
		for (int i = 1; i < n && f.k != NULL; i++)
			f.k(seg_at(g, cl, i)->data, cl->data, f.nbasic);
		return 0;
	}
	/* A user function works on the caller's own layout: fold in accumulators of it. */
	void *acc = shl_fold_buf(&f), *tmp = shl_fold_buf(&f);
	int err = 0;
	if (acc == NULL || tmp == NULL) {
		err = MPI_ERR_NO_MEM;
		goto free_bufs;
	}
	shl_fold_load(&f, acc, s0->data, NULL);
	for (int i = 1; i < n; i++) {
		int len = count;
		MPI_Datatype t = type;
		void *x = tmp;
		/* inoutvec = invec op inoutvec: acc as invec, the segment as inoutvec. */
		shl_fold_load(&f, x, seg_at(g, cl, i)->data, NULL);
		op->fn(acc, x, &len, &t);
		tmp = acc;
		acc = x;
	}
	shl_fold_store(&f, cl->data, NULL, acc);
free_bufs:
	shl_fold_free(&f, acc);
	shl_fold_free(&f, tmp);
	return err;
}

int shl_coll_small_reduce(struct shl_rank *r, struct shl_comm *c, const void *sbuf, void *rbuf,
			  int count, MPI_Datatype type, struct shl_op *op, int root)
{
	size_t bytes = (size_t)count * type->size;
	uint64_t k = ++c->rounds[SHL_RING_REDUCE];
	bool rooted = root >= 0, reads = !rooted || root == c->rank;
	int n = c->size, err;
	struct shl_coll_ring *g;
	struct cell *cl;

	c->seq++;  /* keep every member's collective numbering aligned */
	if ((g = ring_get(c->sh, SHL_RING_REDUCE)) == NULL)
		return MPI_ERR_NO_MEM;
	cl = cell_at(g, k);
	ring_wait(r, g, c, cl, OPEN, k, true);
	struct seg *s = seg_at(g, cl, c->rank);
	s->bytes = bytes;
	s->kind = op->kind;
	s->root = root;
	shl_dt_copy(s->data, NULL, sbuf == MPI_IN_PLACE ? rbuf : sbuf, type, bytes);
	/* acq_rel: the last arriver reads every member's segment. */
	if (atomic_fetch_add(&cl->arrived, 1) + 1 == n) {
		atomic_store_explicit(&cl->arrived, 0, memory_order_relaxed);  /* by `open` */
		cl->err = fold_cell(g, cl, n, op, type, count, rooted);
		cl->need = n;
		if (rooted) {
			/* Whoever believes it is the root reads; all of them, if they differ. */
			cl->need = 0;
			for (int i = 0; i < n; i++)
				cl->need += seg_at(g, cl, i)->root == i;
		}
		if (cl->need == 0) {
			finish(g, c, cl, k, 0);
			return MPI_SUCCESS;
		}
		publish(g, c, cl, READY, k);
	}
	if (!reads)
		return MPI_SUCCESS;
	ring_wait(r, g, c, cl, READY, k, false);
	err = cl->err;
	if (err == MPI_SUCCESS)
		shl_dt_copy(rbuf, type, cl->data, NULL, bytes);
	finish(g, c, cl, k, cl->need);
	return err;
}
