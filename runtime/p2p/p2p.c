/* Point-to-point on one node: sends in all four modes, receives, matching, probes and
 * matched probes, cancel. Entered by rank threads; every helper below runs with the rank
 * locked (shl_rank_lock). Never blocks except in shl_wait; never touches another rank's
 * lists, only its inbox (push), its pool (put) and requests it is told to complete.
 *
 * Protocols (DESIGN.md): a payload up to shl_job.inline_max rides in the envelope (the
 * send completes at once); larger, buffered and synchronous sends leave a cookie (the
 * sender's request) that the receiver completes when it matches — for large ones after
 * copying once from the sender's buffer. A blocking send of up to shl_job.medium_max that
 * no receive matches soon copies its payload into a chunk of its envelope and returns
 * (turn_eager). */
#include <errno.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/datatype/share.h"
#include "runtime/p2p/internal.h"

/* MPI_MESSAGE_NO_PROC: the message a matched probe of MPI_PROC_NULL returns; never queued. */
SHL_API struct shl_envelope shl_mpi_message_no_proc;

void shl_status_empty(MPI_Status *status, int source)
{
	status->MPI_SOURCE = source;
	status->MPI_TAG = MPI_ANY_TAG;
	status->MPI_ERROR = MPI_SUCCESS;
	status->shl_cancelled = 0;
	status->shl_bytes = 0;
	status->shl_sent_bytes = 0;
}

/* A blocking send's wait: help the receiver copy a large message while waiting. */
static bool send_done(void *arg)
{
	shl_p2p_help(arg);
	return shl_req_done(arg);
}

/* Claim an envelope for a receive. Fails only if its sender cancelled it first. */
static bool claim(struct shl_envelope *env)
{
	uint8_t expected = SHL_Q_PENDING;

	if (env->cookie == NULL)
		return true;
	/* Pairs with the sender's CAS in shl_p2p_cancel and turn_eager: exactly one of
	 * them wins. */
	if (atomic_compare_exchange_strong(&env->state, &expected, SHL_Q_MATCHED))
		return true;
	if (expected != SHL_Q_EAGER)
		return false;
	/* Its sender has returned and forgotten it: the envelope is ours, a plain pooled
	 * message now. */
	env->payload = SHL_Q_POOLED;
	env->data = env->chunk;
	env->cookie = NULL;
	return true;
}

/* Whether a copy into `type` from `env`'s sender layout is dense on both sides. */
static bool dense_copy(const struct shl_envelope *env, const struct shl_datatype *type)
{
	const struct shl_datatype *layout = env->layout;

	return type->contig && (layout == NULL || layout->contig);
}

/* Whether a copy of `n` bytes into `type` from `env` is worth sharing with its sender:
 * dense copies from SHOAL_SPLIT_MIN, copies with a non-contiguous side from the smaller
 * SHOAL_SPLIT_MIN_TYPED. */
static bool split_worth(const struct shl_envelope *env, const struct shl_datatype *type,
			size_t n)
{
	if (n >= shl_job.split_min)
		return true;
	return n >= shl_job.split_min_typed && !dense_copy(env, type);
}

/* A shared copy of one message, in its envelope. */
struct split {
	struct shl_share share;
	struct shl_share_copy copy;
	size_t chunk;                /* bytes of signature per chunk (the last may be shorter) */
};

_Static_assert(sizeof(struct split) <= SHL_Q_INLINE_MAX, "a split fits the inline area");
_Static_assert(alignof(struct split) <= 16, "the inline area is 16-aligned");

static struct split *split_of(struct shl_envelope *env)
{
	return (struct split *)(void *)env->inline_data;
}

/* The chunk of a shared copy of `n` bytes with a non-contiguous side, smaller than
 * SHOAL_SPLIT_MIN: a quarter of it, in whole cache lines, within
 * [SHL_P2P_SPLIT_CHUNK_TYPED_MIN, SHOAL_SPLIT_CHUNK_TYPED]. */
static size_t typed_chunk(size_t n)
{
	size_t chunk = (n / SHL_P2P_SPLIT_PIECES_TYPED + 63) & ~(size_t)63;

	if (chunk < SHL_P2P_SPLIT_CHUNK_TYPED_MIN)
		return SHL_P2P_SPLIT_CHUNK_TYPED_MIN;
	return chunk < shl_job.split_chunk_typed ? chunk : shl_job.split_chunk_typed;
}

/* shl_share_take's maker: chunk `i` of the split copy `arg`. */
static void make(void *arg, uint32_t i)
{
	struct split *sp = arg;

	shl_share_copy_chunk(&sp->copy, sp->chunk, i);
}

/* A large message in the sender's buffer: offer its copy into (dst, type) in chunks, so a
 * sender waiting for it (in MPI_Send, MPI_Wait...) copies alongside the receiver, then
 * finish what is left. Both datatypes stay alive until this returns: the receive's and
 * the send's requests hold them, and the sender helps only while the receiver waits here
 * for the last chunk. */
static void split_copy(struct shl_envelope *env, void *dst, const struct shl_datatype *type,
		       size_t n)
{
	struct split *sp = split_of(env);
	bool dense = dense_copy(env, type);

	sp->chunk = dense || n >= shl_job.split_min ? SHL_P2P_SPLIT_CHUNK : typed_chunk(n);
	sp->copy = (struct shl_share_copy){ dst, type, env->data, env->layout, n };
	shl_share_offer(&sp->share, shl_share_chunks(n, sp->chunk));
	/* Pairs with the acquire load in shl_p2p_help: the fields above are visible. The
	 * sender polls its request's line, which it waits on anyway, not the envelope's
	 * (whose `state` stays SHL_Q_MATCHED, from the match's claim). */
	atomic_store_explicit(&((struct shl_req *)env->cookie)->shared, true, memory_order_release);
	shl_share_take(&sp->share, false, make, sp);
	shl_share_finish(&sp->share);
}

void shl_p2p_help(struct shl_req *q)
{
	/* Until `done`, the envelope still carries this send (the receiver completes the
	 * request before giving the envelope back). Only the request's line is read until
	 * the receiver offers chunks: polling the envelope's, which the receiver writes,
	 * slowed a 1-16 KiB MPI_Send that is not shared by 22-41 % (bench/latency). The
	 * acquire load of `shared` pairs with split_copy's release store of it. */
	if (q->env != NULL && atomic_load_explicit(&q->shared, memory_order_acquire) &&
	    !atomic_load_explicit(&q->done, memory_order_acquire)) {
		struct split *sp = split_of(q->env);
		shl_share_take(&sp->share, true, make, sp);
	}
}

/* How many of a message's `bytes` fit receive `q`. */
static inline size_t fit(const struct shl_req *q, size_t bytes)
{
	size_t cap = (size_t)q->count * q->type->size;

	return bytes <= cap ? bytes : cap;
}

/* What a receive's status says of the message (src, tag, bytes) it took, MPI_ERROR aside. */
static inline void status_of(MPI_Status *st, int src, int tag, size_t bytes)
{
	st->MPI_SOURCE = src;
	st->MPI_TAG = tag;
	st->shl_cancelled = 0;
	st->shl_bytes = (MPI_Count)bytes;
}

/* Fill receive `q`'s status for a message of `bytes` bytes from `src` with `tag`, of which
 * `n` (fit) were taken: MPI_Get_count counts what was received (MPI 4.1, 3.2.5). */
static inline void set_status(struct shl_req *q, int src, int tag, size_t bytes, size_t n)
{
	status_of(&q->status, src, tag, n);
	q->status.MPI_ERROR = MPI_SUCCESS;
	if (unlikely(bytes > n)) {
		q->status.MPI_ERROR = MPI_ERR_TRUNCATE;
		q->status.shl_sent_bytes = (MPI_Count)bytes;
	}
}

static inline void finish_recv(struct shl_rank *r, struct shl_req *q)
{
	shl_req_complete_own(r, q);
	if (q->freed)
		shl_req_release(r, q);
}

/* deliver's message from another node: its sender is asked for the data. */
static __attribute__((noinline)) void deliver_remote(struct shl_rank *r, struct shl_req *q,
						     struct shl_envelope *env, size_t n)
{
	set_status(q, env->src, env->tag, env->bytes, n);
	shl_p2p_recv_remote(r, q, env, n);
	if (q->freed) {  /* MPI_Request_free'd: released once its data is in */
		q->next = r->detached;
		r->detached = q;
	}
}

/* Message `env` into receive `q`, which completes (for a message from another node, once
 * its data is in). Inline: every message through an inbox ends here. */
static SHL_HOT_INLINE void deliver(struct shl_rank *r, struct shl_req *q,
				   struct shl_envelope *env)
{
	size_t n = fit(q, env->bytes);

	if (unlikely(env->payload == SHL_Q_REMOTE)) {
		deliver_remote(r, q, env, n);
		return;
	}
	if (env->payload == SHL_Q_DIRECT && env->cookie != NULL && split_worth(env, q->type, n))
		split_copy(env, q->buf, q->type, n);
	else
		shl_dt_copy_inline(q->buf, q->type, shl_envelope_payload(env),
				   env->payload == SHL_Q_DIRECT ? env->layout : NULL, n);
	set_status(q, env->src, env->tag, env->bytes, n);
	if (env->cookie != NULL)
		shl_req_complete(env->cookie);
	shl_pool_keep(&r->pool, env);
	finish_recv(r, q);
}

