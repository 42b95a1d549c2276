/* Sends, their inline half: where a send's payload goes (in fastbox cells, inline in an
 * envelope, packed into a pooled chunk, or left in the sender's buffer with a cookie the
 * receiver completes) and the envelope handed to a rank of this node. Inline because
 * MPI_Isend's common case has its own copy of it (bindings.c); send.c has the out-of-line
 * copy and the blocking send's wait. Protocols: a payload up to shl_job.inline_max rides in
 * the envelope (the send completes at once); larger, buffered (bsend.c) and synchronous
 * sends leave a cookie (the sender's request) that the receiver completes when it matches,
 * for large ones after copying once from the sender's buffer.
 * Entered by the sending rank's threads with the rank locked. Never blocks; must not touch
 * another rank's lists, only its inbox (push) and its fastbox from us. */
#ifndef SHL_RUNTIME_P2P_SEND_H
#define SHL_RUNTIME_P2P_SEND_H

#include <errno.h>

#include "runtime/core/rt.h"
#include "runtime/p2p/fastbox.h"
#include "runtime/p2p/internal.h"

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

/* Send `bytes` of (buf, type) to `to`, a rank of this node, in an envelope whose payload
 * is `how`: inline in the envelope, packed into its pooled chunk, or left in `buf` (the
 * receiver copies it, then completes `cookie`). `cookie` is the request the receiver
 * completes, or NULL: then `req` completes now. Returns 0 or -ENOMEM. */
static SHL_HOT_INLINE int envelope(struct shl_rank *r, struct shl_comm *c, struct shl_rank *to,
				   const void *buf, struct shl_datatype *type, size_t bytes,
				   int tag, enum shl_q_payload how, struct shl_req *cookie,
				   struct shl_req *req)
{
	struct shl_envelope *env =
		shl_pool_get(&r->pool, how == SHL_Q_POOLED ? SHL_Q_CHUNK_PACKED : SHL_Q_CHUNK_NONE);

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

/* Send (buf, count, type) to `dest` of `c`. `req` completes when the send does; with a
 * stack request the caller waits on it. A small message goes into fastbox cells
 * (send_small); else a payload up to shl_job.inline_max rides in the envelope, a small
 * sparse one is packed (payload_of), and the send completes at once; a larger one is copied
 * once, by the receiver, straight from `buf` when it matches (a blocking send may turn it
 * eager meanwhile: shl_p2p_send_checked). Synchronous sends complete when matched; buffered
 * ones (shl_bsend_send) and sends to other nodes (shl_p2p_send_remote) go out of line.
 * Returns 0, -ENOBUFS (buffered send without room in the attached buffer) or -ENOMEM. */
static SHL_HOT_INLINE int send_inline(struct shl_rank *r, struct shl_comm *c, const void *buf,
				      MPI_Count count, struct shl_datatype *type, int dest, int tag,
				      enum shl_send_mode mode, struct shl_req *req)
{
	size_t bytes = (size_t)count * type->size;
	enum shl_q_payload how = payload_of(mode, count, type);
	struct shl_req *cookie = how == SHL_Q_DIRECT || mode == SHL_MODE_SYNC ? req : NULL;
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
	if (unlikely(mode == SHL_MODE_BUFFERED))
		return shl_bsend_send(r, c, to, buf, count, type, dest, tag, req);
	return envelope(r, c, to, buf, type, bytes, tag, how, cookie, req);
}

#endif
