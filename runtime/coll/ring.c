/* The small-message paths of the blocking Bcast, Reduce and Allreduce (and, up to
 * SHL_COLL_FOLD_ALL members, Allgather and Alltoall) on an intracommunicator: rings of
 * cells in the communicator's shared object, through which members copy without a
 * meeting, a lock or an allocation. Entered by rank threads (one
 * call per member per round). Must not be used by a call whose members may take other
 * paths: every member decides from what they agree on (intracommunicator, size, bytes).
 *
 * Rounds. Each member counts its ring-path calls per ring (c->rounds[kind]); round k uses
 * cell (k - 1) % ncells, and a member about to write round k into a cell first makes sure
 * every member is through with round k - ncells, the cell's previous one. Up to
 * SHL_COLL_FOLD_ALL members, each stamps `done` (its own line) with the last round it is
 * through with, and a writer checks the stamps, caching their minimum (c->ring_free): no
 * shared counter per round. Above, each member counts itself in the cell's `finished` and
 * the last reopens the cell (`open`): checking n stamps per round cost a 64-rank Reduce
 * 1.5-3x. No member waits for a later round.
 *
 * Bcast: the root claims the cell (a second member believing it is the root finds it
 * claimed and reads as a non-root with MPI_ERR_ROOT), packs its data into it after the
 * header, on the header's cache line for payloads up to 32 bytes, publishes ready = k and
 * returns. Each other member waits for ready == k and unpacks. A round moves about one
 * cache line each way at 2 ranks. On a communicator of 2, from SHL_COLL_BCAST_DIRECT_MIN
 * bytes, the cell says where the root's data is instead, and the root returns once the
 * reader has copied it.
 *
 * Reduce, Allreduce: every member packs its input into its own segment of the cell with
 * its count, op and root, and a stamp = k. Up to SHL_COLL_FOLD_ALL members, whoever needs
 * the result (every member for Allreduce, the root for Reduce) waits for every stamp and
 * folds the segments itself; above, members count themselves in `arrived` and the arrival
 * that completes the round folds once into the cell's result and publishes ready = k.
 * Either way the fold checks that everyone agrees (bytes, op, root) and combines the
 * segments strictly in rank order with the meeting path's kernels (coll/reduce.c), so
 * results are bitwise the same on every rank and as before. Reduce non-roots return once
 * their input is in. Up to SHL_COLL_FOLD_ALL members, from SHL_COLL_DIRECT_MIN bytes
 * (Reduce: SHL_COLL_DIRECT_MIN_ROOTED) a member packs nothing: its segment says where its
 * input is (its send buffer, or a buffer of its own when the input is not dense or in
 * place and does not fit the segment), the folds read it there, and it returns once every
 * member that folds has stamped `done` for the round. So reductions larger than a segment
 * take the ring too, up to SHL_COLL_DIRECT_MAX bytes read per folding member.
 *
 * Allgather, Alltoall (up to SHL_COLL_FOLD_ALL members, the reduction ring's rounds): every
 * member packs its block (its n blocks) into its segment, stamps it, and copies every other
 * member's block (block `rank` of it) out as soon as that member's stamp is there. From
 * SHL_COLL_DIRECT_MIN bytes to pack on, nothing is packed: the segment says where the
 * member's blocks are, the others copy straight from its buffer, and it returns once every
 * other member has stamped `done` for the round. Their segments carry a root below -1, so a
 * reduction and a mover meeting in one round both report MPI_ERR_NOT_SAME.
 *
 * Waiting: a member polls (shl_poll), then counts itself in the ring's `sleepers` (or
 * `free_sleepers`, waiting for a stamp, so that the stamp of every round checks a word
 * that is almost always 0: scanning on each one cost 1.5x at 64 ranks), records
 * the event it waits for in its own `want` word (re-armed at each look: a stamp or word
 * reaching a round) and sleeps in shl_wait. A member that publishes an event with a
 * seq_cst RMW or store reads `sleepers` (seq_cst) and, if any, takes every `want` its event
 * satisfies back to 0 (a CAS, so a rank woken once is not woken again before it runs) and
 * wakes that rank (shl_rank_wake: each rank sleeps on its own futex). The orders pair as
 * in shl_wait: either the waiter sees the publication in its last look, or the publisher
 * sees its `want`. A member asleep also wakes every SHL_COLL_CHECK_NS to see whether
 * another member's call at the same number took another path (shl_coll_check): then its
 * call can never complete, and it returns MPI_ERR_NOT_SAME leaving the ring as it is (the
 * communicator takes no further collectives). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/coll/internal.h"

/* Cells per ring. A root may run this many broadcasts (a member this many reductions)
 * ahead of the slowest member before it waits. */
#define SHL_COLL_BCAST_CELLS 64
#define SHL_COLL_RED_CELLS 32

/* Budget of one reduction cell's segments: a member's segment is this divided among the
 * n members and the result, capped at shl_job.coll_small_max and rounded down to cache
 * lines; so a 64-rank ring is 32 cells of about 32 KiB, and reductions up to 448 B take
 * it at 64 ranks. */
#define SHL_COLL_RED_BUDGET (32 * 1024)

/* Up to this many members, every member that needs a reduction's result folds the
 * segments itself (no shared counter); above, the last arriver folds once for all. */
#define SHL_COLL_FOLD_ALL 4

/* Allgather and Alltoall blocks are copied straight from the sender's buffer, not packed
 * into its segment, when packing would write at least this many bytes (except in-place
 * Alltoall, whose receive blocks are its send blocks): one copy instead of two, and no
 * segment lines written and moved to the readers. The sender then waits for every
 * reader's `done`: nearly free when waits poll, a park and a switch per member when ranks
 * outnumber cores, hence the second threshold. Measured in docs/performance.md,
 * "Allgather and Alltoall copied from the sender's buffer". */
#define SHL_COLL_DIRECT_MIN 512
#define SHL_COLL_DIRECT_MIN_PARKED (32 * 1024)

/* On a communicator of 2, while waits poll, a Bcast of at least SHL_COLL_BCAST_DIRECT_MIN
 * and at most SHL_COLL_BCAST_DIRECT_MAX bytes is read from the root's buffer: the cell
 * says where it is, and the root returns once the reader's `done` says it has copied. One
 * copy instead of two, and no cell lines written by the root and moved to the reader. The
 * reader tells the root if it named another root, so both report it, as in a meeting;
 * with more readers, one that agrees with the root would not hear of another that does
 * not. Below 1 KiB the copy through a cell is as fast, and from 256 KiB a meeting's
 * shared copy is faster (figures: docs/performance.md, "Broadcasts read from the root's
 * buffer"). */
