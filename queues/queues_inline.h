/* Hot-path inbox operations (measured: one push and one pop per eager message).
 * Contracts in queues.h terms: push from any thread, pop and empty from the owner only. */
#ifndef SHL_QUEUES_INLINE_H
#define SHL_QUEUES_INLINE_H

#include "queues/queues.h"

/* Any thread: append `env` to `inbox`. Wait-free; a full barrier orders every earlier
 * write to `env` before the envelope becomes visible (the xchg inside enqueue), which pairs
 * with the owner's pop. The caller then wakes the owner (runtime's job). */
static inline void shl_inbox_push(struct shl_inbox *inbox, struct shl_envelope *env)
{
	cds_wfcq_node_init(&env->link);
	cds_wfcq_enqueue(&inbox->head, &inbox->tail, &env->link);
}

/* Owner: the oldest envelope, or NULL if the inbox is empty or its newest push is still
 * being linked (that pusher wakes the owner after finishing, so nothing is lost). */
static inline struct shl_envelope *shl_inbox_pop(struct shl_inbox *inbox)
{
	struct cds_wfcq_node *node = __cds_wfcq_dequeue_nonblocking(&inbox->head, &inbox->tail);

	if (node == NULL || node == CDS_WFCQ_WOULDBLOCK)
		return NULL;
	return caa_container_of(node, struct shl_envelope, link);
}

/* Any thread: whether nothing is queued (a hint for everyone but the owner). */
static inline bool shl_inbox_empty(struct shl_inbox *inbox)
{
	return cds_wfcq_empty(&inbox->head, &inbox->tail);
}

/* Sender of `fb`: a free cell to fill, or NULL if the box is full or the sender must keep
 * to the inbox (see "Order" in queues.h). Fill it, then shl_fbox_publish it. */
static inline struct shl_fbox_cell *shl_fbox_reserve(struct shl_fbox *fb)
{
	if (fb->inbox_sent != fb->inbox_seen) {
		/* Pairs with the release store in shl_fbox_inbox_took. */
		fb->inbox_seen = atomic_load_explicit(&fb->inbox_done, memory_order_acquire);
		if (fb->inbox_sent != fb->inbox_seen)
			return NULL;
	}
	if (fb->head - fb->tail_seen >= SHL_Q_FBOX_CELLS) {
		/* Pairs with the release store in shl_fbox_take: the receiver is done with
		 * the cells before `tail`. */
		fb->tail_seen = atomic_load_explicit(&fb->tail, memory_order_acquire);
		if (fb->head - fb->tail_seen >= SHL_Q_FBOX_CELLS)
			return NULL;
	}
	return &fb->cells[fb->head % SHL_Q_FBOX_CELLS];
}

/* Sender: make `cell` (from shl_fbox_reserve) visible; the release pairs with
 * shl_fbox_peek's acquire. With `fence`, the store is an exchange, a full barrier that also
 * orders it before the caller's look at the receiver's sleepers (the wake protocol);
 * without, the receiver must fence for both before it sleeps (membarrier). Measured with
 * bench/msgrate: the exchange waits for the cell's cache line on every message (4.6 M msg/s
 * with it, 6.8 M without). */
static inline void shl_fbox_publish(struct shl_fbox *fb, struct shl_fbox_cell *cell, bool fence)
{
	fb->head++;
	if (fence)
		atomic_exchange(&cell->seq, (uint32_t)fb->head);
	else
		atomic_store_explicit(&cell->seq, (uint32_t)fb->head, memory_order_release);
}

/* Receiver of `fb`: the oldest unread cell, or NULL. The cell stays the receiver's until
 * shl_fbox_take. Numbers are compared modulo 2^32: a stale cell is 64 behind. */
static inline struct shl_fbox_cell *shl_fbox_peek(struct shl_fbox *fb)
{
	struct shl_fbox_cell *cell = &fb->cells[fb->next % SHL_Q_FBOX_CELLS];

	if (atomic_load_explicit(&cell->seq, memory_order_acquire) != (uint32_t)(fb->next + 1))
		return NULL;
	return cell;
}

/* Receiver: done with the cell shl_fbox_peek returned; the sender may reuse it. */
static inline void shl_fbox_take(struct shl_fbox *fb)
{
	fb->next++;
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