/* ---- matching (core/rt.h, "matching") ---- */

_Static_assert(SHL_MATCH_BINS <= 64, "unexpected_bins has a bit per bin");

/* The bin of messages from rank `src` of the communicator with context `context`. */
static inline unsigned bin_of(uint32_t context, int src)
{
	return (context * 31u + (unsigned)src) % SHL_MATCH_BINS;
}

/* Whether a message (context, src, tag) matches a receive for (rcontext, rsource, rtag). */
static inline bool matches(uint32_t context, int src, int tag, uint32_t rcontext, int rsource,
			   int rtag)
{
	return context == rcontext && (rsource == MPI_ANY_SOURCE || rsource == src) &&
	       (rtag == MPI_ANY_TAG || rtag == tag);
}

/* The list posted receive `q` waits on. */
static inline struct shl_req_list *posted_list(struct shl_rank *r, const struct shl_req *q)
{
	return q->peer == MPI_ANY_SOURCE ? &r->wild
					 : &r->bins[bin_of(q->comm->context, q->peer)].posted;
}

/* Where the oldest receive on `list` matching (context, src, tag) is linked; NULL if none. */
static SHL_HOT_INLINE struct shl_req **first_posted(struct shl_req_list *list,
						    uint32_t context, int src, int tag)
{
	struct shl_req **link = &list->head, *q;

	for (; (q = *link) != NULL; link = &q->next)
		if (matches(context, src, tag, q->comm->context, q->peer, q->tag))
			return link;
	return NULL;
}

/* Where the oldest posted receive matching (context, src, tag) is linked, and on which
 * list (*list); NULL if none. */
static SHL_HOT_INLINE struct shl_req **find_posted(struct shl_rank *r, uint32_t context,
						   int src, int tag, struct shl_req_list **list)
{
	struct shl_req **link, **wild;

	*list = &r->bins[bin_of(context, src)].posted;
	link = first_posted(*list, context, src, tag);
	if (r->wild.head == NULL)
		return link;
	wild = first_posted(&r->wild, context, src, tag);
	if (wild != NULL && (link == NULL || (*wild)->seq < (*link)->seq)) {
		*list = &r->wild;
		return wild;
	}
	return link;
}

static struct shl_req *unlink_posted(struct shl_rank *r, struct shl_req_list *list,
				     struct shl_req **link)
{
	struct shl_req *q = *link;

	*link = q->next;
	if (list->tail == &q->next)
		list->tail = link;
	r->nposted--;
	return q;
}

static void keep_posted(struct shl_rank *r, struct shl_req *q)
{
	struct shl_req_list *list = posted_list(r, q);

	q->next = NULL;
	q->seq = r->posted_seq++;
	*list->tail = q;
	list->tail = &q->next;
	r->nposted++;
}

static void keep_unexpected(struct shl_rank *r, struct shl_envelope *env)
{
	unsigned b = bin_of(env->context, env->src);
	struct shl_envelope_list *list = &r->bins[b].unexpected;

	env->next = NULL;
	env->seq = r->unexpected_seq++;
	*list->tail = env;
	list->tail = &env->next;
	r->unexpected_bins |= UINT64_C(1) << b;
}

static void unlink_unexpected(struct shl_rank *r, unsigned b, struct shl_envelope **link)
{
	struct shl_envelope_list *list = &r->bins[b].unexpected;
	struct shl_envelope *env = *link;

	*link = env->next;
	if (list->tail == &env->next)
		list->tail = link;
	if (list->head == NULL)
		r->unexpected_bins &= ~(UINT64_C(1) << b);
}

/* Where the oldest unexpected message in bin `b` matching (context, source, tag) is
 * linked; NULL if none. Messages cancelled by their senders are dropped on the way. */
static SHL_HOT_INLINE struct shl_envelope **first_unexpected(struct shl_rank *r, unsigned b,
							     uint32_t context, int source,
							     int tag)
{
	struct shl_envelope **link = &r->bins[b].unexpected.head, *env;

	while ((env = *link) != NULL) {
		if (!matches(env->context, env->src, env->tag, context, source, tag)) {
			link = &env->next;
		} else if (env->cookie != NULL &&
			   atomic_load(&env->state) == SHL_Q_CANCELLED) {
			unlink_unexpected(r, b, link);
			shl_pool_put(env);
		} else {
			return link;
		}
	}
	return NULL;
}

/* The oldest unexpected message matching (comm, source, tag), unlinked and claimed if
 * `take`; NULL if none. From MPI_ANY_SOURCE: the oldest of each bin's first. */
static SHL_HOT_INLINE struct shl_envelope *find_unexpected(struct shl_rank *r,
							   const struct shl_comm *c, int source,
							   int tag, bool take)
{
	for (;;) {
		struct shl_envelope **link = NULL, *env;
		unsigned b = 0;

		if (source != MPI_ANY_SOURCE) {
			b = bin_of(c->context, source);
			if (r->unexpected_bins & UINT64_C(1) << b)
				link = first_unexpected(r, b, c->context, source, tag);
		}
		for (uint64_t bins = source == MPI_ANY_SOURCE ? r->unexpected_bins : 0;
		     bins != 0; bins &= bins - 1) {
			unsigned i = (unsigned)__builtin_ctzll(bins);
			struct shl_envelope **first = first_unexpected(r, i, c->context, source,
								       tag);
			if (first != NULL && (link == NULL || (*first)->seq < (*link)->seq)) {
				link = first;
				b = i;
			}
		}
		if (link == NULL)
			return NULL;
		env = *link;
		if (!take)
			return env;
		unlink_unexpected(r, b, link);
		if (claim(env))
			return env;
		shl_pool_put(env);  /* its sender cancelled it just now */
	}
}

static SHL_HOT_INLINE void arrive(struct shl_rank *r, struct shl_envelope *env)
{
	struct shl_req_list *list;
	struct shl_req **link = find_posted(r, env->context, env->src, env->tag, &list);

	if (link == NULL)
		keep_unexpected(r, env);
	else if (claim(env))
		deliver(r, unlink_posted(r, list, link), env);
	else
		shl_pool_put(env);  /* its sender cancelled it */
}

/* The first `n` payload bytes of the message in `fb` whose first cell is `cell` into
 * (`dst`, `type`). */
static SHL_HOT_INLINE void copy_cells(struct shl_fbox *fb, const struct shl_fbox_cell *cell,
				      void *dst, const struct shl_datatype *type, size_t n)
{
	if (likely(n <= SHL_Q_FBOX_HEAD)) {
		shl_dt_copy_inline(dst, type, cell->data, NULL, n);
	} else if (type == NULL || type->contig) {
		shl_fbox_copy_out(fb, cell, dst, n);
	} else {
		unsigned char dense[SHL_Q_FBOX_MAX];
		shl_fbox_copy_out(fb, cell, dense, n);
		shl_dt_copy(dst, type, dense, NULL, n);
	}
}

/* The payload of the message in `fb` whose first cell is `cell` into receive `q`, which
 * completes. */
static SHL_HOT_INLINE void deliver_cell(struct shl_rank *r, struct shl_req *q,
					struct shl_fbox *fb, const struct shl_fbox_cell *cell)
{
	size_t n = fit(q, cell->bytes);

	copy_cells(fb, cell, q->buf, q->type, n);
	set_status(q, cell->src, cell->tag, cell->bytes, n);
	finish_recv(r, q);
}

/* The message carried in fastbox cells (`cell` its first, a payload) into the oldest
 * posted receive it matches; whether there was one. Inline in drain_fbox, with the rarer
 * unexpected case out of line: callgrind on bench/msgrate counted 22 fewer instructions a
 * message than with one call for both. */
static SHL_HOT_INLINE bool cell_to_posted(struct shl_rank *r, struct shl_fbox *fb,
					  const struct shl_fbox_cell *cell)
{
	struct shl_req_list *list;
	struct shl_req **link = find_posted(r, cell->context, cell->src, cell->tag, &list);

	if (link == NULL)
		return false;
	deliver_cell(r, unlink_posted(r, list, link), fb, cell);
	return true;
}

/* A message carried in fastbox cells that no posted receive matched: copied into one of
 * our own envelopes to wait as unexpected (the cells must be given back). */
static void keep_cell_unexpected(struct shl_rank *r, struct shl_fbox *fb,
				 const struct shl_fbox_cell *cell)
{
	struct shl_envelope *env = shl_pool_get(&r->pool, SHL_Q_CHUNK_NONE);

	if (env == NULL)
		shl_panic("shl_p2p_progress", ENOMEM, "no envelope for an unexpected message");
	env->context = cell->context;
	env->src = cell->src;
	env->tag = cell->tag;
	env->bytes = cell->bytes;
	env->cookie = NULL;
	env->payload = SHL_Q_INLINE;
	env->via_fbox = false;
	copy_cells(fb, cell, env->inline_data, NULL, cell->bytes);
	keep_unexpected(r, env);
}

/* Take every message waiting in `fb`, oldest first. */
static void drain_fbox(struct shl_rank *r, struct shl_fbox *fb)
{
	struct shl_fbox_cell *cell;

	while ((cell = shl_fbox_peek(fb)) != NULL) {
		/* A receiver behind its sender finds the next cell written too: start its
		 * transfer now (bench/msgrate +8 %). A sender-side prefetch of the cell to
		 * write next cost 10-30 %: it takes the line a waiting receiver polls. */
		__builtin_prefetch(shl_fbox_cell(fb, fb->next_lap, fb->next + 1), 0, 3);
		if (cell->bytes == SHL_Q_FBOX_ENVELOPE)
			arrive(r, cell->env);
		else if (!cell_to_posted(r, fb, cell))
			keep_cell_unexpected(r, fb, cell);
		shl_fbox_take(fb, cell);
	}
}