#define SHL_COLL_BCAST_DIRECT_MIN 1024
#define SHL_COLL_BCAST_DIRECT_MAX (128 * 1024)

/* Up to SHL_COLL_FOLD_ALL members, a reduction's input is read where it is (a dense one
 * in the caller's buffer, else packed in a buffer of its own) from SHL_COLL_DIRECT_MIN
 * bytes for Allreduce and from this many for Reduce, whose non-roots then wait for the
 * root instead of returning once their input is packed. Above the segments it is so too,
 * instead of a meeting, while a member that folds reads at most SHL_COLL_DIRECT_MAX bytes
 * (its n inputs): beyond, a meeting's shared fold is faster. Measured in
 * docs/performance.md, "Reductions read where their inputs are". */
#define SHL_COLL_DIRECT_MIN_ROOTED 4096
#define SHL_COLL_DIRECT_MAX (256 * 1024)

/* A reader that usually runs behind its producer (a Bcast reader behind the root; a Reduce
 * root behind the other members, which return once their input is in) asks for the next
 * round's lines (the next cell's header and payload; the members' next segments) once it
 * has this round's, up to these many bytes of payload: the producer has mostly written
 * them, and the next call finds them in its cache. Larger, the reader catches up with the
 * producer and takes lines before they are written. Measured in docs/performance.md,
 * "Readers that ask for the next round's lines". */
#define SHL_COLL_PREFETCH_BCAST 128
#define SHL_COLL_PREFETCH_REDUCE 1024

/* Bytes of a cell's header before its payload (bcast) or result (reduce). */
#define HEAD 32

/* A cell: the header, then the payload (bcast: the root's data, or where it is; reduce:
 * the result), written by the member that publishes `ready`; then, for reductions,
 * `arrived` on its own line and the members' segments. */
struct cell {
	alignas(64) _Atomic uint64_t ready;   /* the round whose data (result) is published */
	_Atomic uint64_t claimed;             /* bcast: the last round a root claimed */
	uint32_t len;                         /* bcast: the root's bytes */
	int32_t root;                         /* bcast: the root's rank */
	union {
		int32_t err;                  /* reduce: the round's error class, or 0 */
		uint32_t seq;                 /* bcast: the root's collective number, low bits */
	};
	union {
		int32_t need;                 /* reduce, large: members counting `finished` */
		struct {
			uint8_t direct;       /* bcast: data is a struct direct (the root's
					       * buffer), read until the reader's `done` */
			_Atomic uint8_t other_root;  /* bcast, direct: the reader named another
						      * root (the root reports it too) */
		};
	};
	char data[];                          /* at HEAD */
};

/* A member's segment: its stamp and arguments, then its packed input. */
struct seg {
	_Atomic uint64_t stamp;               /* the round whose input is here */
	uint32_t bytes;
	int32_t kind;                         /* enum shl_op_kind (reductions) */
	int32_t root;
	uint32_t seq;                         /* the member's collective number, low bits */
	uint32_t sig;                         /* type_sig of its datatype */
	uint32_t direct;                      /* 1: data is a struct direct, saying where
					       * the member's input (blocks) are */
	alignas(16) char data[];              /* at 32, aligned as malloc'ed accumulators */
};

/* A member's input (blocks) where they are, in its segment's data when `direct`: a
 * reduction's dense input at p; a mover's block j at p + j * stride (Alltoall; Allgather's
 * one block at p), of type t. A direct Bcast's cell data: the root's buffer at p. */
struct direct {
	const char *p;
	const struct shl_datatype *t;
	ptrdiff_t stride;
};

/* Above SHL_COLL_FOLD_ALL members: who is through with a cell's round, on its own line. */
struct reuse {
	alignas(64) _Atomic uint64_t open;    /* the round that may write the cell now */
	_Atomic int finished;                 /* members through with the round before */
};

/* One member's word on its own line. */
struct line {
	alignas(64) _Atomic uint64_t v;
};

struct shl_coll_ring {
	int ncells;
	size_t cell_bytes;                    /* stride between cells */
	size_t seg;                           /* largest payload (bcast) or segment (reduce) */
	size_t seg_stride;                    /* reduce: between segments */
	size_t reuse_off;                     /* offset of the cell's struct reuse */
	size_t arrived_off;                   /* reduce: offset of `arrived` in a cell */
	struct line *want;                    /* by member: the event it sleeps for, or 0 */
	struct line *done;                    /* by member: the last round it is through with */
	alignas(64) _Atomic int sleepers;     /* members counted in before sleeping for data */
	_Atomic int free_sleepers;            /* ... for a stamp (a cell to reuse): rare */
	alignas(64) char cells[];
};

static_assert(offsetof(struct cell, data) == HEAD, "a cell's payload starts at HEAD");
static_assert(offsetof(struct seg, data) == 32, "a segment's data is 16-aligned");

static size_t up64(size_t x)
{
	return (x + 63) / 64 * 64;
}

/* The largest reduction segment for n members: every member agrees on it. */
static size_t red_seg(int n)
{
	size_t s = SHL_COLL_RED_BUDGET / ((size_t)n + 1), cap = shl_job.coll_small_max;

	/* Up to SHL_COLL_FOLD_ALL members the budget alone limits it (10 KiB at 2 members):
	 * a 2-rank Reduce of 8 KiB took 2.4 us in a meeting (Open MPI: 3.2). */
	if (n <= SHL_COLL_FOLD_ALL && cap <= SIZE_MAX / 4)
		cap *= 4;
	return (s < cap ? s : cap) / 64 * 64;
}

/* Whether `c` may use the rings at all: an intracommunicator of one node (off-node
 * collectives are coll/net.c's). */
static bool ring_comm(const struct shl_comm *c)
{
	return !c->inter && !c->sh->offnode;
}

/* red_seg for c's members: the reduction ring's, once it is made (a load, not a division). */
static size_t comm_seg(const struct shl_comm *c)
{
	const struct shl_coll_ring *g = atomic_load_explicit(&c->sh->ring[SHL_RING_REDUCE],
							     memory_order_acquire);

	return g != NULL ? g->seg : red_seg(c->size);
}

/* Whether a Bcast of `bytes` on `c` is read from the root's buffer (see
 * SHL_COLL_BCAST_DIRECT_MIN): every member decides alike. */
