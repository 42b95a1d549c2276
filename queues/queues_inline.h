/* Hot-path inbox operations (measured: one push and one pop per eager message).
 * Contracts in queues.h terms: push from any thread, pop and empty from the owner only. */
#ifndef SHL_QUEUES_INLINE_H
#define SHL_QUEUES_INLINE_H

#include <string.h>

#include "queues/queues.h"

/* Any thread: append `env` to lane `lane` of `inbox` (below inbox->lanes; one sender, one
 * lane: see SHL_Q_LANES). The ticket and hint (SHL_Q_LANE_HINTS) come first, so that the
 * owner seldom counts more envelopes taken than tickets given. The ticket is a plain load
 * and store, not an atomic add: two pushers on two cores may take the same one, which
 * costs a hint (shl_inbox_prefetch catches up), where a locked add would cost every push
 * a wait for its earlier stores (docs/performance.md, "Inbox lanes"). Wait-free;
 * a full barrier orders every earlier write to `env` before the envelope becomes visible
 * (the xchg inside enqueue), which pairs with the owner's pop. The caller then wakes the
 * owner (runtime's job). */
static inline void shl_inbox_push(struct shl_inbox *inbox, int lane, struct shl_envelope *env)
{
	struct shl_inbox_lane *l = &inbox->lane[lane];
	uint64_t ticket = atomic_load_explicit(&l->pushed, memory_order_relaxed);

	atomic_store_explicit(&l->pushed, ticket + 1, memory_order_relaxed);

	atomic_store_explicit(&l->hint[ticket % SHL_Q_LANE_HINTS], env, memory_order_relaxed);
	cds_wfcq_node_init(&env->link);
	shl_q_tsan_release(env);
	cds_wfcq_enqueue(&l->head, &l->tail, &env->link);
}

/* Owner, before popping lane `lane`: if more than one envelope is queued there, prefetch
 * the ones after the first from the hints (the first, the list's head gives at once). A
 * lane whose head shows it empty costs one load of the owner's own line: progress polls
 * every lane, and the ticket count shares the pushers' tail line. */
static inline void shl_inbox_prefetch(struct shl_inbox *inbox, int lane)
{
	struct shl_inbox_lane *l = &inbox->lane[lane];

	if (CMM_LOAD_SHARED(l->head.node.next) == NULL)
		return;
	uint64_t pushed = atomic_load_explicit(&l->pushed, memory_order_relaxed);
	int64_t queued = (int64_t)(pushed - l->popped);

	if (queued < 1) {  /* tickets lost to racing pushers: one is queued, count from it */
		l->popped = pushed - 1;
		return;
	}
	if (queued > SHL_Q_LANE_HINTS)
		queued = SHL_Q_LANE_HINTS;
	for (int64_t i = 1; i < queued; i++)
		__builtin_prefetch(atomic_load_explicit(&l->hint[(l->popped + i) % SHL_Q_LANE_HINTS],
							memory_order_relaxed));
}

/* Owner: the oldest envelope of lane `lane`, or NULL if the lane is empty or its newest
 * push is still being linked (that pusher wakes the owner after finishing, so nothing is
 * lost). */
static inline struct shl_envelope *shl_inbox_pop(struct shl_inbox *inbox, int lane)
{
	struct cds_wfcq_node *node = __cds_wfcq_dequeue_nonblocking(&inbox->lane[lane].head,
								    &inbox->lane[lane].tail);

	if (node == NULL || node == CDS_WFCQ_WOULDBLOCK)
		return NULL;
	inbox->lane[lane].popped++;
	shl_q_tsan_acquire(caa_container_of(node, struct shl_envelope, link));
	return caa_container_of(node, struct shl_envelope, link);
}

/* Any thread: whether nothing is queued in any lane (a hint for everyone but the owner). */
static inline bool shl_inbox_empty(struct shl_inbox *inbox)
{
	for (int i = 0; i < inbox->lanes; i++)
		if (!cds_wfcq_empty(&inbox->lane[i].head, &inbox->lane[i].tail))
			return false;
	return true;
}

static inline struct shl_envelope *shl_pool_get(struct shl_pool *pool, enum shl_q_chunk kind)
{
	struct shl_envelope **list = &pool->free[kind];
	struct shl_envelope *env = *list;

	if (__builtin_expect(env == NULL, 0))
		return shl_pool_refill(pool, kind);
	*list = env->next;
	if (env->pool != pool) {  /* one shl_pool_keep took in */
		env->pool = pool;
		pool->adopted--;
	}
	/* The next envelope was last touched by a receiver on another core: start moving
	 * its header line here now, so the next send does not wait for it. */
	if (*list != NULL)
		__builtin_prefetch(*list, 1);
	return env;
}

