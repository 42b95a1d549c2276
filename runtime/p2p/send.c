/* Sends, their out-of-line half (the inline half is send.h): the send of every caller but
 * MPI_Isend's common case, the envelope of a buffered send (bsend.c), and the blocking
 * send with its checks and its wait, which turns a standard send eager (turn_eager) when
 * no receive matches it soon. Entered by the sending rank's threads; the blocking send
 * takes the rank lock, the rest runs with it held. Blocks only in shl_wait; must not touch
 * another rank's lists. */
#include <errno.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/p2p/check.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/send.h"

/* send_inline out of line, for every caller but MPI_Isend's common case (make_request), which
 * has send_inline in its own copy: a call, its prologue and epilogue were 30 of the ~250
 * instructions an eager MPI_Isend through an inbox took. */
int shl_p2p_send(struct shl_rank *r, struct shl_comm *c, const void *buf, MPI_Count count,
		 struct shl_datatype *type, int dest, int tag, enum shl_send_mode mode,
		 struct shl_req *req)
{
	return send_inline(r, c, buf, count, type, dest, tag, mode, req);
}

int shl_p2p_send_envelope(struct shl_rank *r, struct shl_comm *c, struct shl_rank *to,
			  const void *buf, struct shl_datatype *type, size_t bytes, int tag,
			  enum shl_q_payload how, struct shl_req *cookie, struct shl_req *req)
{
	return envelope(r, c, to, buf, type, bytes, tag, how, cookie, req);
}
/* A blocking send's wait: help the receiver copy a large message while waiting. */
static bool send_done(void *arg)
{
	if (shl_p2p_offered(arg))
		shl_p2p_help(arg);
	return shl_req_done(arg);
}

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
	/* Pairs with claim() (match.h): the receiver either matched the envelope already,
	 * or will take the copy. */
	if (!atomic_compare_exchange_strong(&env->state, &expected, SHL_Q_EAGER))
		return false;
	q->env = NULL;
	shl_req_complete_own(r, q);
	return true;
}

int shl_p2p_send_checked(const char *fn, enum shl_send_mode mode, const void *buf,
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
		rc = shl_p2p_send(r, c, buf, count, type, dest, tag, mode, &r->sent);
	} else {
		shl_req_init(&q, r, SHL_REQ_SEND);
		shl_p2p_fill(&q, c, buf, count, type, dest, tag, mode);
		rc = shl_p2p_send(r, c, buf, count, type, dest, tag, mode, &q);
		if (rc == 0 && !shl_req_done(&q) && !turn_eager(r, &q))
			shl_wait(r, send_done, &q);
	}
	shl_rank_unlock(r);
	return rc == 0 ? MPI_SUCCESS : shl_p2p_start_error(fn, c, rc, (size_t)count * type->size);
}