static bool bcasts_direct(const struct shl_comm *c, size_t bytes)
{
	return c->size == 2 && shl_job.spin_ns != 0 &&
	       bytes >= SHL_COLL_BCAST_DIRECT_MIN && bytes <= SHL_COLL_BCAST_DIRECT_MAX;
}

bool shl_coll_small_bcast_ok(const struct shl_comm *c, size_t bytes)
{
	return ring_comm(c) && (bytes <= shl_job.coll_small_max || bcasts_direct(c, bytes));
}

void shl_coll_ring_free(struct shl_coll_ring *g)
{
	free(g);
}

static_assert((SHL_COLL_BCAST_CELLS & (SHL_COLL_BCAST_CELLS - 1)) == 0 &&
	      (SHL_COLL_RED_CELLS & (SHL_COLL_RED_CELLS - 1)) == 0,
	      "cell_at masks: the rings' cell counts are powers of two");

/* Round k's cell. A mask, not a division (with the division in comm_seg, 2-rank calls of
 * 4-64 B took 1-5 ns more: docs/performance.md, "Where a 2-rank round goes"). */
static struct cell *cell_at(struct shl_coll_ring *g, uint64_t k)
{
	return (struct cell *)(g->cells + (size_t)((k - 1) & (uint64_t)(g->ncells - 1)) *
					  g->cell_bytes);
}

static struct seg *seg_at(struct shl_coll_ring *g, struct cell *cl, int i)
{
	return (struct seg *)((char *)cl + g->arrived_off + 64 + (size_t)i * g->seg_stride);
}

static _Atomic int *arrived_at(struct shl_coll_ring *g, struct cell *cl)
{
	return (_Atomic int *)((char *)cl + g->arrived_off);
}

static struct reuse *reuse_at(struct shl_coll_ring *g, struct cell *cl)
{
	return (struct reuse *)((char *)cl + g->reuse_off);
}

/* Ask for the lines of `bytes` bytes at p ahead of their use. */
static void prefetch(const void *p, size_t bytes)
{
	for (size_t o = 0; o < bytes; o += 64)
		__builtin_prefetch((const char *)p + o);
}

/* ring_get for the first member to need the ring: make it, or take the one another
 * member installed meanwhile. */
/* Held by the member making a ring, so that one member of a communicator allocates it and
 * the others, arriving at once, wait for it instead of each clearing a ring of its own
 * (which, freed again, would stay in the allocator's arenas: tens of MB at 256 ranks). */
static pthread_mutex_t ring_making = PTHREAD_MUTEX_INITIALIZER;

static struct shl_coll_ring *ring_make(struct shl_comm_shared *sh, enum shl_ring_kind kind)
{
	struct shl_coll_ring *g;
	int n = sh->nmembers;
	int ncells = kind == SHL_RING_BCAST ? SHL_COLL_BCAST_CELLS : SHL_COLL_RED_CELLS;
	size_t seg, cell, stride = 0, reuse, arrived = 0;

	seg = kind == SHL_RING_BCAST ? shl_job.coll_small_max : red_seg(n);
	reuse = up64(HEAD + seg);
	cell = reuse + sizeof(struct reuse);
	if (kind == SHL_RING_REDUCE) {
		stride = up64(offsetof(struct seg, data) + seg);
		arrived = cell;
		cell = arrived + 64 + (size_t)n * stride;
	}
	size_t bytes = sizeof(*g) + (size_t)ncells * cell + 2 * (size_t)n * sizeof(struct line);

	pthread_mutex_lock(&ring_making);
	g = atomic_load_explicit(&sh->ring[kind], memory_order_acquire);
	if (g != NULL) {
		pthread_mutex_unlock(&ring_making);
		return g;  /* another member made it meanwhile */
	}
	g = aligned_alloc(64, bytes);
	if (g == NULL) {
		pthread_mutex_unlock(&ring_making);
		return NULL;
	}
	memset(g, 0, bytes);
	g->ncells = ncells;
	g->cell_bytes = cell;
	g->seg = seg;
	g->seg_stride = stride;
	g->reuse_off = reuse;
	g->arrived_off = arrived;
	g->want = (struct line *)(g->cells + (size_t)ncells * cell);
	g->done = g->want + n;
	/* Release: pairs with ring_get's acquire load. */
	atomic_store_explicit(&sh->ring[kind], g, memory_order_release);
	pthread_mutex_unlock(&ring_making);
	return g;
}

/* The communicator's ring of `kind`, made by the first member to need it. */
static inline struct shl_coll_ring *ring_get(struct shl_comm_shared *sh, enum shl_ring_kind kind)
{
	/* Acquire: pairs with the release of the store that installed it. */
	struct shl_coll_ring *g = atomic_load_explicit(&sh->ring[kind], memory_order_acquire);

	return likely(g != NULL) ? g : ring_make(sh, kind);
}

/* ---- waiting and waking ---- */

/* What a member waits for: a word reaching a round. Tags name the event for publishers:
 * which word, the member whose stamp it is (0 for `ready`), and the round. */
enum { READY, DONE, SEG, OPEN };

static uint64_t tag_of(int which, int member, uint64_t k)
{
	return k << 22 | (uint64_t)member << 2 | (uint64_t)which;
}

struct until {
	_Atomic uint64_t *word;
	uint64_t k;
	_Atomic uint64_t *want;
	uint64_t tag;
};

static bool reached(void *arg)
{
	struct until *u = arg;

	/* seq_cst: after the `want` store (armed), against the publisher's RMW or store. */
	return atomic_load(u->word) >= u->k;
}

static bool armed(void *arg)
{
	struct until *u = arg;

	atomic_store(u->want, u->tag);
	return reached(u);
}

/* Oversubscribed, shl_poll polls once; a wait for one producer (a root's next round, the
 * slowest member's stamp) still polls for shl_job.coll_spin_ns unless that member sleeps:
 * the producer usually publishes within it, and sleeping between its rounds made members
 * chase it one wake-up per round (see SHL_COLL_SPIN_US). Polling for a sleeping producer
 * only took the core from whoever would wake it (64 ranks, Reduce 8-32 B, -i 200 so the
 * ring wraps, 3 runs: 91-680 us per call polling, 42-110 us not). */
static bool spin(const struct shl_comm *c, struct until *u, int producer)
{
	if (shl_job.spin_ns != 0 || shl_job.coll_spin_ns == 0 || producer < 0)
		return false;
	if (atomic_load_explicit(&shl_job.ranks[c->sh->world[producer]]->sleepers,
				 memory_order_relaxed) > 0)
		return false;
	uint64_t end = shl_mono_ns() + shl_job.coll_spin_ns;
	for (;;) {
		for (int i = 0; i < 64; i++) {
			if (reached(u))
				return true;
			__builtin_ia32_pause();
		}
		if (shl_mono_ns() > end)
			return false;
	}
}