static inline void shl_pool_keep(struct shl_pool *pool, struct shl_envelope *env)
{
	struct shl_envelope **list;

	/* `cookie` first: a sender may be giving a chunk to an envelope that has one. */
	if (env->cookie != NULL) {
		shl_pool_put(env);
		return;
	}
	if (env->pool != pool &&
	    (env->chunk_kind != SHL_Q_CHUNK_NONE || pool->adopted >= SHL_Q_KEEP_MAX)) {
		if (pool->back != NULL && pool->back->pool != env->pool)
			shl_pool_flush(pool);
		if (pool->back == NULL)
			pool->back_last = env;
		env->next = pool->back;
		pool->back = env;
		if (++pool->back_n == SHL_Q_BACK_MAX)
			shl_pool_flush(pool);
		return;
	}
	if (env->pool != pool)
		pool->adopted++;
	list = &pool->free[env->chunk_kind];
	env->next = *list;
	*list = env;
}

/* Cells a message of `bytes` (or SHL_Q_FBOX_ENVELOPE) takes: 1 to 3. */
static inline unsigned shl_fbox_cells(uint32_t bytes)
{
	if (bytes <= SHL_Q_FBOX_HEAD || bytes == SHL_Q_FBOX_ENVELOPE)
		return 1;
	return 1 + (bytes - SHL_Q_FBOX_HEAD + SHL_Q_FBOX_MORE - 1) / SHL_Q_FBOX_MORE;
}

/* Cell number `n` of a box whose lap began with cell number `lap` ("Laps" in queues.h). */
static inline struct shl_fbox_cell *shl_fbox_cell(struct shl_fbox *fb, uint64_t lap, uint64_t n)
{
	return &fb->cells[(n - lap) % SHL_Q_FBOX_CELLS];
}

/* Sender of `fb`: the first of `cells` free cells for a message, or NULL if the box has
 * not that many or the sender must keep to the inbox (see "Order" in queues.h). When the
 * receiver has taken every cell (as its last `ack` said), a new lap begins in slot 0. Fill
 * the cell's header (`ack` included), its payload (shl_fbox_fill where it has more than
 * SHL_Q_FBOX_HEAD bytes), then shl_fbox_publish it. */
static inline struct shl_fbox_cell *shl_fbox_reserve(struct shl_fbox *fb, unsigned cells)
{
	if (fb->inbox_sent != fb->inbox_seen) {
		/* Pairs with the release store in shl_fbox_inbox_took. */
		fb->inbox_seen = atomic_load_explicit(&fb->inbox_done, memory_order_acquire);
		if (fb->inbox_sent != fb->inbox_seen)
			return NULL;
	}
	if (fb->acked == fb->head) {
		fb->lap = fb->head;
		fb->tail_seen = fb->head;
	}
	if (fb->head + cells - fb->tail_seen > SHL_Q_FBOX_CELLS) {
		/* Pairs with the release store in shl_fbox_take: the receiver is done with
		 * the cells before `tail`. */
		fb->tail_seen = atomic_load_explicit(&fb->tail, memory_order_acquire);
		if (fb->head + cells - fb->tail_seen > SHL_Q_FBOX_CELLS)
			return NULL;
	}
	return shl_fbox_cell(fb, fb->lap, fb->head);
}

/* Sender: the dense payload `src` of `bytes` (more than SHL_Q_FBOX_HEAD, at most
 * SHL_Q_FBOX_MAX) into the first cell shl_fbox_reserve gave and the cells after it. Each
 * further cell's `seq` gets its number + 1 with the top bit flipped, so that a receiver
 * looking there later for a message's first cell cannot take the stamp (or the payload)
 * for one. */
static inline void shl_fbox_fill(struct shl_fbox *fb, struct shl_fbox_cell *first,
				 const void *src, size_t bytes)
{
	const unsigned char *from = src;

	memcpy(first->data, from, SHL_Q_FBOX_HEAD);
	for (size_t done = SHL_Q_FBOX_HEAD, i = 1; done < bytes; done += SHL_Q_FBOX_MORE, i++) {
		uint64_t n = fb->head + i;
		struct shl_fbox_cell *cell = shl_fbox_cell(fb, fb->lap, n);
		size_t part = bytes - done < SHL_Q_FBOX_MORE ? bytes - done : SHL_Q_FBOX_MORE;
		atomic_store_explicit(&cell->seq, (n + 1) ^ (UINT64_C(1) << 63),
				      memory_order_relaxed);
		memcpy((unsigned char *)cell + sizeof(cell->seq), from + done, part);
	}
}

