/* Fastboxes, their inline half: the common small message written straight into the
 * cells of the sender's box to its receiver (queues.h, "Fastboxes"), and the box a send
 * finds by the receiver's world rank. Inline because the blocking and nonblocking sends
 * take this path first; the drain, the take and the watch of cells are in fastbox.c.
 * Entered by the sending rank's threads with the rank locked. Must not write a cell a
 * receiver has not given back, nor touch the receiver's lists. */
#ifndef SHL_RUNTIME_P2P_FASTBOX_H
#define SHL_RUNTIME_P2P_FASTBOX_H

#include "runtime/core/rt.h"
#include "runtime/p2p/internal.h"

/* fbox_out's mark for a receiver that took no box from us (it had enough), like MAP_FAILED. */
#define SHL_P2P_FBOX_REFUSED ((struct shl_fbox *)-1)

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
		return shl_p2p_fbox_open(r, w);
	return fb == SHL_P2P_FBOX_REFUSED ? NULL : fb;
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
		out->back_in = shl_p2p_fbox_from(r, to, &stored);
		out->back_looked = stored;
		if (out->back_in == NULL)
			return UINT64_MAX;
		out->back_in->back_out = out;
	}
	return out->back_in->next;
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

#endif