/* Owner thread, rank unlocked: wait until *word >= k, the event `tag`, polling (longer
 * for the one member `producer` that will publish it, see spin; -1: unknown or many),
 * then sleeping, and now and then checking that collective `seq` can complete at all
 * (shl_coll_check). Returns 0 or MPI_ERR_NOT_SAME. */
static int ring_wait(struct shl_rank *r, struct shl_coll_ring *g, struct shl_comm *c,
		     _Atomic uint64_t *word, uint64_t k, uint64_t tag, int producer, uint64_t seq)
{
	struct until u = { word, k, &g->want[c->member].v, tag };
	/* Every member stamps every round: those stamps check a counter of their own. */
	_Atomic int *count = (tag & 3) == DONE || (tag & 3) == OPEN ? &g->free_sleepers
								    : &g->sleepers;

	int err = 0;

	if (reached(&u))
		return 0;
	shl_rank_lock(r);
	if (!shl_poll(r, reached, &u) && !spin(c, &u, producer)) {
		atomic_fetch_add(count, 1);
		for (bool poll = true;
		     !shl_wait_once(r, armed, &u, SHL_COLL_CHECK_NS, poll);
		     poll = false)
			if ((err = shl_coll_check(c, seq)) != 0)
				break;
		atomic_fetch_sub(count, 1);
	}
	shl_rank_unlock(r);
	return err;
}

/* wake once some member counts itself asleep: look at every member's `want`. */
static void wake_sleepers(struct shl_coll_ring *g, const struct shl_comm *c, uint64_t tag,
			  uint64_t done_upto)
{
	const struct shl_comm_shared *sh = c->sh;

	for (int i = 0; i < sh->nmembers; i++) {
		uint64_t t = atomic_load(&g->want[i].v);
		if (t == 0 || i == c->member)
			continue;
		if (t != tag && (done_upto == 0 || (t & 3) != DONE ||
				 ((t >> 2) & 0xfffff) != (uint64_t)c->member || (t >> 22) > done_upto))
			continue;
		/* seq_cst RMW, then shl_rank_wake: see there. */
		if (atomic_compare_exchange_strong(&g->want[i].v, &t, 0))
			shl_rank_wake(shl_job.ranks[sh->world[i]]);
	}
}

/* After publishing events (seq_cst): wake the members asleep for them: those waiting for
 * exactly `tag` (0: none), and, when `done_upto` > 0 (the caller's stamp reached it),
 * those waiting for the caller's stamp to reach a round up to that. Almost always nobody
 * sleeps, and that costs one or two loads here. */
static inline void wake(struct shl_coll_ring *g, const struct shl_comm *c, uint64_t tag,
			uint64_t done_upto)
{
	bool rare = (tag & 3) == OPEN;

	/* seq_cst loads: after the caller's publication (see shl_rank_wake). */
	if ((tag != 0 && atomic_load(rare ? &g->free_sleepers : &g->sleepers) > 0) ||
	    (done_upto != 0 && atomic_load(&g->free_sleepers) > 0))
		wake_sleepers(g, c, tag, done_upto);
}

/* Up to SHL_COLL_FOLD_ALL members, a member stamps its segment with a release store and
 * looks for members asleep for it only later (*late true until then): before it waits
 * for another segment that is not there yet, or, if none, together with its `done` stamp
 * (finish_late), under one fence. Stamping with a seq_cst store stalled the member until
 * the segment's line had moved, while the other member's segment was usually there to be
 * read (2 ranks, 4 B Allgather: the stamp store was half of the call). Orders: the fence
 * stands between the stamp and the publisher's reads of `sleepers` and `want`, as the
 * seq_cst store did (see wake); nobody sleeps with *late still true (seg_wait). */
static void seg_publish(struct shl_coll_ring *g, const struct shl_comm *c, uint64_t k,
			bool *late)
{
	if (!*late)
		return;
	*late = false;
	atomic_thread_fence(memory_order_seq_cst);
	wake(g, c, tag_of(SEG, c->rank, k), 0);
}

/* seg_wait once member j's stamp was not there at the first look. */
static int seg_wait_slow(struct shl_rank *r, struct shl_coll_ring *g, struct shl_comm *c,
			 _Atomic uint64_t *stamp, int j, uint64_t k, uint64_t seq, bool *late)
{
	seg_publish(g, c, k, late);
	return ring_wait(r, g, c, stamp, k, tag_of(SEG, j, k), -1, seq);
}

/* Wait for member j's stamp of round k, first publishing the caller's if it has not yet
 * and j's is not there. Returns 0 or MPI_ERR_NOT_SAME (see ring_wait). */
static inline int seg_wait(struct shl_rank *r, struct shl_coll_ring *g, struct shl_comm *c,
			   struct cell *cl, int j, uint64_t k, uint64_t seq, bool *late)
{
	_Atomic uint64_t *stamp = &seg_at(g, cl, j)->stamp;

	/* Acquire: pairs with the stamp's release store; the segment is j's round k. */
	if (likely(atomic_load_explicit(stamp, memory_order_acquire) >= k))
		return 0;
	return seg_wait_slow(r, g, c, stamp, j, k, seq, late);
}

/* finish() for a member whose stamp may still be unpublished (*late): both stamps with
 * release stores, then one fence and one look for sleepers. */
static inline void finish_late(struct shl_coll_ring *g, const struct shl_comm *c, uint64_t k,
			       bool *late)
{
	/* Release: the caller's reads of the cell happen before the next writer's writes. */
	atomic_store_explicit(&g->done[c->member].v, k, memory_order_release);
	atomic_thread_fence(memory_order_seq_cst);
	wake(g, c, *late ? tag_of(SEG, c->rank, k) : 0, k);
	*late = false;
}

/* End a small ring's round k that returns `err`: publish the caller's stamp and, unless a
 * mismatch broke the communicator (then the ring is out of step for good and is left
 * alone), its `done` stamp too (finish_late). Returns `err`. */
static inline int end_round(struct shl_coll_ring *g, struct shl_comm *c, uint64_t k,
			    uint64_t seq, int err, bool *late)
{
	if (unlikely(err == MPI_ERR_NOT_SAME) && shl_coll_check(c, seq) != 0)
		seg_publish(g, c, k, late);
	else
		finish_late(g, c, k, late);
	return err;
}