void shl_p2p_progress(struct shl_rank *r)
{
	int slots = shl_fbox_slots(&r->fbox_in, shl_job.fbox_peers);
	struct shl_envelope *env;

	for (int i = 0; i < slots; i++) {
		struct shl_fbox *fb = shl_fbox_at(&r->fbox_in, i);
		/* An empty box costs a load, not a call: progress polls every box while a
		 * rank waits. */
		if (fb != NULL && shl_fbox_peek(fb) != NULL)
			drain_fbox(r, fb);
	}
	for (int lane = 0; lane < r->inbox.lanes; lane++) {
		shl_inbox_prefetch(&r->inbox, lane);
		while ((env = shl_inbox_pop(&r->inbox, lane)) != NULL) {
			/* Read before arrive(): the envelope may go back to its sender there. */
			struct shl_fbox *fb = env->via_fbox ? env->fbox : NULL;
			if (fb != NULL)
				drain_fbox(r, fb);  /* the sender's older messages come first */
			arrive(r, env);
			if (fb != NULL)
				shl_fbox_inbox_took(fb);
		}
	}
	if (r->pool.back != NULL)
		shl_pool_flush(&r->pool);
}

/* Whether `cell` carries a payload (not an envelope) that a receive for (context, source,
 * tag) matches. */
static inline bool cell_matches(const struct shl_fbox_cell *cell, uint32_t context, int source,
				int tag)
{
	return cell->bytes != SHL_Q_FBOX_ENVELOPE &&
	       matches(cell->context, cell->src, cell->tag, context, source, tag);
}

/* `cell`, the head of `fb`, into receive `q` if it carries a payload that `q` matches;
 * whether it did. */
static SHL_HOT_INLINE bool take_head(struct shl_rank *r, struct shl_req *q, struct shl_fbox *fb,
				     const struct shl_fbox_cell *cell)
{
	if (!cell_matches(cell, q->comm->context, q->peer, q->tag))
		return false;
	deliver_cell(r, q, fb, cell);
	shl_fbox_take(fb, cell);
	return true;
}

/* Receive `q`, which nothing unexpected matched and no posted receive precedes: complete
 * it at once from a matching message at the head of a fastbox, if there is one, rather
 * than post it for progress to find. The head cell is its sender's oldest message not yet
 * taken (its flagged inbox envelopes are all newer: see "Order" in queues.h), so each
 * sender's order holds. A receive that finds its message there costs no posted-list
 * insertion, search and unlink (tests/receive_after_arrival_keeps_order exercises it). */
static bool take_cell(struct shl_rank *r, struct shl_req *q)
{
	int slots = shl_fbox_slots(&r->fbox_in, shl_job.fbox_peers);

	for (int i = 0; i < slots; i++) {
		struct shl_fbox *fb = shl_fbox_at(&r->fbox_in, i);
		struct shl_fbox_cell *cell = fb != NULL ? shl_fbox_peek(fb) : NULL;
		if (cell != NULL && take_head(r, q, fb, cell))
			return true;
	}
	return false;
}

static SHL_HOT_INLINE void post_recv(struct shl_rank *r, struct shl_req *q)
{
	/* No call when nothing waits unexpected (bench/msgrate: 17 instructions a receive). */
	struct shl_envelope *env = r->unexpected_bins == 0
					   ? NULL
					   : find_unexpected(r, q->comm, q->peer, q->tag, true);

	if (env != NULL) {
		deliver(r, q, env);
		return;
	}
	if (r->nposted == 0 && take_cell(r, q))
		return;
	keep_posted(r, q);
}

/* fbox_out's mark for a receiver that took no box from us (it had enough), like MAP_FAILED. */
#define FBOX_REFUSED ((struct shl_fbox *)-1)

/* fbox_to's first message to world rank `w`: open our box to it, or mark that it took
 * none (a rank of another node takes none). */
static __attribute__((noinline)) struct shl_fbox *fbox_open_to(struct shl_rank *r, int w)
{
	struct shl_rank *to = shl_job.ranks[w];
	struct shl_fbox *fb;

	if (r->fbox_out == NULL) {
		r->fbox_out = calloc((size_t)shl_job.size, sizeof(*r->fbox_out));
		if (r->fbox_out == NULL)
			return NULL;
	}
	fb = to != NULL ? shl_fbox_open(&to->fbox_in, shl_job.fbox_peers, r->world_rank) : NULL;
	r->fbox_out[w] = fb != NULL ? fb : FBOX_REFUSED;
	return fb;
}

/* Our fastbox to world rank `w`, opened by the first send to it; NULL if it has none for
 * us (or is ourselves, or a rank of another node). Found by `w` alone: on a ping-pong's
 * send no load waits for the receiver's rank object. */
static SHL_HOT_INLINE struct shl_fbox *fbox_to(struct shl_rank *r, int w)
{
	struct shl_fbox *fb;

	if (shl_job.fbox_peers == 0 || w == r->world_rank)
		return NULL;
	fb = r->fbox_out != NULL ? r->fbox_out[w] : NULL;
	if (unlikely(fb == NULL))
		return fbox_open_to(r, w);
	return fb == FBOX_REFUSED ? NULL : fb;
}

/* The fastbox `from` (a rank of this node) writes to us, or NULL if it has none. With
 * `stored`, also how many of our boxes it found there (slots claimed but not yet stored
 * are not counted). */
static struct shl_fbox *fbox_from(struct shl_rank *r, const struct shl_rank *from, int *stored)
{
	int slots = shl_fbox_slots(&r->fbox_in, shl_job.fbox_peers), seen = 0;
	struct shl_fbox *found = NULL;

	for (int i = 0; i < slots; i++) {
		struct shl_fbox *fb = shl_fbox_at(&r->fbox_in, i);
		if (fb == NULL)
			continue;
		seen++;
		if (fb->sender == from->world_rank) {
			found = fb;
			if (stored == NULL)
				break;
		}
	}
	if (stored != NULL)
		*stored = seen;
	return found;
}

/* The `ack` of a cell we write to `to` in our box `out`: how far we have taken `to`'s box
 * to us ("Laps" in queues.h), or UINT64_MAX if it has none. Links the two boxes the first
 * time both exist: `out` learns where to read the ack from, the box back learns where
 * the acks `to` sends go (only we touch either field). */
static SHL_HOT_INLINE uint64_t fbox_ack(struct shl_rank *r, struct shl_rank *to,
					struct shl_fbox *out)
{
	if (unlikely(out->back_in == NULL)) {
		int stored;
		if (shl_fbox_slots(&r->fbox_in, shl_job.fbox_peers) == out->back_looked)
			return UINT64_MAX;
		out->back_in = fbox_from(r, to, &stored);
		out->back_looked = stored;
		if (out->back_in == NULL)
			return UINT64_MAX;
		out->back_in->back_out = out;
	}
	return out->back_in->next;
}

/* Hand `env` to `to`: in a cell of our fastbox `fb` when there is one with room (and no
 * envelope of ours is still waiting in the inbox), else through the inbox. */
static SHL_HOT_INLINE void post(struct shl_rank *r, struct shl_rank *to,
				 struct shl_fbox *fb, struct shl_envelope *env)
{
	struct shl_fbox_cell *cell = fb != NULL ? shl_fbox_reserve(fb, 1) : NULL;

	if (cell != NULL) {
		env->via_fbox = false;
		cell->ack = fbox_ack(r, to, fb);
		cell->bytes = SHL_Q_FBOX_ENVELOPE;
		cell->env = env;
		shl_fbox_publish(fb, cell, 1, !shl_job.sleeper_fences);
	} else {
		env->via_fbox = fb != NULL;
		env->fbox = fb;
		if (fb != NULL)
			fb->inbox_sent++;
		shl_inbox_push(&to->inbox, r->lane, env);
	}
	shl_rank_wake(to);
}

/* A small message (at most SHL_Q_FBOX_MAX bytes) straight into the cells of `fb`; false
 * if the box has no room for it, or it needs more than one cell and `type` is not dense
 * (an envelope packs it). */
static SHL_HOT_INLINE bool send_cell(struct shl_rank *r, struct shl_comm *c, const void *buf,
				     struct shl_datatype *type, size_t bytes, int tag,
				     struct shl_rank *to, struct shl_fbox *fb, struct shl_req *req)
{
	unsigned cells = shl_fbox_cells((uint32_t)bytes);
	struct shl_fbox_cell *cell;

	if (cells > 1 && type != NULL && !type->contig)
		return false;
	cell = shl_fbox_reserve(fb, cells);
	if (cell == NULL)
		return false;
	cell->ack = fbox_ack(r, to, fb);
	cell->bytes = (uint32_t)bytes;
	cell->context = c->context;
	cell->src = c->rank;
	cell->tag = tag;
	if (likely(cells == 1))
		shl_dt_copy_inline(cell->data, NULL, buf, type, bytes);
	else
		shl_fbox_fill(fb, cell, buf, bytes);
	shl_req_complete_own(r, req);
	shl_fbox_publish(fb, cell, cells, !shl_job.sleeper_fences);
	shl_rank_wake(to);
	return true;
}

