/* Matching, its inline half: a rank's posted receives and unexpected messages in bins by
 * (context, source) (core/rt.h, "matching"), the claim of a message for a receive, and the
 * delivery of a message into the receive it matched. Inline because every message and
 * every receive passes here (MPI_Irecv, the inbox and fastbox drains, probes); the rest of
 * matching is in match.c. Entered by the owning rank's threads with the rank locked. Must
 * not touch another rank's lists: only its pool (put) and requests it is told to complete. */
#ifndef SHL_RUNTIME_P2P_MATCH_H
#define SHL_RUNTIME_P2P_MATCH_H

#include "runtime/core/rt.h"
#include "runtime/p2p/internal.h"

/* Claim an envelope for a receive. Fails only if its sender cancelled it first. */
static inline bool claim(struct shl_envelope *env)
{
	uint8_t expected = SHL_Q_PENDING;

	if (env->cookie == NULL)
		return true;
	/* Pairs with the sender's CAS in shl_p2p_cancel (cancel.c) and turn_eager
	 * (send.c): exactly one of them wins. */
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

/* Receive `q`, its data and status in, completes (and goes back to the free list if
 * MPI_Request_free let go of it). */
static inline void finish_recv(struct shl_rank *r, struct shl_req *q)
{
	shl_req_complete_own(r, q);
	if (q->freed)
		shl_req_release(r, q);
}

/* Message `env` into receive `q`, which completes (for a message from another node, once
 * its data is in). Inline: every message through an inbox ends here. */
static SHL_HOT_INLINE void deliver(struct shl_rank *r, struct shl_req *q,
				   struct shl_envelope *env)
{
	size_t n = fit(q, env->bytes);

	if (unlikely(env->payload == SHL_Q_REMOTE)) {
		shl_p2p_deliver_remote(r, q, env, n);
		return;
	}
	if (env->payload == SHL_Q_DIRECT && env->cookie != NULL &&
	    shl_p2p_split_worth(env, q->type, n))
		shl_p2p_split_copy(env, q->buf, q->type, n);
	else
		shl_dt_copy_inline(q->buf, q->type, shl_envelope_payload(env),
				   env->payload == SHL_Q_DIRECT ? env->layout : NULL, n);
	set_status(q, env->src, env->tag, env->bytes, n);
	if (env->cookie != NULL)
		shl_req_complete(env->cookie);
	shl_pool_keep(&r->pool, env);
	finish_recv(r, q);
}

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

/* Take the posted receive linked at `link` of `list` off it. */
static inline struct shl_req *unlink_posted(struct shl_rank *r, struct shl_req_list *list,
					    struct shl_req **link)
{
	struct shl_req *q = *link;

	*link = q->next;
	if (list->tail == &q->next)
		list->tail = link;
	r->nposted--;
	return q;
}

/* Post receive `q` at the end of its list, numbered after every receive posted before. */
static inline void keep_posted(struct shl_rank *r, struct shl_req *q)
{
	struct shl_req_list *list = posted_list(r, q);

	q->next = NULL;
	q->seq = r->posted_seq++;
	*list->tail = q;
	list->tail = &q->next;
	r->nposted++;
}

/* Keep message `env` as unexpected at the end of its bin, numbered after every unexpected
 * message before it. */
static inline void keep_unexpected(struct shl_rank *r, struct shl_envelope *env)
{
	unsigned b = bin_of(env->context, env->src);
	struct shl_envelope_list *list = &r->bins[b].unexpected;

	env->next = NULL;
	env->seq = r->unexpected_seq++;
	*list->tail = env;
	list->tail = &env->next;
	r->unexpected_bins |= UINT64_C(1) << b;
}

/* Take the unexpected message linked at `link` of bin `b` off it. */
static inline void unlink_unexpected(struct shl_rank *r, unsigned b,
				     struct shl_envelope **link)
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

/* Message `env`, taken from an inbox or a fastbox cell, into the oldest posted receive it
 * matches, or kept as unexpected. */
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

/* Receive `q`, just started: from the oldest unexpected message it matches, else from the
 * head of a fastbox (shl_p2p_fbox_take), else posted for progress to match. */
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
	if (r->nposted == 0 && shl_p2p_fbox_take(r, q))
		return;
	keep_posted(r, q);
}

/* Where receive `q` is linked on `list` (its posted_list), or NULL if it is not posted. */
static inline struct shl_req **posted_link(struct shl_req_list *list, const struct shl_req *q)
{
	struct shl_req **link = &list->head;

	while (*link != NULL && *link != q)
		link = &(*link)->next;
	return *link != NULL ? link : NULL;
}

#endif