/* The caller is through with round k of `cl`: stamp it (small communicators) or count
 * itself finished, the `need`-th reopening the cell; wake whoever waits to reuse it. Above
 * SHL_COLL_FOLD_ALL members only the members that read the cell after others wrote it
 * count: a broadcast's n - 1 readers; a reduction's readers of the result and the member
 * that folded. */
static void finish(struct shl_coll_ring *g, const struct shl_comm *c, struct cell *cl,
		   uint64_t k, int need)
{
	if (c->size <= SHL_COLL_FOLD_ALL) {
		/* seq_cst store: releases the caller's reads of the cell to the next writer. */
		atomic_store(&g->done[c->member].v, k);
		wake(g, c, 0, k);
		return;
	}
	struct reuse *u = reuse_at(g, cl);
	/* acq_rel: the last sees every member's reads done before it reopens the cell. */
	if (atomic_fetch_add(&u->finished, 1) + 1 != need)
		return;
	atomic_store_explicit(&u->finished, 0, memory_order_relaxed);  /* ordered by `open` */
	uint64_t next = k + (uint64_t)g->ncells;
	atomic_exchange(&u->open, next);  /* seq_cst RMW: see wake */
	wake(g, c, tag_of(OPEN, 0, next), 0);
}

/* wait_free when the answer needs a look at the members' shared words. */
static int wait_free_slow(struct shl_rank *r, struct shl_coll_ring *g, struct shl_comm *c,
			  enum shl_ring_kind kind, struct cell *cl, uint64_t k, int producer,
			  uint64_t seq)
{
	uint64_t n = (uint64_t)g->ncells, need = k - n, more = need + n / 2;
	int err = 0;

	if (c->size > SHL_COLL_FOLD_ALL) {
		_Atomic uint64_t *open = &reuse_at(g, cl)->open;
		if (atomic_load(open) < k) {
			/* Round k + n/2 - 1 may write once round k - n/2 - 1 is through, which
			 * every reader reaches after k - n: then most of the ring is free. */
			uint64_t far = k + n / 2 - 1;
			err = ring_wait(r, g, c, &reuse_at(g, cell_at(g, far))->open, far,
					tag_of(OPEN, 0, far), producer, seq);
			if (err != 0)
				return err;
		}
		return ring_wait(r, g, c, open, k, tag_of(OPEN, 0, k), producer, seq);
	}
	while (c->ring_free[kind] < need) {
		uint64_t low = UINT64_MAX;
		int lag = 0;
		for (int j = 0; j < c->size; j++) {
			/* Acquire (seq_cst): member j's reads of the cell happen before our
			 * writes into it. */
			uint64_t d = atomic_load(&g->done[j].v);
			if (d < low)
				low = d, lag = j;
		}
		c->ring_free[kind] = low;
		if (low < need) {
			/* Rounds up to k - 1 have been written: wait for more only that far. */
			uint64_t to = more < k - 1 ? more : k - 1;
			err = ring_wait(r, g, c, &g->done[lag].v, to, tag_of(DONE, lag, to), lag,
					seq);
			if (err != 0)
				return err;
		}
	}
	return 0;
}

/* Wait until every member is through with round k - ncells, the cell's previous round;
 * `producer`: the member whose finishing reopens cells, if one does (a Reduce's root).
 * A writer that finds the ring full waits until half of it is free, not just its cell:
 * polling for the one cell kept the word the slowest member stores every round bouncing
 * between the two (a root streaming 4-32 B broadcasts at 2 ranks, bench/bcast -i 20000,
 * 3 runs: 0.12-0.20 us per call, against 0.10-0.12 us with the half-ring wait).
 * The first rounds, and up to SHL_COLL_FOLD_ALL members a round that the cached minimum of
 * the stamps (c->ring_free) already shows free, need no call. */
static inline int wait_free(struct shl_rank *r, struct shl_coll_ring *g, struct shl_comm *c,
			    enum shl_ring_kind kind, struct cell *cl, uint64_t k, int producer,
			    uint64_t seq)
{
	uint64_t n = (uint64_t)g->ncells;

	if (k <= n || (c->size <= SHL_COLL_FOLD_ALL && c->ring_free[kind] >= k - n))
		return 0;
	return wait_free_slow(r, g, c, kind, cl, k, producer, seq);
}

/* Wait until `reader` (-1: every other member) has stamped `done` for round k: the
 * caller's data, read where it is, must stay until then. Returns 0 or MPI_ERR_NOT_SAME
 * (the ring is out of step for good: shl_coll_check). */
static inline int wait_readers(struct shl_rank *r, struct shl_coll_ring *g, struct shl_comm *c,
			       uint64_t k, uint64_t seq, int reader)
{
	for (int d = 1; d < c->size; d++) {
		int j = (c->rank + d) % c->size;
		if (reader >= 0 && j != reader)
			continue;
		int err = ring_wait(r, g, c, &g->done[j].v, k, tag_of(DONE, j, k), j, seq);
		if (err != 0)
			return err;
	}
	return 0;
}

/* ---- broadcast ---- */