/* Whether a send in `mode` may ride in fastbox cells: no receiver completes it and
 * nothing waits in an attached buffer. */
static inline bool cell_mode(enum shl_send_mode mode)
{
	return mode != SHL_MODE_SYNC && mode != SHL_MODE_BUFFERED;
}

/* Whether a message of `bytes` sent in `mode` may ride in fastbox cells: its mode allows
 * it and it fits. */
static inline bool cell_worthy(enum shl_send_mode mode, size_t bytes)
{
	return cell_mode(mode) && bytes <= SHL_Q_FBOX_MAX && bytes <= shl_job.inline_max;
}

/* The common small message, first of all: to a rank of the node, into cells of our box
 * to it (fbox_to; the first message to that rank opens the box); whether it went, and
 * then `req` is complete. The only place a message goes into cells. On a ping-pong this
 * is the path from the receive that saw the last message to the cell the peer waits on,
 * where every instruction and every load that waits for the one before is latency
 * (docs/performance.md, "Blocking calls take their common case first"). */
static SHL_HOT_INLINE bool send_small(struct shl_rank *r, struct shl_comm *c, const void *buf,
				      MPI_Count count, struct shl_datatype *type, int dest,
				      int tag, enum shl_send_mode mode, struct shl_req *req)
{
	size_t bytes = (size_t)count * type->size;
	struct shl_fbox *fb;
	int w;

	if (!cell_worthy(mode, bytes) || dest == MPI_PROC_NULL)
		return false;
	w = shl_comm_remote_world(c, dest);
	fb = fbox_to(r, w);
	return fb != NULL && send_cell(r, c, buf, type, bytes, tag, shl_job.ranks[w], fb, req);
}

/* Where the payload of a send of (count, type) in `mode` to a rank of the node goes: in
 * the envelope up to inline_max, packed into a pooled chunk (shl_p2p_packs), else left in
 * the sender's buffer. */
static inline enum shl_q_payload payload_of(enum shl_send_mode mode, MPI_Count count,
					    const struct shl_datatype *type)
{
	if ((size_t)count * type->size <= shl_job.inline_max)
		return SHL_Q_INLINE;
	return cell_mode(mode) && shl_p2p_packs(count, type) ? SHL_Q_POOLED : SHL_Q_DIRECT;
}

/* Send (buf, count, type) to `dest` of `c`. `req` completes when the send does; with a
 * stack request the caller waits on it. A payload up to shl_job.inline_max rides in the
 * envelope, a small sparse one is packed (payload_of), and the send completes at once; a
 * larger one is copied once, by the receiver, straight from `buf` when it matches (a
 * blocking send may turn it eager meanwhile: turn_eager). Synchronous sends complete when
 * matched. Returns 0, -ENOBUFS (buffered send without room in the attached buffer) or
 * -ENOMEM. */
static SHL_HOT_INLINE int send_inline(struct shl_rank *r, struct shl_comm *c, const void *buf,
				      MPI_Count count, struct shl_datatype *type, int dest, int tag,
				      enum shl_send_mode mode, struct shl_req *req)
{
	size_t bytes = (size_t)count * type->size;
	enum shl_q_payload how = payload_of(mode, count, type);
	struct shl_req *cookie = how == SHL_Q_DIRECT || mode == SHL_MODE_SYNC ? req : NULL;
	struct shl_envelope *env;
	struct shl_rank *to;

	req->env = NULL;
	if (send_small(r, c, buf, count, type, dest, tag, mode, req))
		return 0;
	if (dest == MPI_PROC_NULL) {
		shl_req_complete_own(r, req);
		return 0;
	}
	to = shl_job.ranks[shl_comm_remote_world(c, dest)];
	if (unlikely(to == NULL))  /* a rank of another node */
		return shl_p2p_send_remote(r, c, buf, count, type, dest, tag, mode, req);
	if (mode == SHL_MODE_BUFFERED && how == SHL_Q_INLINE) {
		/* The payload rides in the envelope: it needs the attached buffer's room
		 * only, and MPI_Buffer_detach has nothing to wait for (as with Open MPI and
		 * MPICH, which send small buffered messages at once too). */
		if (!shl_bsend_room(r, bytes))
			return -ENOBUFS;
	} else if (mode == SHL_MODE_BUFFERED) {
		/* Pack into the attached buffer and send from there; an internal request
		 * frees the block once the receiver has copied it out. */
		void *block = shl_bsend_alloc(r, bytes);
		if (block == NULL)
			return -ENOBUFS;
		shl_dt_copy(block, NULL, buf, type, bytes);
		cookie = shl_req_new(r, SHL_REQ_SEND);
		if (cookie == NULL) {
			shl_bsend_free(r, block);
			return -ENOMEM;
		}
		cookie->bsend_block = block;
		/* What the hang report and gdb's `mpi queues` show of it (no hold on c). */
		cookie->comm = c;
		cookie->peer = dest;
		cookie->tag = tag;
		cookie->buf = block;
		cookie->count = (MPI_Count)bytes;
		cookie->freed = true;
		cookie->next = r->detached;
		r->detached = cookie;
		buf = block;
		type = NULL;
		how = SHL_Q_DIRECT;
	}
	env = shl_pool_get(&r->pool, how == SHL_Q_POOLED ? SHL_Q_CHUNK_PACKED : SHL_Q_CHUNK_NONE);
	if (env == NULL)
		return -ENOMEM;
	env->context = c->context;
	env->src = c->rank;
	env->tag = tag;
	env->bytes = bytes;
	env->cookie = cookie;
	env->payload = how;
	atomic_store_explicit(&env->state, SHL_Q_PENDING, memory_order_relaxed);
	if (how == SHL_Q_DIRECT) {
		env->data = buf;
		env->layout = type;
	} else if (how == SHL_Q_POOLED) {
		shl_dt_copy(env->chunk, NULL, buf, type, bytes);
		env->data = env->chunk;
	} else {
		shl_dt_copy_inline(env->inline_data, NULL, buf, type, bytes);
	}
	if (cookie == req) {
		req->env = env;
		atomic_store_explicit(&req->shared, false, memory_order_relaxed);
	} else {
		shl_req_complete_own(r, req);
	}
	post(r, to, fbox_to(r, to->world_rank), env);
	return 0;
}

/* send() out of line, for every caller but MPI_Isend's common case (make_request), which
 * has send_inline in its own copy: a call, its prologue and epilogue were 30 of the ~250
 * instructions an eager MPI_Isend through an inbox took. */
static int send(struct shl_rank *r, struct shl_comm *c, const void *buf, MPI_Count count,
		struct shl_datatype *type, int dest, int tag, enum shl_send_mode mode,
		struct shl_req *req)
{
	return send_inline(r, c, buf, count, type, dest, tag, mode, req);
}

/* Start the operation of request `req`, fresh from shl_req_new or reset (shl_p2p_start). */
static SHL_HOT_INLINE int begin(struct shl_rank *r, struct shl_req *req)
{
	if (req->kind == SHL_REQ_SEND)
		return send(r, req->comm, req->buf, req->count, req->type, req->peer, req->tag,
			    req->mode, req);
	if (req->peer == MPI_PROC_NULL) {
		shl_status_empty(&req->status, MPI_PROC_NULL);
		shl_req_complete_own(r, req);
		return 0;
	}
	post_recv(r, req);
	return 0;
}

int shl_p2p_start(struct shl_rank *r, struct shl_req *req)
{
	int rc;

	atomic_store_explicit(&req->done, 0, memory_order_relaxed);
	req->active = true;
	req->cancelled = false;
	shl_status_empty(&req->status, MPI_ANY_SOURCE);
	rc = begin(r, req);
	if (rc != 0)
		req->active = false;  /* nothing started: waits return at once, Start may retry */
	return rc;
}

/* Where receive `q` is linked on `list` (its posted_list), or NULL if it is not posted. */
static struct shl_req **posted_link(struct shl_req_list *list, const struct shl_req *q)
{
	struct shl_req **link = &list->head;

	while (*link != NULL && *link != q)
		link = &(*link)->next;
	return *link != NULL ? link : NULL;
}

bool shl_p2p_is_posted(struct shl_rank *r, const struct shl_req *q)
{
	return posted_link(posted_list(r, q), q) != NULL;
}

void shl_p2p_cancel(struct shl_rank *r, struct shl_req *req)
{
	if (shl_req_done(req))
		return;
	if (req->kind == SHL_REQ_RECV) {
		struct shl_req_list *list = posted_list(r, req);
		struct shl_req **link = posted_link(list, req);
		if (link == NULL)
			return;
		unlink_posted(r, list, link);
	} else {
		uint8_t expected = SHL_Q_PENDING;
		/* A send to another node completes (cancelled or not) through its node's
		 * completion thread. */
		if (req->env == NULL && shl_p2p_cancel_remote(r, req))
			return;
		/* Pairs with claim(): if the receiver has not matched the envelope yet, it
		 * will find it cancelled and drop it. */
		if (req->env == NULL ||
		    !atomic_compare_exchange_strong(&req->env->state, &expected, SHL_Q_CANCELLED))
			return;
	}
	req->status.shl_cancelled = 1;
	shl_req_complete(req);
}

/* ---- argument checks ---- */

