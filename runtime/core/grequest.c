/* Generalized requests (MPI 4.1, 13.2): MPI_Grequest_start and MPI_Grequest_complete, and
 * the calls of the user's query, free and cancel callbacks that the Wait/Test family,
 * MPI_Request_get_status, MPI_Request_free and MPI_Cancel make through core/request.c.
 * A generalized request is a request of kind SHL_REQ_GREQ whose `done` is set by
 * MPI_Grequest_complete (shl_req_complete: a rank sleeping in a wait for it wakes), and
 * whose `ext` holds the callbacks. Entered by the owning rank's threads; Grequest_complete
 * may come from any of them while another waits. The rank lock is never held across a
 * callback: a callback may call MPI. */
#include <stdlib.h>

#include "runtime/core/rt.h"

struct shl_greq {
	MPI_Grequest_query_function *query;
	MPI_Grequest_free_function *free;
	MPI_Grequest_cancel_function *cancel;
	void *extra;
	bool freed;       /* free_fn has run (it runs once) */
};

static struct shl_greq *greq_of(struct shl_req *q)
{
	return q->ext;
}

/* Call free_fn once, rank `r` unlocked around it. */
static int call_free(struct shl_rank *r, struct shl_greq *g)
{
	int rc = MPI_SUCCESS;

	if (g->freed)
		return MPI_SUCCESS;
	g->freed = true;
	if (g->free != NULL) {
		shl_rank_unlock(r);
		rc = g->free(g->extra);
		shl_rank_lock(r);
	}
	return rc;
}

int shl_greq_query(struct shl_rank *r, struct shl_req *q, MPI_Status *st)
{
	struct shl_greq *g = greq_of(q);
	int rc = MPI_SUCCESS;

	shl_status_empty(st, MPI_ANY_SOURCE);
	if (g->query != NULL) {
		shl_rank_unlock(r);
		rc = g->query(g->extra, st);
		shl_rank_lock(r);
	}
	return rc;
}

int shl_greq_finish(struct shl_rank *r, struct shl_req *q)
{
	MPI_Status st;
	int rc = shl_greq_query(r, q, &st);
	int rf = call_free(r, greq_of(q));

	/* Waitany and its kin return the last failing callback's error (free_fn's). */
	st.MPI_ERROR = rf != MPI_SUCCESS ? rf : rc;
	q->status = st;
	return st.MPI_ERROR;
}

int shl_greq_free(struct shl_rank *r, struct shl_req *q)
{
	int rc;

	if (!shl_req_done(q)) {
		/* MPI_Grequest_complete calls free_fn and releases it. */
		q->freed = true;
		return MPI_SUCCESS;
	}
	rc = call_free(r, greq_of(q));
	shl_req_release(r, q);
	return rc;
}

int shl_greq_cancel(struct shl_rank *r, struct shl_req *q)
{
	struct shl_greq *g = greq_of(q);
	int rc = MPI_SUCCESS;

	if (g->cancel != NULL) {
		int complete = shl_req_done(q);
		shl_rank_unlock(r);
		rc = g->cancel(g->extra, complete);
		shl_rank_lock(r);
	}
	return rc;
}

void shl_greq_drop(struct shl_req *q)
{
	free(q->ext);
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
			MPI_Grequest_free_function *free_fn,
			MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
			MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Grequest_start");
	struct shl_greq *g;
	struct shl_req *q;

	if (request == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Grequest_start", "request is NULL");
	g = malloc(sizeof(*g));
	if (g == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Grequest_start", "out of memory");
	*g = (struct shl_greq){ query_fn, free_fn, cancel_fn, extra_state, false };
	shl_rank_lock(r);
	q = shl_req_new(r, SHL_REQ_GREQ);
	if (q != NULL) {
		q->ext = g;
		/* Marked persistent and active until released: finish (core/request.c) then
		 * finds it off its common path. Never inactive, so MPI_Start refuses it. */
		q->persistent = true;
		q->active = true;
	}
	shl_rank_unlock(r);
	if (q == NULL) {
		free(g);
		return shl_err(NULL, MPI_ERR_NO_MEM, "MPI_Grequest_start", "out of memory");
	}
	*request = q;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Grequest_start);

int PMPI_Grequest_complete(MPI_Request request)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Grequest_complete");
	struct shl_req *q = request;
	int rc = MPI_SUCCESS;

	if (q == MPI_REQUEST_NULL || !shl_handle_in_arena(q, sizeof(*q)) ||
	    q->magic != SHL_REQ_MAGIC || q->owner != r || q->kind != SHL_REQ_GREQ)
		return shl_err(NULL, MPI_ERR_REQUEST, "MPI_Grequest_complete",
			       "request is not a generalized request of this rank (freed already?)");
	shl_rank_lock(r);
	if (shl_req_done(q)) {
		shl_rank_unlock(r);
		return shl_err(NULL, MPI_ERR_REQUEST, "MPI_Grequest_complete",
			       "request was completed already (MPI_Grequest_complete called twice)");
	}
	if (q->freed) {
		/* MPI_Request_free let go of it: nobody waits; free it now. */
		atomic_store_explicit(&q->done, 1, memory_order_relaxed);
		rc = call_free(r, greq_of(q));
		shl_req_release(r, q);
	} else {
		shl_req_complete(q);  /* wakes a thread of the rank waiting for it */
	}
	shl_rank_unlock(r);
	if (rc != MPI_SUCCESS)
		return shl_err(NULL, rc, "MPI_Grequest_complete", "free_fn of the generalized "
			       "request (freed by MPI_Request_free) returned this error");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Grequest_complete);