int shl_coll_small_bcast(struct shl_rank *r, struct shl_comm *c, const char *fn, void *buf,
			 int count, MPI_Datatype type, int root)
{
	size_t bytes = (size_t)count * type->size;
	uint64_t k = ++c->rounds[SHL_RING_BCAST];
	uint64_t seq = shl_coll_next(c, fn, SHL_COLL_RING_BCAST);
	struct shl_coll_ring *g;
	struct cell *cl;
	int err = MPI_SUCCESS;

	if (c->size == 1)
		return MPI_SUCCESS;
	if ((g = ring_get(c->sh, SHL_RING_BCAST)) == NULL)
		return MPI_ERR_NO_MEM;
	cl = cell_at(g, k);
	if (root == c->rank) {
		if ((err = wait_free(r, g, c, SHL_RING_BCAST, cl, k, -1, seq)) != 0)
			return err;
		if (atomic_exchange(&cl->claimed, k) != k) {
			bool direct = bcasts_direct(c, bytes);
			cl->root = root;
			cl->len = (uint32_t)bytes;
			cl->seq = (uint32_t)seq;
			cl->direct = direct;
			if (direct) {
				*(struct direct *)cl->data = (struct direct){ buf, type, 0 };
				atomic_store_explicit(&cl->other_root, 0, memory_order_relaxed);
			} else {
				shl_dt_copy_inline(cl->data, NULL, buf, type, bytes);
			}
			/* Through with round k as soon as it is published: with stamps, one
			 * scan wakes its readers and any writer waiting on the root's stamp. */
			bool stamps = c->size <= SHL_COLL_FOLD_ALL;
			if (stamps)
				atomic_store_explicit(&g->done[c->member].v, k, memory_order_release);
			atomic_exchange(&cl->ready, k);  /* seq_cst RMW: see wake */
			wake(g, c, tag_of(READY, 0, k), stamps ? k : 0);
			if (!direct)
				return MPI_SUCCESS;
			/* The reader copies from buf until it stamps `done`; if it named
			 * another root, it said so before its stamp. */
			if ((err = wait_readers(r, g, c, k, seq, -1)) != 0)
				return err;
			return atomic_load_explicit(&cl->other_root, memory_order_relaxed)
				       ? MPI_ERR_ROOT
				       : MPI_SUCCESS;
		}
		err = MPI_ERR_ROOT;  /* another member claimed this round as its root */
	}
	int werr = ring_wait(r, g, c, &cl->ready, k, tag_of(READY, 0, k), root, seq);
	if (werr != 0)
		return werr;  /* the ring is out of step for good (shl_coll_check) */
	if (bytes <= SHL_COLL_PREFETCH_BCAST)
		prefetch(cell_at(g, k + 1), HEAD + bytes);
	if (cl->seq != (uint32_t)seq)  /* the root's call was another collective of ours */
		return shl_coll_stray(c, seq, cl->root, cl->seq);
	if (cl->root != root) {
		err = MPI_ERR_ROOT;
		if (cl->direct)  /* before `done` (finish), which the root waits for */
			atomic_store_explicit(&cl->other_root, 1, memory_order_relaxed);
	} else {
		size_t n = cl->len;
		if (n > bytes) {
			err = MPI_ERR_TRUNCATE;
			n = bytes;
		} else if (n < bytes) {
			err = MPI_ERR_COUNT;  /* the root sent less than this member expects */
		}
		const struct direct *d = cl->direct ? (const struct direct *)cl->data : NULL;
		shl_dt_copy_inline(buf, type, d ? d->p : cl->data, d ? d->t : NULL, n);
	}
	finish(g, c, cl, k, c->size - 1);
	return err;
}

/* ---- inputs read where they are ---- */

/* Bytes from which a member leaves its input where it is rather than packing it; `rooted`:
 * a Reduce's. */
static size_t direct_min(bool rooted)
{
	if (shl_job.spin_ns == 0)
		return SHL_COLL_DIRECT_MIN_PARKED;
	return rooted ? SHL_COLL_DIRECT_MIN_ROOTED : SHL_COLL_DIRECT_MIN;
}

/* Whether a reduction of `bytes` on `c` reads its inputs where they are. */
static bool reduces_direct(const struct shl_comm *c, size_t bytes, bool rooted)
{
	return c->size <= SHL_COLL_FOLD_ALL && bytes >= direct_min(rooted) &&
	       (size_t)c->size * bytes <= SHL_COLL_DIRECT_MAX;
}

bool shl_coll_small_reduce_ok(const struct shl_comm *c, size_t bytes, bool rooted)
{
	return ring_comm(c) &&
	       (reduces_direct(c, bytes, rooted) || bytes <= comm_seg(c));
}

/* Member i's input of round `cl`: packed in its segment, or where it is. */
static const void *seg_input(struct shl_coll_ring *g, struct cell *cl, int i)
{
	struct seg *s = seg_at(g, cl, i);

	return s->direct ? ((const struct direct *)s->data)->p : s->data;
}

/* end_round for a member whose input may have been read where it is (`direct`): then it
 * also waits until `reader` (-1: every other member) is through with the round, as the
 * input must stay until then. Returns `err`, or MPI_ERR_NOT_SAME from that wait. */
static inline int end_round_direct(struct shl_rank *r, struct shl_coll_ring *g,
				   struct shl_comm *c, uint64_t k, uint64_t seq, int err,
				   bool *late, bool direct, int reader)
{
	err = end_round(g, c, k, seq, err, late);
	if (direct) {
		int werr = wait_readers(r, g, c, k, seq, reader);
		if (werr != 0)
			return werr;
	}
	return err;
}

/* ---- reductions ---- */

/* What a member's datatype says about its basic elements, for a reduction's members to
 * compare: for a predefined type its representation (kind, components, size), so MPI_INT
 * against MPI_FLOAT is caught while MPI_INT against MPI_INT32_T is not; 0 for a derived
 * type (not compared: finding its basic type costs a walk). */
static uint32_t type_sig(const struct shl_datatype *t)
{
	if (!t->predefined)
		return 0;
	return 0x80000000u | (uint32_t)t->kind << 24 | (uint32_t)t->ncomp << 16 |
	       (uint32_t)(t->size & 0xffff);
}

/* Check that the members' segments agree (the same collective number `seq`: else the
 * communicator is broken, see shl_coll_stray; roots, ops, sizes), then fold them in rank
 * order into `out` (packed, g->seg bytes) with the caller's fold `f` (a user function runs
 * in its thread with its handles, as in the meeting path). Returns 0 or an error class. */
static int fold(struct shl_comm *c, struct shl_coll_ring *g, struct cell *cl, int n,
		const struct shl_fold *f, uint64_t seq, void *out)
{
	struct seg *s0 = seg_at(g, cl, 0);

	for (int i = 0; i < n; i++)
		if (seg_at(g, cl, i)->seq != (uint32_t)seq)
			return shl_coll_stray(c, seq, i, seg_at(g, cl, i)->seq);
	for (int i = 1; i < n; i++) {
		struct seg *s = seg_at(g, cl, i);
		/* An Allreduce (root -1) meeting a Reduce is a different call. */
		if (s->root != s0->root)
			return s->root < 0 || s0->root < 0 ? MPI_ERR_NOT_SAME : MPI_ERR_ROOT;
		if (s->kind != s0->kind)
			return MPI_ERR_OP;
		if (s->bytes != s0->bytes)
			return MPI_ERR_COUNT;
		if (s->sig != s0->sig && s->sig != 0 && s0->sig != 0)
			return MPI_ERR_TYPE;
	}
	if (f->bytes != s0->bytes)
		return MPI_ERR_COUNT;
	if (f->bytes == 0)
		return 0;
	if (f->op->kind != SHL_OP_USER) {
		/* The kernel computes inout = in op inout; predefined ops are commutative
		 * bitwise, so this is acc op segment, as shl_fold_step computes it. */
		shl_dt_copy_inline(out, NULL, seg_input(g, cl, 0), NULL, f->bytes);
		for (int i = 1; i < n && f->k != NULL; i++)
			f->k(seg_input(g, cl, i), out, f->nbasic);
		return 0;
	}
	/* A user function works on the caller's own layout: fold in accumulators of it. */
	void *acc = shl_fold_buf(f), *tmp = shl_fold_buf(f);
	int err = 0;
	if (acc == NULL || tmp == NULL) {
		err = MPI_ERR_NO_MEM;
		goto free_bufs;
	}
	shl_fold_load(f, acc, seg_input(g, cl, 0), NULL);
	for (int i = 1; i < n; i++) {
		void *x = tmp;
		/* inoutvec = invec op inoutvec: acc as invec, the segment as inoutvec. */
		shl_fold_load(f, x, seg_input(g, cl, i), NULL);
		shl_op_call(f->op, acc, x, f->count, f->type);
		tmp = acc;
		acc = x;
	}
	shl_fold_store(f, out, NULL, acc);
free_bufs:
	shl_fold_free(f, acc);
	shl_fold_free(f, tmp);
	return err;
}