/* A send's `dest` that is no rank of `c`: MPI_ERR_RANK, out of the send path. */
static __attribute__((noinline)) int bad_dest(const char *fn, struct shl_comm *c, int dest)
{
	if (dest == MPI_ANY_SOURCE)
		return shl_err(c, MPI_ERR_RANK, fn, "dest MPI_ANY_SOURCE is not allowed in a send");
	return shl_err(c, MPI_ERR_RANK, fn, "dest %d is not a rank of %s (size %d)", dest,
		       c->name ? c->name : "the communicator", shl_comm_remote_size(c));
}

/* The send side's arguments; `what` as for shl_check_buffer. */
static SHL_HOT_INLINE int check_send(const char *fn, const char *what, struct shl_rank *r,
				     MPI_Comm comm, struct shl_comm **c, const void *buf,
				     MPI_Count count, MPI_Datatype type, int dest, int tag)
{
	int err = shl_check_comm(fn, r, comm, c);

	if (err == MPI_SUCCESS)
		err = shl_check_buffer(*c, fn, what, buf, count, type);
	if (err != MPI_SUCCESS)
		return err;
	if (tag == MPI_ANY_TAG)
		return shl_err(*c, MPI_ERR_TAG, fn, "%stag MPI_ANY_TAG is not allowed in a send",
			       what);
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		return shl_err(*c, MPI_ERR_TAG, fn, "%stag %d is outside 0..%d (MPI_TAG_UB)", what,
			       tag, MPI_TAG_UB_VALUE);
	if (dest != MPI_PROC_NULL && (dest < 0 || dest >= shl_comm_remote_size(*c)))
		return bad_dest(fn, *c, dest);
	return MPI_SUCCESS;
}

/* A receive's source and tag; `what` as for shl_check_buffer. */
static SHL_HOT_INLINE int check_source(const char *fn, const char *what, struct shl_comm *c,
				       int source, int tag)
{
	if (tag != MPI_ANY_TAG && (tag < 0 || tag > MPI_TAG_UB_VALUE))
		return shl_err(c, MPI_ERR_TAG, fn, "%stag %d is outside 0..%d (MPI_TAG_UB)", what,
			       tag, MPI_TAG_UB_VALUE);
	if (source != MPI_PROC_NULL && source != MPI_ANY_SOURCE &&
	    (source < 0 || source >= shl_comm_remote_size(c)))
		return shl_err(c, MPI_ERR_RANK, fn, "source %d is not a rank of %s (size %d)",
			       source, c->name ? c->name : "the communicator",
			       shl_comm_remote_size(c));
	return MPI_SUCCESS;
}

/* The receive side's arguments; `what` as for shl_check_buffer. */
static SHL_HOT_INLINE int check_recv(const char *fn, const char *what, struct shl_rank *r,
				     MPI_Comm comm, struct shl_comm **c, void *buf,
				     MPI_Count count, MPI_Datatype type, int source, int tag)
{
	int err = shl_check_comm(fn, r, comm, c);

	if (err == MPI_SUCCESS)
		err = shl_check_buffer(*c, fn, what, buf, count, type);
	if (err == MPI_SUCCESS && !type->predefined)  /* a predefined layout never overlaps */
		err = shl_check_layout(*c, fn, what, count, type);
	if (err == MPI_SUCCESS)
		err = check_source(fn, what, *c, source, tag);
	return err;
}

static SHL_HOT_INLINE int check_request_out(const char *fn, struct shl_comm *c,
					    MPI_Request *request)
{
	if (request == NULL)
		return shl_err(c, MPI_ERR_REQUEST, fn, "request is NULL");
	return MPI_SUCCESS;
}

int shl_p2p_start_error(const char *fn, struct shl_comm *c, int rc, size_t bytes)
{
	if (rc == -ENOBUFS && shl_self->bsend.base == NULL)
		return shl_err(c, MPI_ERR_BUFFER, fn, "no buffer is attached (MPI_Buffer_attach) "
			       "for a buffered send of %zu bytes", bytes);
	if (rc == -ENOBUFS)
		return shl_err(c, MPI_ERR_BUFFER, fn,
			       "no room for %zu bytes (+%d overhead) in the buffer attached with "
			       "MPI_Buffer_attach", bytes, MPI_BSEND_OVERHEAD);
	return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
}

static int truncated(const char *fn, struct shl_comm *c, const MPI_Status *st, MPI_Count count,
		     MPI_Datatype type)
{
	return shl_err(c, MPI_ERR_TRUNCATE, fn,
		       "message from rank %d with tag %d (%lld bytes) does not fit the receive "
		       "buffer (%lld x %s = %zu bytes)", st->MPI_SOURCE, st->MPI_TAG,
		       (long long)st->shl_sent_bytes, count, type->name ? type->name : "datatype",
		       (size_t)count * type->size);
}

static void fill_request(struct shl_req *q, struct shl_comm *c, const void *buf, MPI_Count count,
			 MPI_Datatype type, int peer, int tag, enum shl_send_mode mode)
{
	q->comm = c;
	q->buf = (void *)buf;
	q->count = count;
	q->type = type;
	q->peer = peer;
	q->tag = tag;
	q->mode = mode;
}

/* ---- blocking sends ---- */

/* A blocking standard or ready send of up to shl_job.medium_max bytes that no receive
 * has matched after a short poll turns eager, so that programs relying on buffering (both
 * sides sending first) do not deadlock: the payload is copied into a chunk the envelope
 * keeps, and the envelope, still where it was queued, says so (SHL_Q_EAGER). The
 * message stays in place throughout, so a probe that saw it sees it again and the
 * sender's order holds. */
static bool turn_eager(struct shl_rank *r, struct shl_req *q)
{
	struct shl_envelope *env = q->env;
	uint8_t expected = SHL_Q_PENDING;

	if (q->mode == SHL_MODE_SYNC || env == NULL || env->bytes > shl_job.medium_max)
		return false;
	if (shl_poll(r, send_done, q))
		return false;
	/* The receiver reads `chunk` and `chunk_kind` only after it sees SHL_Q_EAGER; if it
	 * matched the envelope first, the chunk simply stays with it. */
	if (shl_pool_give_chunk(&r->pool, env) < 0)
		shl_panic("MPI_Send", ENOMEM, "no buffer to send a message eagerly");
	shl_dt_copy_inline(env->chunk, NULL, q->buf, q->type, env->bytes);
	/* Pairs with claim(): the receiver either matched the envelope already, or will
	 * take the copy. */
	if (!atomic_compare_exchange_strong(&env->state, &expected, SHL_Q_EAGER))
		return false;
	q->env = NULL;
	shl_req_complete_own(r, q);
	return true;
}

/* Whether the arguments of a blocking send or receive are valid and plain: the calling
 * rank is in MPI and calls it from one thread only, `comm` is a communicator (then `*c`),
 * `type` a predefined datatype that `count` and `buf` suit, `peer` one of its ranks (not
 * MPI_PROC_NULL nor MPI_ANY_SOURCE) and `tag` a tag (or MPI_ANY_TAG where `any_tag`).
 * The blocking calls take their common case on this much (send_small, watch_sender): a
 * ping-pong's latency is the instructions from the receive that sees a message to the
 * store that publishes the reply. When it is false the full checks run and say what is
 * wrong, or that nothing is. */
static SHL_HOT_INLINE bool plain_args(struct shl_rank *r, MPI_Comm comm, struct shl_comm **c,
				      const void *buf, MPI_Count count, MPI_Datatype type,
				      int peer, int tag, bool any_tag)
{
	return r != NULL &&
	       atomic_load_explicit(&r->phase, memory_order_relaxed) == SHL_PHASE_IN_MPI &&
	       !r->mt && (*c = shl_comm_get(r, comm)) != NULL && shl_type_ok(type) &&
	       type->predefined && (uint64_t)count <= SHL_COUNT_FAST_MAX &&
	       (buf != NULL || count == 0 || type->size == 0) &&
	       ((unsigned)tag <= MPI_TAG_UB_VALUE || (any_tag && tag == MPI_ANY_TAG)) &&
	       (unsigned)peer < (unsigned)shl_comm_remote_size(*c);
}

static int send_checked(const char *fn, enum shl_send_mode mode, const void *buf,
			MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_req q;
	struct shl_comm *c;
	int err = check_send(fn, "", r, comm, &c, buf, count, type, dest, tag);
	int rc;

	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	if (shl_p2p_sends_at_once(mode, count, type)) {
		/* The rank's shared completed request, as MPI_Isend's: no stack request to
		 * initialise per call. */
		rc = send(r, c, buf, count, type, dest, tag, mode, &r->sent);
	} else {
		shl_req_init(&q, r, SHL_REQ_SEND);
		fill_request(&q, c, buf, count, type, dest, tag, mode);
		rc = send(r, c, buf, count, type, dest, tag, mode, &q);
		if (rc == 0 && !shl_req_done(&q) && !turn_eager(r, &q))
			shl_wait(r, send_done, &q);
	}
	shl_rank_unlock(r);
	return rc == 0 ? MPI_SUCCESS : shl_p2p_start_error(fn, c, rc, (size_t)count * type->size);
}

/* A blocking send: a small message with plain arguments straight into its cell, anything
 * else checked. `mode` is a constant in each caller: MPI_Ssend and MPI_Bsend go straight
 * to the checks. */
