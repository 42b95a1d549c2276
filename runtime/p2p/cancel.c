/* MPI_Cancel's work for point-to-point requests, and whether a receive is still posted
 * (MPI_Request_free). A posted receive is unlinked; a send on this node wins its envelope
 * from the receiver with one compare-and-swap (the receiver's claim makes the other), and a
 * send to another node asks that node through the completion thread (p2p/remote.c).
 * Entered by the owning rank's threads with the rank locked. Must not complete a request
 * that its receiver has matched as cancelled. */
#include "runtime/core/rt.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/match.h"

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
		/* Pairs with claim() (match.h): if the receiver has not matched the envelope
		 * yet, it will find it cancelled and drop it. */
		if (req->env == NULL ||
		    !atomic_compare_exchange_strong(&req->env->state, &expected, SHL_Q_CANCELLED))
			return;
	}
	req->status.shl_cancelled = 1;
	shl_req_complete(req);
}