/* A reader of round k, up to SHL_COLL_FOLD_ALL members: wait for every stamp, fold, and
 * unpack into (rbuf, type): straight into rbuf when the type is dense (the inputs are all
 * in the segments already), else through a stack buffer when it fits. `behind`: the
 * others usually run ahead (the caller is a Reduce's root). */
static int fold_all(struct shl_rank *r, struct shl_coll_ring *g, struct shl_comm *c,
		    struct cell *cl, uint64_t k, void *rbuf, const struct shl_fold *f, uint64_t seq,
		    bool behind, bool *late)
{
	MPI_Datatype type = f->type;
	size_t bytes = f->bytes;
	alignas(64) char local[4096];
	void *out = type->contig ? rbuf : bytes <= sizeof(local) ? local : NULL;
	int err;

	for (int j = 0; j < c->size; j++)
		if ((err = seg_wait(r, g, c, cl, j, k, seq, late)) != 0)
			return err;
	if (behind && bytes <= SHL_COLL_PREFETCH_REDUCE)
		for (int j = 0; j < c->size; j++)
			if (j != c->rank)
				prefetch(seg_at(g, cell_at(g, k + 1), j),
					 offsetof(struct seg, data) + bytes);
	if (out == NULL && (out = malloc(bytes)) == NULL)
		return MPI_ERR_NO_MEM;
	err = fold(c, g, cl, c->size, f, seq, out);
	if (err == 0 && out != rbuf)
		shl_dt_copy_inline(rbuf, type, out, NULL, bytes);
	if (out != rbuf && out != local)
		free(out);
	return err;
}

int shl_coll_small_reduce(struct shl_rank *r, struct shl_comm *c, const char *fn,
			  const void *sbuf, void *rbuf, const struct shl_fold *f, int root)
{
	MPI_Datatype type = f->type;
	size_t bytes = f->bytes;
	const void *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
	bool rooted = root >= 0, reads = !rooted || root == c->rank;
	int n = c->size, err = MPI_SUCCESS;
	/* An input that is not dense or is the caller's result (in place) is packed: into
	 * the segment when it fits, else into a buffer of its own, read where it is. */
	bool as_is = type->contig && in != rbuf;
	bool direct = reduces_direct(c, bytes, rooted) && (as_is || bytes > comm_seg(c));
	void *own = NULL;
	if (direct && !as_is) {
		if ((own = malloc(bytes)) == NULL)
			return MPI_ERR_NO_MEM;
		shl_dt_copy_inline(own, NULL, in, type, bytes);
		in = own;
	}
	uint64_t k = ++c->rounds[SHL_RING_REDUCE];
	uint64_t seq = shl_coll_next(c, fn, SHL_COLL_RING_REDUCE);
	struct shl_coll_ring *g;
	struct cell *cl;

	if ((g = ring_get(c->sh, SHL_RING_REDUCE)) == NULL) {
		free(own);
		return MPI_ERR_NO_MEM;
	}
	cl = cell_at(g, k);
	if ((err = wait_free(r, g, c, SHL_RING_REDUCE, cl, k, root, seq)) != 0) {
		free(own);
		return err;
	}
	struct seg *s = seg_at(g, cl, c->rank);
	s->bytes = (uint32_t)bytes;
	s->kind = (int32_t)f->op->kind;
	s->root = root;
	s->seq = (uint32_t)seq;
	s->sig = type_sig(type);
	s->direct = direct;
	if (direct)
		*(struct direct *)s->data = (struct direct){ in, type, 0 };
	else
		shl_dt_copy_inline(s->data, NULL, in, type, bytes);
	if (n <= SHL_COLL_FOLD_ALL) {
		bool late = true;
		atomic_store_explicit(&s->stamp, k, memory_order_release);  /* see seg_publish */
		if (reads)
			err = fold_all(r, g, c, cl, k, rbuf, f, seq, rooted, &late);
		/* Direct: whoever folds reads our input until it stamps `done`. */
		err = end_round_direct(r, g, c, k, seq, err, &late, direct, rooted ? root : -1);
		free(own);
		return err;
	}
	/* acq_rel: the last arriver reads every member's segment. */
	bool last = atomic_fetch_add(arrived_at(g, cl), 1) + 1 == n;
	if (last) {
		atomic_store_explicit(arrived_at(g, cl), 0, memory_order_relaxed);  /* by `open` */
		cl->err = fold(c, g, cl, n, f, seq, cl->data);
		/* Who reads: every Allreduce member (root -1) and whoever believes it is the
		 * root of a Reduce, all of them if they differ; and the caller, if it does not. */
		int need = !reads;
		for (int i = 0; i < n; i++) {
			int32_t sr = seg_at(g, cl, i)->root;
			need += sr < 0 || sr == i;
		}
		cl->need = need;
		atomic_exchange(&cl->ready, k);  /* seq_cst RMW: see wake */
		wake(g, c, tag_of(READY, 0, k), 0);
		if (!reads) {
			finish(g, c, cl, k, need);
			return MPI_SUCCESS;
		}
	}
	if (!reads)
		return MPI_SUCCESS;
	if ((err = ring_wait(r, g, c, &cl->ready, k, tag_of(READY, 0, k), -1, seq)) != 0)
		return err;
	err = cl->err;
	int need = cl->need;  /* before finish: the cell may be reused after it */
	if (err == MPI_SUCCESS)
		shl_dt_copy_inline(rbuf, type, cl->data, NULL, bytes);
	finish(g, c, cl, k, need);
	return err;
}