static SHL_HOT_INLINE int send_blocking(const char *fn, enum shl_send_mode mode,
					const void *buf, MPI_Count count, MPI_Datatype type,
					int dest, int tag, MPI_Comm comm)
{
	struct shl_rank *r = shl_self;
	struct shl_comm *c;

	if (cell_mode(mode) && plain_args(r, comm, &c, buf, count, type, dest, tag, false) &&
	    send_small(r, c, buf, count, type, dest, tag, mode, &r->sent))
		return MPI_SUCCESS;
	return send_checked(fn, mode, buf, count, type, dest, tag, comm);
}

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
	      MPI_Comm comm)
{
	return send_blocking("MPI_Send", SHL_MODE_STANDARD, buf, count, datatype, dest, tag, comm);
}
SHL_WEAK_ALIAS(Send);

int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
	return send_blocking("MPI_Send_c", SHL_MODE_STANDARD, buf, count, datatype, dest, tag,
			     comm);
}
SHL_WEAK_ALIAS(Send_c);

int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
	       MPI_Comm comm)
{
	return send_blocking("MPI_Ssend", SHL_MODE_SYNC, buf, count, datatype, dest, tag, comm);
}
SHL_WEAK_ALIAS(Ssend);

int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
	return send_blocking("MPI_Ssend_c", SHL_MODE_SYNC, buf, count, datatype, dest, tag,
			     comm);
}
SHL_WEAK_ALIAS(Ssend_c);

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
	       MPI_Comm comm)
{
	return send_blocking("MPI_Bsend", SHL_MODE_BUFFERED, buf, count, datatype, dest, tag, comm);
}
SHL_WEAK_ALIAS(Bsend);

int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
	return send_blocking("MPI_Bsend_c", SHL_MODE_BUFFERED, buf, count, datatype, dest, tag,
			     comm);
}
SHL_WEAK_ALIAS(Bsend_c);

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
	       MPI_Comm comm)
{
	return send_blocking("MPI_Rsend", SHL_MODE_READY, buf, count, datatype, dest, tag, comm);
}
SHL_WEAK_ALIAS(Rsend);

int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
	return send_blocking("MPI_Rsend_c", SHL_MODE_READY, buf, count, datatype, dest, tag,
			     comm);
}
SHL_WEAK_ALIAS(Rsend_c);

/* ---- nonblocking and persistent ---- */

/* Create the request for a send or receive; start it unless it is persistent (a send that
 * completes at once gets the rank's shared completed request). */
static SHL_HOT_INLINE int make_request(const char *fn, enum shl_req_kind kind,
					bool persistent, enum shl_send_mode mode,
					const void *buf, MPI_Count count, MPI_Datatype type,
					int peer, int tag, MPI_Comm comm, MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	struct shl_req *q;
	int err = kind == SHL_REQ_SEND
			  ? check_send(fn, "", r, comm, &c, buf, count, type, peer, tag)
			  : check_recv(fn, "", r, comm, &c, (void *)buf, count, type, peer, tag);
	int rc = 0;

	if (err == MPI_SUCCESS)
		err = check_request_out(fn, c, request);
	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	if (kind == SHL_REQ_SEND && !persistent && shl_p2p_sends_at_once(mode, count, type)) {
		/* Measured with bench/msgrate (2 ranks, 8 B): a request per Isend cost a fifth
		 * of the sender's time. */
		rc = send_inline(r, c, buf, count, type, peer, tag, mode, &r->sent);
		shl_rank_unlock(r);
		if (rc != 0)
			return shl_p2p_start_error(fn, c, rc, (size_t)count * type->size);
		*request = &r->sent;
		return MPI_SUCCESS;
	}
	q = shl_req_new(r, kind);
	if (q != NULL) {
		fill_request(q, c, buf, count, type, peer, tag, mode);
		shl_dt_hold(type);  /* MPI_Type_free may come before completion */
		q->comm = shl_comm_hold(c);  /* and MPI_Comm_free */
		q->holds_comm = true;
		q->persistent = persistent;
		q->active = !persistent;
		if (!persistent)
			rc = begin(r, q);
		if (rc != 0) {
			shl_req_release(r, q);
			q = NULL;
		}
	}
	shl_rank_unlock(r);
	if (q == NULL)
		return shl_p2p_start_error(fn, c, rc ? rc : -ENOMEM, (size_t)count * type->size);
	*request = q;
	return MPI_SUCCESS;
}

/* make_request in one out-of-line copy, for every call but MPI_Isend and MPI_Irecv (and
 * their _c twins), which get their own inlined copies: each copy is about 1.2 KiB. */
static __attribute__((noinline)) int make_request_rare(const char *fn, enum shl_req_kind kind,
						       bool persistent, enum shl_send_mode mode,
						       const void *buf, MPI_Count count,
						       MPI_Datatype type, int peer, int tag,
						       MPI_Comm comm, MPI_Request *request)
{
	return make_request(fn, kind, persistent, mode, buf, count, type, peer, tag, comm,
			    request);
}

#define SEND_ARGS const void *buf, int count, MPI_Datatype datatype, int dest, int tag, \
	MPI_Comm comm, MPI_Request *request
#define SEND_ARGS_C const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, \
	MPI_Comm comm, MPI_Request *request

