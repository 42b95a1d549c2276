/* MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.1, 3.10.2), and the dispatch of core's
 * hooks for p2p's request kinds after SHL_REQ_DONE (core/hooks.h) to their owners: this
 * file's pairs, p2p/partition.c's partitioned requests.
 *
 * An MPI_Isendrecv is one request of kind SHL_REQ_PAIR whose `ext` holds two internal
 * requests, a send and a receive started as MPI_Isend and MPI_Irecv start theirs (so they
 * take every protocol, on the node and across nodes). Each half is completed by whoever
 * completes such a request, which wakes the rank; the pair is complete once a poll of it
 * (shl_p2p_ext_poll, from the waits and tests) finds both halves done, and its status is
 * the receive's. MPI_Isendrecv_replace sends from a packed copy of the buffer taken at the
 * call, so the receive may land in the buffer before the send has gone.
 * Entered by the owning rank's threads; the rank is locked around every use of its lists. */
#include <errno.h>
#include <stdlib.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/p2p/check.h"
#include "runtime/p2p/internal.h"
#include "runtime/p2p/partition.h"

struct pair {
	struct shl_req send, recv;    /* the halves: internal, never handed to the user */
	void *copy;                   /* _replace: the outgoing data, packed; else NULL */
};

static void pair_poll(struct shl_req *q)
{
	struct pair *p = q->ext;

	if (p->send.env != NULL)
		shl_p2p_help(&p->send);  /* a large send's receiver may share its copy */
	if (!shl_req_done(&p->send) || !shl_req_done(&p->recv))
		return;
	q->status = p->recv.status;
	atomic_store_explicit(&q->done, 1, memory_order_release);
}

static void pair_free(struct pair *p)
{
	shl_dt_release(p->send.type);
	shl_dt_release(p->recv.type);
	free(p->copy);
	free(p);
}

void shl_p2p_ext_poll(struct shl_rank *r, struct shl_req *q)
{
	if (q->kind == SHL_REQ_PAIR)
		pair_poll(q);
	else
		shl_p2p_part_poll(r, q);
}

int shl_p2p_ext_start(struct shl_rank *r, struct shl_req *q)
{
	return shl_p2p_part_start(r, q);
}

int shl_p2p_ext_cancel(struct shl_rank *r, struct shl_req *q)
{
	struct pair *p = q->ext;

	if (q->kind != SHL_REQ_PAIR)
		return MPI_ERR_REQUEST;  /* partitioned communication is not cancelled */
	shl_p2p_cancel(r, &p->recv);
	shl_p2p_cancel(r, &p->send);
	return MPI_SUCCESS;
}

void shl_p2p_ext_free(struct shl_rank *r, struct shl_req *q)
{
	if (q->kind == SHL_REQ_PAIR)
		pair_free(q->ext);
	else
		shl_p2p_part_free(r, q);
}

/* Start the pair of (sendbuf, sendcount, sendtype) to `dest` and (recvbuf, recvcount,
 * recvtype) from `source` on `c`, its arguments checked; `copy` (the packed outgoing data
 * of _replace, or NULL) becomes the pair's. */
static int start_pair(const char *fn, struct shl_rank *r, struct shl_comm *c,
		      const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
		      int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		      int source, int recvtag, void *copy, MPI_Request *request)
{
	struct pair *p = malloc(sizeof(*p));
	struct shl_req *q = NULL;
	int rc = -ENOMEM;

	shl_rank_lock(r);
	if (p != NULL && (q = shl_req_new(r, SHL_REQ_PAIR)) != NULL) {
		shl_req_init(&p->send, r, SHL_REQ_SEND);
		shl_req_init(&p->recv, r, SHL_REQ_RECV);
		shl_p2p_fill(&p->send, c, sendbuf, sendcount, sendtype, dest, sendtag,
			     SHL_MODE_STANDARD);
		shl_p2p_fill(&p->recv, c, recvbuf, recvcount, recvtype, source, recvtag,
			     SHL_MODE_STANDARD);
		p->copy = copy;
		/* The send first: it may fail (no memory), and then nothing was posted. */
		rc = shl_p2p_start(r, &p->send);
		if (rc == 0) {
			shl_dt_hold(sendtype);  /* MPI_Type_free may come before completion */
			shl_dt_hold(recvtype);
			shl_p2p_start(r, &p->recv);
			q->comm = shl_comm_hold(c);  /* and MPI_Comm_free */
			q->holds_comm = true;
			q->active = true;
			q->ext = p;
		} else {
			shl_req_release(r, q);
		}
	}
	shl_rank_unlock(r);
	if (rc != 0) {
		free(p);
		free(copy);
		return shl_p2p_start_error(fn, c, rc, (size_t)sendcount * sendtype->size);
	}
	*request = q;
	return MPI_SUCCESS;
}