/* ---- allgather and alltoall ---- */

/* Segment roots of the data movers' rounds, below -1 (an Allreduce): a reduction's fold
 * sees a mover's segment as another collective (MPI_ERR_NOT_SAME), and so do the movers. */
enum { ROOT_ALLGATHER = -2, ROOT_ALLTOALL = -3 };

/* Whether a member of `n` moves its blocks of `block` bytes directly: what it would pack
 * (n blocks for Alltoall) reaches direct_min. */
static bool moves_direct(bool all2all, bool in_place, int n, size_t block)
{
	return !(all2all && in_place) && (all2all ? (size_t)n : 1) * block >= direct_min(false);
}

bool shl_coll_small_move_ok(const struct shl_comm *c, bool all2all, bool in_place, size_t block)
{
	size_t n = (size_t)c->size;

	return ring_comm(c) && c->size <= SHL_COLL_FOLD_ALL &&
	       (moves_direct(all2all, in_place, c->size, block) ||
		(all2all ? n * block : block) <= comm_seg(c));
}

/* Member j's segment of round k is stamped: check that it holds the same collective as
 * ours (number, kind, block bytes). Returns 0, MPI_ERR_NOT_SAME (another collective: the
 * communicator is broken if its number differs, see shl_coll_stray) or MPI_ERR_TRUNCATE
 * (its block is larger than our receive block). */
static int move_check(struct shl_comm *c, const struct seg *s, int j, int32_t root, uint64_t seq,
		      size_t rb)
{
	if (s->seq != (uint32_t)seq)
		return shl_coll_stray(c, seq, j, s->seq);
	if (s->root != root)
		return MPI_ERR_NOT_SAME;
	return s->bytes > rb ? MPI_ERR_TRUNCATE : 0;
}

int shl_coll_small_move(struct shl_rank *r, struct shl_comm *c, const char *fn, bool all2all,
			const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
			MPI_Datatype rtype)
{
	int n = c->size, me = c->rank, err = 0;
	bool in_place = sbuf == MPI_IN_PLACE;
	size_t rb = (size_t)rcount * rtype->size;
	size_t sb = in_place ? rb : (size_t)scount * stype->size;
	ptrdiff_t stride = (ptrdiff_t)rcount * rtype->extent;  /* between receive blocks */
	int32_t root = all2all ? ROOT_ALLTOALL : ROOT_ALLGATHER;
	uint64_t k = ++c->rounds[SHL_RING_REDUCE];
	uint64_t seq = shl_coll_next(c, fn, SHL_COLL_RING_REDUCE);
	struct shl_coll_ring *g;
	struct cell *cl;

	if ((g = ring_get(c->sh, SHL_RING_REDUCE)) == NULL)
		return MPI_ERR_NO_MEM;
	cl = cell_at(g, k);
	if ((err = wait_free(r, g, c, SHL_RING_REDUCE, cl, k, -1, seq)) != 0)
		return err;
	struct seg *s = seg_at(g, cl, me);
	/* Decided on the receive block, which every member of a correct call agrees on. */
	bool direct = moves_direct(all2all, in_place, n, rb);
	/* In place, this member's data is in its receive buffer, which the copies below
	 * overwrite (alltoall): pack it first. Blocks larger than the receive blocks may not
	 * fit: then everyone reading them reports MPI_ERR_TRUNCATE without reading them. */
	if (direct && in_place)
		*(struct direct *)s->data = (struct direct){ (char *)rbuf + me * stride, rtype, 0 };
	else if (direct)
		*(struct direct *)s->data = (struct direct){ sbuf, stype,
							     (ptrdiff_t)scount * stype->extent };
	else if (!all2all && sb <= g->seg)
		shl_dt_copy_inline(s->data, NULL, in_place ? (char *)rbuf + me * stride : sbuf,
				   in_place ? rtype : stype, sb);
	else if (all2all && sb <= g->seg / (size_t)n)
		shl_dt_copy_inline(s->data, NULL, in_place ? rbuf : sbuf,
				   in_place ? rtype : stype, (size_t)n * sb);
	/* The header after the blocks, next to the stamp: it shares the stamp's line, which
	 * the other members poll, and written first it would send that line to them and back
	 * once more before the stamp (figures: docs/performance.md, "Rings"). */
	s->bytes = sb < UINT32_MAX ? (uint32_t)sb : UINT32_MAX;
	s->kind = 0;
	s->direct = direct;
	s->root = root;
	s->seq = (uint32_t)seq;
	s->sig = 0;
	bool late = true;
	atomic_store_explicit(&s->stamp, k, memory_order_release);  /* see seg_publish */
	if (sb > rb)
		err = MPI_ERR_TRUNCATE;
	else if (all2all && direct)
		shl_dt_copy_inline((char *)rbuf + me * stride, rtype,
				   (const char *)sbuf + me * (ptrdiff_t)scount * stype->extent,
				   stype, sb);
	else if (all2all)
		shl_dt_copy_inline((char *)rbuf + me * stride, rtype, s->data + (size_t)me * sb,
				   NULL, sb);
	else if (!in_place)
		shl_dt_copy_inline((char *)rbuf + me * stride, rtype, sbuf, stype, sb);
	/* The others in rank order, each as soon as its stamp is there. */
	for (int d = 1; d < n; d++) {
		int j = (me + d) % n;
		struct seg *t = seg_at(g, cl, j);
		int werr = seg_wait(r, g, c, cl, j, k, seq, &late);
		if (werr != 0)
			return werr;  /* the ring is out of step for good (shl_coll_check) */
		int e = move_check(c, t, j, root, seq, rb);
		if (e != 0) {
			if (err == 0 || e == MPI_ERR_NOT_SAME)
				err = e;
		} else if (t->direct) {
			const struct direct *x = (const struct direct *)t->data;
			shl_dt_copy_inline((char *)rbuf + j * stride, rtype,
					   x->p + (all2all ? me * x->stride : 0), x->t, t->bytes);
		} else {
			shl_dt_copy_inline((char *)rbuf + j * stride, rtype,
					   t->data + (all2all ? (size_t)me * t->bytes : 0), NULL,
					   t->bytes);
		}
	}
	/* Direct: the others read our buffers until they stamp `done` for the round. */
	return end_round_direct(r, g, c, k, seq, err, &late, direct, -1);
}