int PMPI_Isend(SEND_ARGS)
{
	return make_request("MPI_Isend", SHL_REQ_SEND, false, SHL_MODE_STANDARD, buf, count,
			    datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Isend);

int PMPI_Isend_c(SEND_ARGS_C)
{
	return make_request("MPI_Isend_c", SHL_REQ_SEND, false, SHL_MODE_STANDARD, buf,
			    count, datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Isend_c);

int PMPI_Issend(SEND_ARGS)
{
	return make_request_rare("MPI_Issend", SHL_REQ_SEND, false, SHL_MODE_SYNC, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Issend);

int PMPI_Issend_c(SEND_ARGS_C)
{
	return make_request_rare("MPI_Issend_c", SHL_REQ_SEND, false, SHL_MODE_SYNC, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Issend_c);

int PMPI_Ibsend(SEND_ARGS)
{
	return make_request_rare("MPI_Ibsend", SHL_REQ_SEND, false, SHL_MODE_BUFFERED, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Ibsend);

int PMPI_Ibsend_c(SEND_ARGS_C)
{
	return make_request_rare("MPI_Ibsend_c", SHL_REQ_SEND, false, SHL_MODE_BUFFERED, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Ibsend_c);

int PMPI_Irsend(SEND_ARGS)
{
	return make_request_rare("MPI_Irsend", SHL_REQ_SEND, false, SHL_MODE_READY, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Irsend);

int PMPI_Irsend_c(SEND_ARGS_C)
{
	return make_request_rare("MPI_Irsend_c", SHL_REQ_SEND, false, SHL_MODE_READY, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Irsend_c);

int PMPI_Send_init(SEND_ARGS)
{
	return make_request_rare("MPI_Send_init", SHL_REQ_SEND, true, SHL_MODE_STANDARD, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Send_init);

int PMPI_Send_init_c(SEND_ARGS_C)
{
	return make_request_rare("MPI_Send_init_c", SHL_REQ_SEND, true, SHL_MODE_STANDARD, buf,
				 count, datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Send_init_c);

int PMPI_Ssend_init(SEND_ARGS)
{
	return make_request_rare("MPI_Ssend_init", SHL_REQ_SEND, true, SHL_MODE_SYNC, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Ssend_init);

int PMPI_Ssend_init_c(SEND_ARGS_C)
{
	return make_request_rare("MPI_Ssend_init_c", SHL_REQ_SEND, true, SHL_MODE_SYNC, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Ssend_init_c);

int PMPI_Bsend_init(SEND_ARGS)
{
	return make_request_rare("MPI_Bsend_init", SHL_REQ_SEND, true, SHL_MODE_BUFFERED, buf,
				 count, datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Bsend_init);

int PMPI_Bsend_init_c(SEND_ARGS_C)
{
	return make_request_rare("MPI_Bsend_init_c", SHL_REQ_SEND, true, SHL_MODE_BUFFERED, buf,
				 count, datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Bsend_init_c);

int PMPI_Rsend_init(SEND_ARGS)
{
	return make_request_rare("MPI_Rsend_init", SHL_REQ_SEND, true, SHL_MODE_READY, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Rsend_init);

int PMPI_Rsend_init_c(SEND_ARGS_C)
{
	return make_request_rare("MPI_Rsend_init_c", SHL_REQ_SEND, true, SHL_MODE_READY, buf, count,
				 datatype, dest, tag, comm, request);
}
SHL_WEAK_ALIAS(Rsend_init_c);

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
	       MPI_Request *request)
{
	return make_request("MPI_Irecv", SHL_REQ_RECV, false, SHL_MODE_STANDARD, buf, count,
			    datatype, source, tag, comm, request);
}
SHL_WEAK_ALIAS(Irecv);

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
		 MPI_Comm comm, MPI_Request *request)
{
	return make_request("MPI_Irecv_c", SHL_REQ_RECV, false, SHL_MODE_STANDARD, buf, count,
			    datatype, source, tag, comm, request);
}
SHL_WEAK_ALIAS(Irecv_c);

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
		   MPI_Comm comm, MPI_Request *request)
{
	return make_request_rare("MPI_Recv_init", SHL_REQ_RECV, true, SHL_MODE_STANDARD, buf, count,
				 datatype, source, tag, comm, request);
}
SHL_WEAK_ALIAS(Recv_init);

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
		     MPI_Comm comm, MPI_Request *request)
{
	return make_request_rare("MPI_Recv_init_c", SHL_REQ_RECV, true, SHL_MODE_STANDARD, buf,
				 count, datatype, source, tag, comm, request);
}
SHL_WEAK_ALIAS(Recv_init_c);

/* ---- blocking receives ---- */

static void copy_status(MPI_Status *status, const MPI_Status *st)
{
	if (status == MPI_STATUS_IGNORE)
		return;
	/* Single-completion calls leave MPI_ERROR alone (MPI 4.1, 3.2.5). */
	int error = status->MPI_ERROR;
	*status = *st;
	status->MPI_ERROR = error;
}

enum watch { WATCH_TOOK, WATCH_OTHER, WATCH_SPUN };

/* Blocking receive of (buf, count, type) from `source` with `tag` on `c`, its arguments
 * plain (plain_args) and nothing begun yet: when `source` is a rank of this node that has
 * a fastbox to us, and no receive is posted and nothing waits unexpected (so the box's
 * head is the oldest message that could match), poll that cell alone and take a matching
 * message that fits straight from it into `buf` and `status`. No request: the general
 * wait would post one, poll every box and the inbox, find the receive again and ask a
 * predicate, and each instruction between seeing the message and the caller's next send
 * is latency (docs/performance.md, "Blocking receives watch their sender"). Returns
 * WATCH_TOOK (the receive is done), WATCH_OTHER (not applicable, or something else came
 * first: the head cell does not match, would truncate or carries an envelope, or the inbox
 * has mail) or WATCH_SPUN (the spin time passed). Either way nothing was taken but this
 * receive's message, so the general path takes over with nothing lost. Only where the
 * general wait would spin with nothing else to do: not while ranks outnumber cores (or
 * are switched in user space) or the node has connections to read. */
static enum watch watch_sender(struct shl_rank *r, struct shl_comm *c, void *buf,
			       MPI_Count count, struct shl_datatype *type, int source, int tag,
			       MPI_Status *status)
{
	struct shl_spin spin = { 0, 0 };
	size_t room = (size_t)count * type->size;
	struct shl_rank *from;
	struct shl_fbox *fb;

	if (r->nposted != 0 || r->unexpected_bins != 0 || r->fiber != NULL ||
	    shl_job.spin_ns == 0 || shl_job.spin_yield || shl_job.poll_net)
		return WATCH_OTHER;
	from = shl_job.ranks[shl_comm_remote_world(c, source)];
	if (from == NULL || (fb = fbox_from(r, from, NULL)) == NULL)
		return WATCH_OTHER;
	do {
		const struct shl_fbox_cell *cell = shl_fbox_peek(fb);
		if (cell != NULL) {
			if (!cell_matches(cell, c->context, source, tag) || cell->bytes > room)
				return WATCH_OTHER;
			copy_cells(fb, cell, buf, type, cell->bytes);
			if (status != MPI_STATUS_IGNORE)
				status_of(status, cell->src, cell->tag, cell->bytes);
			shl_fbox_take(fb, cell);
			return WATCH_TOOK;
		}
		if (!shl_inbox_empty(&r->inbox))
			return WATCH_OTHER;
		shl_spin_relax(&spin);
	} while (shl_spin_on(&spin));
	return WATCH_SPUN;
}

/* A blocking receive whose message watch_sender did not take: `w` says how it ended
 * (WATCH_OTHER if it did not watch). */
static int recv_checked(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
			int source, int tag, MPI_Comm comm, MPI_Status *status, enum watch w)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_req q;
	struct shl_comm *c;
	int err = check_recv(fn, "", r, comm, &c, buf, count, datatype, source, tag);

	if (err != MPI_SUCCESS)
		return err;
	shl_req_init(&q, r, SHL_REQ_RECV);
	fill_request(&q, c, buf, count, datatype, source, tag, SHL_MODE_STANDARD);
	shl_rank_lock(r);
	begin(r, &q);
	/* After a whole spin of watching, sleep at once (progress looks first). */
	if (w != WATCH_SPUN || !shl_wait_once(r, shl_req_done, &q, 0, false))
		shl_wait(r, shl_req_done, &q);
	shl_rank_unlock(r);
	copy_status(status, &q.status);
	if (q.status.MPI_ERROR == MPI_ERR_TRUNCATE)
		return truncated(fn, c, &q.status, count, datatype);
	return MPI_SUCCESS;
}

/* A blocking receive: with plain arguments, first watch the sender's cell. */
static SHL_HOT_INLINE int recv_blocking(const char *fn, void *buf, MPI_Count count,
					MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
					MPI_Status *status)
{
	struct shl_rank *r = shl_self;
	struct shl_comm *c;
	enum watch w = WATCH_OTHER;

	if (plain_args(r, comm, &c, buf, count, datatype, source, tag, true)) {
		w = watch_sender(r, c, buf, count, datatype, source, tag, status);
		if (w == WATCH_TOOK)
			return MPI_SUCCESS;
	}
	return recv_checked(fn, buf, count, datatype, source, tag, comm, status, w);
}

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
	      MPI_Status *status)
{
	return recv_blocking("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}
SHL_WEAK_ALIAS(Recv);

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
		MPI_Comm comm, MPI_Status *status)
{
	return recv_blocking("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}
SHL_WEAK_ALIAS(Recv_c);

static int sendrecv(const char *fn, const void *sendbuf, MPI_Count sendcount,
		    MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
		    MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
		    MPI_Comm comm, MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_req sq, rq;
	struct shl_comm *c;
	int err = check_send(fn, "send", r, comm, &c, sendbuf, sendcount, sendtype, dest, sendtag);
	int rc;

	if (err == MPI_SUCCESS)
		err = check_recv(fn, "recv", r, comm, &c, recvbuf, recvcount, recvtype, source,
				 recvtag);
	if (err != MPI_SUCCESS)
		return err;
	shl_req_init(&sq, r, SHL_REQ_SEND);
	shl_req_init(&rq, r, SHL_REQ_RECV);
	fill_request(&sq, c, sendbuf, sendcount, sendtype, dest, sendtag, SHL_MODE_STANDARD);
	fill_request(&rq, c, recvbuf, recvcount, recvtype, source, recvtag, SHL_MODE_STANDARD);
	shl_rank_lock(r);
	begin(r, &rq);
	rc = begin(r, &sq);
	if (rc == 0)
		shl_wait(r, shl_req_done, &sq);
	shl_wait(r, shl_req_done, &rq);
	shl_rank_unlock(r);
	if (rc != 0)
		return shl_p2p_start_error(fn, c, rc, 0);
	copy_status(status, &rq.status);
	if (rq.status.MPI_ERROR == MPI_ERR_TRUNCATE)
		return truncated(fn, c, &rq.status, recvcount, recvtype);
	return MPI_SUCCESS;
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
		  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
		  int recvtag, MPI_Comm comm, MPI_Status *status)
{
	return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
			recvcount, recvtype, source, recvtag, comm, status);
}
SHL_WEAK_ALIAS(Sendrecv);

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
		    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
			recvcount, recvtype, source, recvtag, comm, status);
}
SHL_WEAK_ALIAS(Sendrecv_c);

static int sendrecv_replace(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
			    int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
			    MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = check_send(fn, "", r, comm, &c, buf, count, datatype, dest, sendtag);
	size_t bytes;
	void *copy;

	if (err == MPI_SUCCESS)
		err = check_source(fn, "recv", c, source, recvtag);
	if (err != MPI_SUCCESS)
		return err;
	bytes = (size_t)count * datatype->size;  /* fits: check_send */
	/* The outgoing data must survive the incoming: send from a packed copy. */
	copy = malloc(bytes ? bytes : 1);
	if (copy == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn,
			       "cannot allocate %zu bytes for the outgoing copy", bytes);
	shl_dt_copy(copy, NULL, buf, datatype, bytes);
	err = sendrecv(fn, copy, (MPI_Count)bytes, MPI_BYTE, dest, sendtag, buf, count, datatype,
		       source, recvtag, comm, status);
	free(copy);
	return err;
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
			  int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	return sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag,
				source, recvtag, comm, status);
}
SHL_WEAK_ALIAS(Sendrecv_replace);

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			    int sendtag, int source, int recvtag, MPI_Comm comm,
			    MPI_Status *status)
{
	return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag,
				source, recvtag, comm, status);
}
SHL_WEAK_ALIAS(Sendrecv_replace_c);

/* ---- probes ---- */

struct probe {
	struct shl_rank *r;
	struct shl_comm *c;
	int source, tag;
	bool take;
	struct shl_envelope *env;
};

/* A wait's predicate, so it may be asked again after it said yes (sleep_once looks once
 * more before sleeping, then shl_poll looks again): a matched probe must keep the message
 * it took, not take the next one too and lose the first. */
static bool found_unexpected(void *arg)
{
	struct probe *p = arg;

	if (p->env == NULL)
		p->env = find_unexpected(p->r, p->c, p->source, p->tag, p->take);
	return p->env != NULL;
}

static void probe_status(MPI_Status *status, const struct shl_envelope *env)
{
	if (status == MPI_STATUS_IGNORE)
		return;
	status->MPI_SOURCE = env->src;
	status->MPI_TAG = env->tag;
	status->shl_cancelled = 0;
	status->shl_bytes = (MPI_Count)env->bytes;
}

/* Probe for (source, tag) on `comm`; blocking unless `flag` is given. With `message`,
 * the message is taken (matched probe). */
static int probe(const char *fn, int source, int tag, MPI_Comm comm, int *flag,
		 MPI_Message *message, MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct probe p = { .r = r, .source = source, .tag = tag, .take = message != NULL };
	int err = shl_check_comm(fn, r, comm, &p.c);

	if (err == MPI_SUCCESS)
		err = check_source(fn, "", p.c, source, tag);
	if (err != MPI_SUCCESS)
		return err;
	if (source == MPI_PROC_NULL) {
		if (flag != NULL)
			*flag = 1;
		if (message != NULL)
			*message = MPI_MESSAGE_NO_PROC;
		if (status != MPI_STATUS_IGNORE)
			shl_status_empty(status, MPI_PROC_NULL);
		return MPI_SUCCESS;
	}
	shl_rank_lock(r);
	if (flag != NULL) {
		shl_progress(r);
		found_unexpected(&p);
	} else {
		shl_wait(r, found_unexpected, &p);
	}
	if (p.env != NULL && message != NULL) {
		p.env->probed_on = p.c;  /* where MPI_Mrecv raises its errors */
		p.env->next = r->matched;
		r->matched = p.env;
	}
	shl_rank_unlock(r);
	if (flag != NULL)
		*flag = p.env != NULL;
	if (p.env == NULL) {
		shl_poll_missed();
		return MPI_SUCCESS;
	}
	probe_status(status, p.env);
	if (message != NULL)
		*message = p.env;
	return MPI_SUCCESS;
}

/* Output argument `what` of probe call `fn` on `comm` is NULL: MPI_ERR_ARG, raised on
 * `comm` (whose handler the caller set) once it is known to be valid. */
static int probe_null(const char *fn, MPI_Comm comm, const char *what)
{
	struct shl_comm *c;
	int err = shl_check_comm(fn, shl_rank_or_die(fn), comm, &c);

	return err != MPI_SUCCESS ? err : shl_err(c, MPI_ERR_ARG, fn, "%s is NULL", what);
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	return probe("MPI_Probe", source, tag, comm, NULL, NULL, status);
}
SHL_WEAK_ALIAS(Probe);

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	if (flag == NULL)
		return probe_null("MPI_Iprobe", comm, "flag");
	return probe("MPI_Iprobe", source, tag, comm, flag, NULL, status);
}
SHL_WEAK_ALIAS(Iprobe);

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
	if (message == NULL)
		return probe_null("MPI_Mprobe", comm, "message");
	return probe("MPI_Mprobe", source, tag, comm, NULL, message, status);
}
SHL_WEAK_ALIAS(Mprobe);

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
		 MPI_Status *status)
{
	if (flag == NULL || message == NULL)
		return probe_null("MPI_Improbe", comm, flag == NULL ? "flag" : "message");
	return probe("MPI_Improbe", source, tag, comm, flag, message, status);
}
SHL_WEAK_ALIAS(Improbe);

/* Where `env` is linked on `r`'s messages taken by matched probes, or NULL if it is not
 * one of them: a stale, foreign or garbage handle, never read. Rank locked. */
static struct shl_envelope **matched_link(struct shl_rank *r, const struct shl_envelope *env)
{
	struct shl_envelope **link = &r->matched;

	while (*link != NULL && *link != env)
		link = &(*link)->next;
	return *link != NULL ? link : NULL;
}

static int not_matched(const char *fn)
{
	return shl_err(NULL, MPI_ERR_REQUEST, fn, "message is not one that a matched probe of "
		       "this rank took and no receive took since (received already?)");
}

/* Receive matched message *message into `q` (filled but not started). */
static int matched_recv(const char *fn, struct shl_rank *r, void *buf, MPI_Count count,
			MPI_Datatype type, MPI_Message *message, struct shl_req *q)
{
	struct shl_envelope **link = NULL;
	int err;

	if (message == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "message is NULL");
	if (*message == MPI_MESSAGE_NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "message is MPI_MESSAGE_NULL");
	if (*message != MPI_MESSAGE_NO_PROC) {
		shl_rank_lock(r);
		link = matched_link(r, *message);
		shl_rank_unlock(r);
		if (link == NULL)
			return not_matched(fn);
	}
	/* Errors go to the communicator the message was probed on; MPI_MESSAGE_NO_PROC
	 * has none, so MPI_COMM_SELF (MPI 4.1, 9.3). */
	struct shl_comm *c = *message == MPI_MESSAGE_NO_PROC ? &r->self : (*message)->probed_on;
	err = shl_check_buffer(c, fn, "", buf, count, type);
	if (err == MPI_SUCCESS)
		err = shl_check_layout(c, fn, "", count, type);
	if (err != MPI_SUCCESS)
		return err;
	fill_request(q, c, buf, count, type, MPI_ANY_SOURCE, MPI_ANY_TAG, SHL_MODE_STANDARD);
	if (*message == MPI_MESSAGE_NO_PROC) {
		shl_status_empty(&q->status, MPI_PROC_NULL);
		shl_req_complete(q);
	} else {
		shl_rank_lock(r);
		link = matched_link(r, *message);  /* again: another thread may have taken it */
		if (link != NULL) {
			*link = (*message)->next;
			deliver(r, q, *message);
		}
		shl_rank_unlock(r);
		if (link == NULL)
			return not_matched(fn);
	}
	*message = MPI_MESSAGE_NULL;
	return MPI_SUCCESS;
}

static int mrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
		 MPI_Message *message, MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_req q;
	int err;

	shl_req_init(&q, r, SHL_REQ_RECV);
	err = matched_recv(fn, r, buf, count, datatype, message, &q);

	if (err != MPI_SUCCESS)
		return err;
	copy_status(status, &q.status);
	if (q.status.MPI_ERROR == MPI_ERR_TRUNCATE)
		return truncated(fn, q.comm, &q.status, count, datatype);
	return MPI_SUCCESS;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
	       MPI_Status *status)
{
	return mrecv("MPI_Mrecv", buf, count, datatype, message, status);
}
SHL_WEAK_ALIAS(Mrecv);

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
		 MPI_Status *status)
{
	return mrecv("MPI_Mrecv_c", buf, count, datatype, message, status);
}
SHL_WEAK_ALIAS(Mrecv_c);

static int imrecv(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
		  MPI_Message *message, MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_req *q;
	int err;

	if (request == NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "request is NULL");
	shl_rank_lock(r);
	q = shl_req_new(r, SHL_REQ_RECV);
	shl_rank_unlock(r);
	if (q == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	err = matched_recv(fn, r, buf, count, datatype, message, q);
	if (err != MPI_SUCCESS) {
		shl_rank_lock(r);
		shl_req_release(r, q);
		shl_rank_unlock(r);
		return err;
	}
	shl_dt_hold(q->type);  /* balances the release in shl_req_release */
	*request = q;
	return MPI_SUCCESS;
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
		MPI_Request *request)
{
	return imrecv("MPI_Imrecv", buf, count, datatype, message, request);
}
SHL_WEAK_ALIAS(Imrecv);

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
		  MPI_Request *request)
{
	return imrecv("MPI_Imrecv_c", buf, count, datatype, message, request);
}
SHL_WEAK_ALIAS(Imrecv_c);

/* ---- hang and deadlock reports ---- */

static const char *comm_label(uint32_t context, char *buf, size_t len)
{
	if (context == SHL_CTX_WORLD)
		return "MPI_COMM_WORLD";
	if (context == SHL_CTX_SELF)
		return "MPI_COMM_SELF";
	snprintf(buf, len, "communicator %u", context);
	return buf;
}

static void describe_receives(int rank, const struct shl_req *q, FILE *out)
{
	char cb[32], src[16];

	for (; q != NULL; q = q->next) {
		snprintf(src, sizeof(src), "%d", q->peer);
		fprintf(out, "  rank %d: waits to receive from %s, tag %d, on %s (up to %zu bytes)\n",
			rank, q->peer == MPI_ANY_SOURCE ? "any rank" : src, q->tag,
			comm_label(q->comm->context, cb, sizeof(cb)), (size_t)q->count * q->type->size);
	}
}

static void describe_unexpected(int rank, const struct shl_envelope *e, FILE *out)
{
	char cb[32];

	for (; e != NULL; e = e->next)
		fprintf(out, "  rank %d: holds an unreceived message from rank %d, tag %d, on %s "
			"(%zu bytes)%s\n", rank, e->src, e->tag,
			comm_label(e->context, cb, sizeof(cb)), e->bytes,
			e->cookie ? "; its sender waits for it to be received" : "");
}

/* Receives from any rank first, then bin by bin (by source, on most communicators). */
void shl_job_describe_rank(int rank, FILE *out)
{
	struct shl_rank *r = shl_job.ranks[rank];

	if (atomic_load(&r->phase) == SHL_PHASE_FINALIZED) {
		fprintf(out, "  rank %d: finished (after MPI_Finalize)\n", rank);
		return;
	}
	if (r->nposted == 0 && r->unexpected_bins == 0) {
		fprintf(out, "  rank %d: blocked in MPI with no receive posted (a collective, a "
			"synchronous or large send, or a wait)\n", rank);
		return;
	}
	describe_receives(rank, r->wild.head, out);
	for (int b = 0; b < SHL_MATCH_BINS; b++)
		describe_receives(rank, r->bins[b].posted.head, out);
	for (int b = 0; b < SHL_MATCH_BINS; b++)
		describe_unexpected(rank, r->bins[b].unexpected.head, out);
}