static int isendrecv(const char *fn, const void *sendbuf, MPI_Count sendcount,
		     MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
		     MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
		     MPI_Comm comm, MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = check_send(fn, "send", r, comm, &c, sendbuf, sendcount, sendtype, dest, sendtag);

	if (err == MPI_SUCCESS)
		err = check_recv(fn, "recv", r, comm, &c, recvbuf, recvcount, recvtype, source,
				 recvtag);
	if (err == MPI_SUCCESS && request == NULL)
		err = shl_err(c, MPI_ERR_REQUEST, fn, "request is NULL");
	if (err != MPI_SUCCESS)
		return err;
	return start_pair(fn, r, c, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
			  recvcount, recvtype, source, recvtag, NULL, request);
}

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
		   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
		   int recvtag, MPI_Comm comm, MPI_Request *request)
{
	return isendrecv("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
			 recvcount, recvtype, source, recvtag, comm, request);
}
SHL_WEAK_ALIAS(Isendrecv);

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
		     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
		     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
	return isendrecv("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
			 recvcount, recvtype, source, recvtag, comm, request);
}
SHL_WEAK_ALIAS(Isendrecv_c);

static int isendrecv_replace(const char *fn, void *buf, MPI_Count count, MPI_Datatype datatype,
			     int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
			     MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = check_send(fn, "", r, comm, &c, buf, count, datatype, dest, sendtag);
	size_t bytes;
	void *copy = NULL;

	if (err == MPI_SUCCESS)
		err = check_recv(fn, "", r, comm, &c, buf, count, datatype, source, recvtag);
	if (err == MPI_SUCCESS && request == NULL)
		err = shl_err(c, MPI_ERR_REQUEST, fn, "request is NULL");
	if (err != MPI_SUCCESS)
		return err;
	bytes = (size_t)count * datatype->size;  /* fits: check_send */
	/* The outgoing data must survive the incoming: the send goes from a packed copy
	 * (none needed when nothing is sent). */
	if (dest != MPI_PROC_NULL && bytes > 0) {
		copy = malloc(bytes);
		if (copy == NULL)
			return shl_err(c, MPI_ERR_NO_MEM, fn,
				       "cannot allocate %zu bytes for the outgoing copy", bytes);
		shl_dt_copy(copy, NULL, buf, datatype, bytes);
	}
	if (copy == NULL)  /* nothing leaves the buffer */
		return start_pair(fn, r, c, buf, count, datatype, dest, sendtag, buf, count,
				  datatype, source, recvtag, NULL, request);
	return start_pair(fn, r, c, copy, (MPI_Count)bytes, MPI_BYTE, dest, sendtag, buf, count,
			  datatype, source, recvtag, copy, request);
}

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
			   int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
	return isendrecv_replace("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag,
				 source, recvtag, comm, request);
}
SHL_WEAK_ALIAS(Isendrecv_replace);

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			     int sendtag, int source, int recvtag, MPI_Comm comm,
			     MPI_Request *request)
{
	return isendrecv_replace("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag,
				 source, recvtag, comm, request);
}
SHL_WEAK_ALIAS(Isendrecv_replace_c);
