/* Matching, its out-of-line half (the inline half is match.h): the drain of a rank's
 * fastboxes and inbox that progress runs, and the delivery of a message from another node.
 * Entered by the owning rank's threads with the rank locked (shl_progress). Never blocks;
 * must not touch another rank's lists, only its pool (put), its fastboxes to us (take) and
 * requests it is told to complete. */
#include "runtime/core/rt.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/match.h"

/* Out of deliver's inline path (match.h). */
void shl_p2p_deliver_remote(struct shl_rank *r, struct shl_req *q, struct shl_envelope *env,
			    size_t n)
{
	set_status(q, env->src, env->tag, env->bytes, n);
	shl_p2p_recv_remote(r, q, env, n);
	if (q->freed) {  /* MPI_Request_free'd: released once its data is in */
		q->next = r->detached;
		r->detached = q;
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
			shl_p2p_fbox_drain(r, fb);
	}
	for (int lane = 0; lane < r->inbox.lanes; lane++) {
		shl_inbox_prefetch(&r->inbox, lane);
		while ((env = shl_inbox_pop(&r->inbox, lane)) != NULL) {
			/* Read before arrive(): the envelope may go back to its sender there. */
			struct shl_fbox *fb = env->via_fbox ? env->fbox : NULL;
			if (fb != NULL)  /* the sender's older messages come first */
				shl_p2p_fbox_drain(r, fb);
			arrive(r, env);
			if (fb != NULL)
				shl_fbox_inbox_took(fb);
		}
	}
	if (r->pool.back != NULL)
		shl_pool_flush(&r->pool);
}
