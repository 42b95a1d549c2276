/* Fastboxes, their out-of-line half (the inline half, sending into cells, is fastbox.h):
 * opening a box to a receiver, draining a sender's box into matches (progress), taking a
 * receive's message from the head of a box, and a blocking receive's watch of its sender's
 * head cell. Entered by the owning rank's threads with the rank locked (shl_p2p_fbox_watch:
 * by a rank's only MPI thread, unlocked). Must not take a cell out of its sender's order,
 * nor write a box but to give cells back. */
#include <errno.h>
#include <stdlib.h>

#include "runtime/core/rt.h"
#include "runtime/p2p/fastbox.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/match.h"

/* fbox_to's first message to world rank `w`: open our box to it, or mark that it took
 * none (a rank of another node takes none). */
struct shl_fbox *shl_p2p_fbox_open(struct shl_rank *r, int w)
{
	struct shl_rank *to = shl_job.ranks[w];
	struct shl_fbox *fb;

	if (r->fbox_out == NULL) {
		r->fbox_out = calloc((size_t)shl_job.size, sizeof(*r->fbox_out));
		if (r->fbox_out == NULL)
			return NULL;
	}
	fb = to != NULL ? shl_fbox_open(&to->fbox_in, shl_job.fbox_peers, r->world_rank) : NULL;
	r->fbox_out[w] = fb != NULL ? fb : SHL_P2P_FBOX_REFUSED;
	return fb;
}

struct shl_fbox *shl_p2p_fbox_from(struct shl_rank *r, const struct shl_rank *from,
				   int *stored)
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
 * posted receive it matches; whether there was one. Inline in shl_p2p_fbox_drain, with the
 * rarer unexpected case out of line: callgrind on bench/msgrate counted 22 fewer
 * instructions a message than with one call for both. */
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

void shl_p2p_fbox_drain(struct shl_rank *r, struct shl_fbox *fb)
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
bool shl_p2p_fbox_take(struct shl_rank *r, struct shl_req *q)
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

/* Blocking receive of (buf, count, type) from `source` with `tag` on `c`, its arguments
 * plain (plain_args) and nothing begun yet: when `source` is a rank of this node that has
 * a fastbox to us, and no receive is posted and nothing waits unexpected (so the box's
 * head is the oldest message that could match), poll that cell alone and take a matching
 * message that fits straight from it into `buf` and `status`. No request: the general
 * wait would post one, poll every box and the inbox, find the receive again and ask a
 * predicate, and each instruction between seeing the message and the caller's next send
 * is latency (docs/performance.md, "Blocking receives watch their sender"). Returns
 * SHL_P2P_WATCH_TOOK (the receive is done), SHL_P2P_WATCH_OTHER (not applicable, or
 * something else came first: the head cell does not match, would truncate or carries an
 * envelope, or the inbox has mail) or SHL_P2P_WATCH_SPUN (the spin time passed). Either
 * way nothing was taken but this receive's message, so the general path takes over with
 * nothing lost. Only where the general wait would spin with nothing else to do: not while
 * ranks outnumber cores (or are switched in user space) or the node has connections to
 * read. */
enum shl_p2p_watch shl_p2p_fbox_watch(struct shl_rank *r, struct shl_comm *c, void *buf,
				      MPI_Count count, struct shl_datatype *type, int source,
				      int tag, MPI_Status *status)
{
	struct shl_spin spin = { 0, 0 };
	size_t room = (size_t)count * type->size;
	struct shl_rank *from;
	struct shl_fbox *fb;

	if (r->nposted != 0 || r->unexpected_bins != 0 || r->fiber != NULL ||
	    shl_job.spin_ns == 0 || shl_job.spin_yield || shl_job.poll_net)
		return SHL_P2P_WATCH_OTHER;
	from = shl_job.ranks[shl_comm_remote_world(c, source)];
	if (from == NULL || (fb = shl_p2p_fbox_from(r, from, NULL)) == NULL)
		return SHL_P2P_WATCH_OTHER;
	do {
		const struct shl_fbox_cell *cell = shl_fbox_peek(fb);
		if (cell != NULL) {
			if (!cell_matches(cell, c->context, source, tag) || cell->bytes > room)
				return SHL_P2P_WATCH_OTHER;
			copy_cells(fb, cell, buf, type, cell->bytes);
			if (status != MPI_STATUS_IGNORE)
				status_of(status, cell->src, cell->tag, cell->bytes);
			shl_fbox_take(fb, cell);
			return SHL_P2P_WATCH_TOOK;
		}
		if (!shl_inbox_empty(&r->inbox))
			return SHL_P2P_WATCH_OTHER;
		shl_spin_relax(&spin);
	} while (shl_spin_on(&spin));
	return SHL_P2P_WATCH_SPUN;
}
