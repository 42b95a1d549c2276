/* The point-to-point bindings: MPI_Send and its modes, MPI_Isend and friends, the
 * persistent inits and MPI_Start's start, MPI_Recv, MPI_Irecv, MPI_Sendrecv(_replace), with
 * their argument checks and error reports. The common cases are taken first, with their
 * mechanisms inline: a small message with plain arguments straight into a fastbox cell, an
 * MPI_Isend that completes at once on the rank's shared request, a receive that watches its
 * sender's cell. Entered by rank threads (the program's own threads under
 * MPI_THREAD_MULTIPLE), which take the rank lock around every use of the rank's lists.
 * Never blocks except in shl_wait; must not touch another rank's lists. */
#include <errno.h>
#include <stdlib.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/p2p/check.h"
#include "runtime/p2p/fastbox.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/match.h"
#include "runtime/p2p/send.h"

/* ---- argument checks and error reports ---- */

/* Out of the send path. */
int shl_p2p_bad_dest(const char *fn, struct shl_comm *c, int dest)
{
	if (dest == MPI_ANY_SOURCE)
		return shl_err(c, MPI_ERR_RANK, fn, "dest MPI_ANY_SOURCE is not allowed in a send");
	return shl_err(c, MPI_ERR_RANK, fn, "dest %d is not a rank of %s (size %d)", dest,
		       c->name ? c->name : "the communicator", shl_comm_remote_size(c));
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
	if (rc == -ENOBUFS)
		return shl_bsend_no_room(fn, c, bytes);
	return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
}

int shl_p2p_truncated(const char *fn, struct shl_comm *c, const MPI_Status *st,
		      MPI_Count count, MPI_Datatype type)
{
	return shl_err(c, MPI_ERR_TRUNCATE, fn,
		       "message from rank %d with tag %d (%lld bytes) does not fit the receive "
		       "buffer (%lld x %s = %zu bytes)", st->MPI_SOURCE, st->MPI_TAG,
		       (long long)st->shl_sent_bytes, count, type->name ? type->name : "datatype",
		       (size_t)count * type->size);
}

/* Whether the arguments of a blocking send or receive are valid and plain: the calling
 * rank is in MPI and calls it from one thread only, `comm` is a communicator (then `*c`),
 * `type` a predefined datatype that `count` and `buf` suit, `peer` one of its ranks (not
 * MPI_PROC_NULL nor MPI_ANY_SOURCE) and `tag` a tag (or MPI_ANY_TAG where `any_tag`).
 * The blocking calls take their common case on this much (send_small,
 * shl_p2p_fbox_watch): a ping-pong's latency is the instructions from the receive that
 * sees a message to the store that publishes the reply. When it is false the full checks
 * run and say what is wrong, or that nothing is. */
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

/* ---- starting requests ---- */

/* Start the operation of request `req`, fresh from shl_req_new or reset (shl_p2p_start). */
static SHL_HOT_INLINE int begin(struct shl_rank *r, struct shl_req *req)
{
	if (req->kind == SHL_REQ_SEND)
		return shl_p2p_send(r, req->comm, req->buf, req->count, req->type, req->peer,
				    req->tag, req->mode, req);
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

/* ---- blocking sends ---- */

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
	return shl_p2p_send_checked(fn, mode, buf, count, type, dest, tag, comm);
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
		shl_p2p_fill(q, c, buf, count, type, peer, tag, mode);
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

/* A blocking receive whose message shl_p2p_fbox_watch did not take: `w` says how it ended
 * (SHL_P2P_WATCH_OTHER if it did not watch). */
static int recv_checked(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
			int source, int tag, MPI_Comm comm, MPI_Status *status,
			enum shl_p2p_watch w)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_req q;
	struct shl_comm *c;
	int err = check_recv(fn, "", r, comm, &c, buf, count, datatype, source, tag);

	if (err != MPI_SUCCESS)
		return err;
	shl_req_init(&q, r, SHL_REQ_RECV);
	shl_p2p_fill(&q, c, buf, count, datatype, source, tag, SHL_MODE_STANDARD);
	shl_rank_lock(r);
	begin(r, &q);
	/* After a whole spin of watching, sleep at once (progress looks first). */
	if (w != SHL_P2P_WATCH_SPUN || !shl_wait_once(r, shl_req_done, &q, 0, false))
		shl_wait(r, shl_req_done, &q);
	shl_rank_unlock(r);
	shl_status_out(status, &q.status);
	if (q.status.MPI_ERROR == MPI_ERR_TRUNCATE)
		return shl_p2p_truncated(fn, c, &q.status, count, datatype);
	return MPI_SUCCESS;
}

/* A blocking receive: with plain arguments, first watch the sender's cell. */
static SHL_HOT_INLINE int recv_blocking(const char *fn, void *buf, MPI_Count count,
					MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
					MPI_Status *status)
{
	struct shl_rank *r = shl_self;
	struct shl_comm *c;
	enum shl_p2p_watch w = SHL_P2P_WATCH_OTHER;

	if (plain_args(r, comm, &c, buf, count, datatype, source, tag, true)) {
		w = shl_p2p_fbox_watch(r, c, buf, count, datatype, source, tag, status);
		if (w == SHL_P2P_WATCH_TOOK)
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
	shl_p2p_fill(&sq, c, sendbuf, sendcount, sendtype, dest, sendtag, SHL_MODE_STANDARD);
	shl_p2p_fill(&rq, c, recvbuf, recvcount, recvtype, source, recvtag, SHL_MODE_STANDARD);
	shl_rank_lock(r);
	begin(r, &rq);
	rc = begin(r, &sq);
	if (rc == 0)
		shl_wait(r, shl_req_done, &sq);
	shl_wait(r, shl_req_done, &rq);
	shl_rank_unlock(r);
	if (rc != 0)
		return shl_p2p_start_error(fn, c, rc, 0);
	shl_status_out(status, &rq.status);
	if (rq.status.MPI_ERROR == MPI_ERR_TRUNCATE)
		return shl_p2p_truncated(fn, c, &rq.status, recvcount, recvtype);
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