/* Sender: make the message whose first cell is `cell` (from shl_fbox_reserve for `cells`
 * cells, filled) visible; the release pairs with shl_fbox_peek's acquire, and orders the
 * further cells before it. With `fence`, the store is an exchange, a full barrier that
 * also orders it before the caller's look at the receiver's sleepers (the wake protocol);
 * without, the receiver must fence for both before it sleeps (membarrier). Measured with
 * bench/msgrate: the exchange waits for the cell's cache line on every message (4.6 M
 * msg/s with it, 6.8 M without). */
static inline void shl_fbox_publish(struct shl_fbox *fb, struct shl_fbox_cell *cell,
				    unsigned cells, bool fence)
{
	uint64_t seq = fb->head + 1;

	fb->head += cells;
	if (fence)
		atomic_exchange(&cell->seq, seq);
	else
		atomic_store_explicit(&cell->seq, seq, memory_order_release);
}

/* Receiver of `fb`: the first cell of the oldest unread message, or NULL. It is in its
 * slot, or in slot 0 if the sender began a new lap with it. The cells stay the receiver's
 * until shl_fbox_take. */
static inline struct shl_fbox_cell *shl_fbox_peek(struct shl_fbox *fb)
{
	uint64_t seq = fb->next + 1;
	struct shl_fbox_cell *cell = shl_fbox_cell(fb, fb->next_lap, fb->next);

	if (atomic_load_explicit(&cell->seq, memory_order_acquire) == seq)
		return cell;
	if (atomic_load_explicit(&fb->cells[0].seq, memory_order_acquire) != seq)
		return NULL;
	fb->next_lap = fb->next;
	return &fb->cells[0];
}

/* Receiver: the payload of the message whose first cell is `first` (from shl_fbox_peek),
 * its first `bytes` (more than SHL_Q_FBOX_HEAD), into the dense buffer `dst`. */
static inline void shl_fbox_copy_out(struct shl_fbox *fb, const struct shl_fbox_cell *first,
				     void *dst, size_t bytes)
{
	unsigned char *to = dst;

	memcpy(to, first->data, SHL_Q_FBOX_HEAD);
	for (size_t done = SHL_Q_FBOX_HEAD, i = 1; done < bytes; done += SHL_Q_FBOX_MORE, i++) {
		const struct shl_fbox_cell *cell = shl_fbox_cell(fb, fb->next_lap, fb->next + i);
		size_t part = bytes - done < SHL_Q_FBOX_MORE ? bytes - done : SHL_Q_FBOX_MORE;
		memcpy(to + done, (const unsigned char *)cell + sizeof(cell->seq), part);
	}
}

/* Receiver: done with the message whose first cell is `cell` (shl_fbox_peek's); the sender
 * may reuse its cells. Its `ack` goes to the box back to the sender, if the caller found
 * it (fb->back_out). */
static inline void shl_fbox_take(struct shl_fbox *fb, const struct shl_fbox_cell *cell)
{
	if (fb->back_out != NULL)
		fb->back_out->acked = cell->ack;
	fb->next += shl_fbox_cells(cell->bytes);
	atomic_store_explicit(&fb->tail, fb->next, memory_order_release);
}

/* Receiver: one more envelope flagged `via_fbox` for `fb` has been taken from the inbox. */
static inline void shl_fbox_inbox_took(struct shl_fbox *fb)
{
	uint64_t n = atomic_load_explicit(&fb->inbox_done, memory_order_relaxed) + 1;

	atomic_store_explicit(&fb->inbox_done, n, memory_order_release);
}

/* Receiver: the box in slot `i` of `set` (i below the claimed count), or NULL if its
 * sender has not stored it yet. */
static inline struct shl_fbox *shl_fbox_at(struct shl_fbox_set *set, int i)
{
	/* Pairs with the release store in shl_fbox_open: the box is initialised. */
	return atomic_load_explicit(&set->box[i], memory_order_acquire);
}

/* Receiver: how many slots of `set` may hold a box. */
static inline int shl_fbox_slots(struct shl_fbox_set *set, int limit)
{
	int n = atomic_load_explicit(&set->claimed, memory_order_relaxed);

	return n < limit ? n : limit;
}

/* Receiver: where the payload of `env` is. */
static inline const void *shl_envelope_payload(const struct shl_envelope *env)
{
	return env->payload == SHL_Q_INLINE ? env->inline_data : env->data;
}

#endif
