/* Requests: the per-rank pool, and the Wait/Test family, MPI_Request_get_status and its
 * _all/_any/_some forms, Start, Cancel, Request_free.
 * Entered by rank threads; the rank is locked around every use of its lists. A request is
 * completed by whoever finishes its operation (shl_req_complete, any thread) but is only
 * ever released by its owning rank. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"

struct shl_req *shl_req_alloc(void)
{
	return shl_handle_alloc(sizeof(struct shl_req));
}

int shl_req_prefill(struct shl_rank *r, int n)
{
	for (int i = 0; i < n; i++) {
		struct shl_req *q = shl_req_alloc();
		if (q == NULL)
			return -1;
		q->magic = 0;
		q->next = r->free_reqs;
		r->free_reqs = q;
	}
	return 0;
}

void shl_req_drop_ext(struct shl_rank *r, struct shl_req *q)
{
	if (q->kind == SHL_REQ_DONE)
		shl_coll_persist_free(q);
	else if (q->kind == SHL_REQ_GREQ)
		shl_greq_drop(q);
	else if (q->kind == SHL_REQ_FILE)
		shl_file_req_drop(r, q);
	else
		shl_p2p_ext_free(r, q);
	q->ext = NULL;
}

/* Whether `q` (of rank `r`, rank locked) is complete: a request of p2p's kinds after
 * SHL_REQ_DONE is advanced first (shl_p2p_ext_poll sets its `done`). */
static inline bool settled(struct shl_rank *r, struct shl_req *q)
{
	if (unlikely(q->kind >= SHL_REQ_PAIR) && !shl_req_done(q))
		shl_p2p_ext_poll(r, q);
	return shl_req_done(q);
}

void shl_req_reap(struct shl_rank *r)
{
	struct shl_req **link = &r->detached, *q;

	while ((q = *link) != NULL) {
		if (!settled(r, q)) {
			link = &q->next;
			continue;
		}
		*link = q->next;
		if (q->bsend_block != NULL)
			shl_bsend_free(r, q->bsend_block);
		shl_req_release(r, q);
	}
}

/* A null handle, or a persistent request not started: Wait and Test return at once. */
static bool inactive(const struct shl_req *q)
{
	return q == MPI_REQUEST_NULL || (q->persistent && !q->active);
}

/* Whether `q` is a live request of rank `r` (not MPI_REQUEST_NULL): the rank's shared
 * `sent` request or a request slot of the handle arena (core/handle.h), read only then.
 * Inline: Waitall and its kin ask it of every request. */
static SHL_HOT_INLINE bool valid_req(const struct shl_rank *r, const struct shl_req *q)
{
	return (q == &r->sent || shl_handle_in_arena(q, sizeof(*q))) &&
	       q->magic == SHL_REQ_MAGIC && q->owner == r;
}

/* check_req's report. */
static __attribute__((noinline)) int bad_req(const char *fn, int index)
{
	if (index < 0)
		return shl_err(NULL, MPI_ERR_REQUEST, fn,
			       "request is not a valid request of this rank (freed already?)");
	return shl_err(NULL, MPI_ERR_REQUEST, fn,
		       "array_of_requests[%d] is not a valid request of this rank", index);
}

static SHL_HOT_INLINE int check_req(const char *fn, struct shl_rank *r, const struct shl_req *q,
				    int index)
{
	if (unlikely(!valid_req(r, q) && q != MPI_REQUEST_NULL))
		return bad_req(fn, index);
	return MPI_SUCCESS;
}

static int check_array(const char *fn, struct shl_rank *r, int count, MPI_Request reqs[])
{
	if (count < 0)
		return shl_err(NULL, MPI_ERR_COUNT, fn, "count %d is negative", count);
	if (count > 0 && reqs == NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "array_of_requests is NULL");
	for (int i = 0; i < count; i++) {
		int err = check_req(fn, r, reqs[i], i);
		if (err != MPI_SUCCESS)
			return err;
	}
	return MPI_SUCCESS;
}

/* Hand a completed request's result to the user: `*out` (unless NULL) gets its whole
 * status; the handle is freed (or a persistent request goes inactive). Returns the
 * operation's error. */
static int finish_greq(struct shl_rank *r, MPI_Request *handle, MPI_Status *out);

static SHL_HOT_INLINE int finish(struct shl_rank *r, MPI_Request *handle, MPI_Status *out)
{
	struct shl_req *q = *handle;
	/* From the request, not from *out: reading back part of the status just copied
	 * stalled store forwarding (perf on bench/msgrate: a fifth of finish_many). */
	int err = q->status.MPI_ERROR;

	if (out != NULL)
		*out = q->status;
	if (q->persistent) {
		/* A generalized request is marked persistent (core/grequest.c), so that the
		 * common path here asks nothing more. */
		if (unlikely(q->kind == SHL_REQ_GREQ))
			return finish_greq(r, handle, out);
		q->active = false;
	} else {
		shl_req_release(r, q);
		*handle = MPI_REQUEST_NULL;
	}
	return err;
}

/* finish for a generalized request: its callbacks make the status and the error. Out of
 * line: finish is inlined into every wait. */
static __attribute__((noinline)) int finish_greq(struct shl_rank *r, MPI_Request *handle,
						 MPI_Status *out)
{
	int err = shl_greq_finish(r, *handle);

	if (out != NULL)
		*out = (*handle)->status;
	shl_req_release(r, *handle);
	*handle = MPI_REQUEST_NULL;
	return err;
}

/* What went wrong in a completed operation of `kind` on `c` that reported an error in
 * `st`. */
static void describe(char *text, size_t size, struct shl_comm *c, enum shl_req_kind kind,
		     const MPI_Status *st)
{
	if (kind == SHL_REQ_SEND || kind == SHL_REQ_PSEND)
		snprintf(text, size, "the send failed");
	else if (kind == SHL_REQ_GREQ)
		snprintf(text, size, "a callback of the generalized request (query_fn or free_fn) "
			 "returned this error");
	else if (kind != SHL_REQ_RECV && kind != SHL_REQ_PAIR && kind != SHL_REQ_PRECV)
		shl_coll_why_status(c, st, text, size);
	else
		snprintf(text, size, "message from rank %d with tag %d (%lld bytes) did not fit "
			 "the receive buffer (%lld bytes)", st->MPI_SOURCE, st->MPI_TAG,
			 (long long)st->shl_sent_bytes, (long long)st->shl_bytes);
}

/* Raise the error a completed operation reported in `st`; `kind` tells what it was, `ext`
 * is what the request's `ext` was (a file operation's goes to its file's handler). */
static int op_error(const char *fn, struct shl_comm *c, enum shl_req_kind kind, void *ext,
		    const MPI_Status *st)
{
	char text[400];

	if (kind == SHL_REQ_FILE)
		return shl_file_req_raise(fn, ext, -1, st);
	describe(text, sizeof text, c, kind, st);
	return shl_err(c, st->MPI_ERROR, fn, "%s", text);
}

/* A null or inactive request's result (MPI 4.1, 3.7.3): the empty status, whole, its
 * MPI_ERROR too (MPI_SUCCESS), unless `status` is MPI_STATUS_IGNORE. */
static void empty_out(MPI_Status *status)
{
	if (status != MPI_STATUS_IGNORE)
		shl_status_empty(status, MPI_ANY_SOURCE);
}

/* Whether a request being waited for is done; a large send helps its receiver copy.
 * Inlined where the array waits call it: only shl_wait calls it through its address. */
static SHL_HOT_INLINE bool wait_done(void *arg)
{
	struct shl_req *q = arg;

	if (q->kind == SHL_REQ_SEND && q->env != NULL)
		shl_p2p_help(q);
	return settled(q->owner, q);
}

/* Wait for (flag NULL) or test one request. */
static int one(const char *fn, MPI_Request *request, int *flag, MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	enum shl_req_kind kind;
	MPI_Status st;
	struct shl_comm *c;
	void *ext;
	int err;

	if (request == NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "request is NULL");
	err = check_req(fn, r, *request, -1);
	if (err != MPI_SUCCESS)
		return err;
	if (flag != NULL)
		*flag = 1;
	shl_status_empty(&st, MPI_ANY_SOURCE);
	if (inactive(*request)) {
		empty_out(status);
		return MPI_SUCCESS;
	}
	c = (*request)->comm;
	kind = (*request)->kind;
	ext = (*request)->ext;
	shl_rank_lock(r);
	if (flag == NULL) {
		shl_wait(r, wait_done, *request);
	} else {
		shl_progress(r);
		*flag = wait_done(*request);
	}
	err = flag == NULL || *flag ? finish(r, request, &st) : MPI_SUCCESS;
	shl_rank_unlock(r);
	if (flag != NULL && !*flag) {
		shl_poll_missed();
		return MPI_SUCCESS;
	}
	shl_status_out(status, &st);
	return err == MPI_SUCCESS ? MPI_SUCCESS : op_error(fn, c, kind, ext, &st);
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
	return one("MPI_Wait", request, NULL, status);
}
SHL_WEAK_ALIAS(Wait);

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	if (flag == NULL) {
		/* Raised where the request's other errors go, if it is one. */
		struct shl_rank *r = shl_rank_or_die("MPI_Test");
		struct shl_comm *c = request != NULL && valid_req(r, *request) ? (*request)->comm
									     : NULL;
		return shl_err(c, MPI_ERR_ARG, "MPI_Test", "flag is NULL");
	}
	return one("MPI_Test", request, flag, status);
}
SHL_WEAK_ALIAS(Test);

struct array {
	int count;
	MPI_Request *reqs;
	int first_done;   /* index of the first completed active request, or -1 */
	int active;       /* active requests seen */
	int scan;         /* all_done: requests before this one are done */
};

/* Whether some active request is done (or none is active, which ends a wait too). */
static bool some_done(void *arg)
{
	struct array *a = arg;

	a->first_done = -1;
	a->active = 0;
	for (int i = 0; i < a->count; i++) {
		if (inactive(a->reqs[i]))
			continue;
		a->active++;
		if (wait_done(a->reqs[i])) {
			a->first_done = i;
			return true;
		}
	}
	return a->active == 0;
}

static bool all_done(void *arg)
{
	struct array *a = arg;
	int i = a->scan;

	/* A done request stays done until the wait finishes it: never look at it twice. */
	while (i < a->count && (inactive(a->reqs[i]) || wait_done(a->reqs[i])))
		i++;
	a->scan = i;
	return i == a->count;
}
static int any(const char *fn, int count, MPI_Request reqs[], int *index, int *flag,
	       MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct array a = { count, reqs, -1, 0, 0 };
	MPI_Status st;
	struct shl_comm *c = NULL;
	enum shl_req_kind kind = SHL_REQ_SEND;
	void *ext = NULL;
	int err = check_array(fn, r, count, reqs);

	if (err == MPI_SUCCESS && index == NULL)
		err = shl_err(NULL, MPI_ERR_ARG, fn, "index is NULL");
	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	if (flag == NULL) {
		shl_wait(r, some_done, &a);
	} else {
		shl_progress(r);
		*flag = some_done(&a);
	}
	shl_status_empty(&st, MPI_ANY_SOURCE);
	*index = MPI_UNDEFINED;
	if (a.first_done >= 0) {
		*index = a.first_done;
		c = reqs[a.first_done]->comm;
		kind = reqs[a.first_done]->kind;
		ext = reqs[a.first_done]->ext;
		err = finish(r, &reqs[a.first_done], &st);
	}
	shl_rank_unlock(r);
	if (flag != NULL && !*flag) {
		shl_poll_missed();
		return MPI_SUCCESS;
	}
	if (*index == MPI_UNDEFINED) {
		/* No active request: the empty status (MPI 4.1, 3.7.5). */
		empty_out(status);
		return MPI_SUCCESS;
	}
	shl_status_out(status, &st);
	return err == MPI_SUCCESS ? MPI_SUCCESS : op_error(fn, c, kind, ext, &st);
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
	return any("MPI_Waitany", count, array_of_requests, index, NULL, status);
}
SHL_WEAK_ALIAS(Waitany);

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
		 MPI_Status *status)
{
	if (flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Testany", "flag is NULL");
	return any("MPI_Testany", count, array_of_requests, index, flag, status);
}
SHL_WEAK_ALIAS(Testany);

/* The first request of an array that completed with an error. */
struct failure {
	int index;                    /* in array_of_requests, or -1: none */
	enum shl_req_kind kind;
	struct shl_comm *comm;
	MPI_Status status;
	void *ext;                    /* the request's `ext` (a file operation's record) */
};

/* Finish every done active request of `reqs` (all of them, or those listed in `indices`).
 * Errors are reported in the statuses; returns MPI_ERR_IN_STATUS if there was any, and
 * the first in *failed. */
static int finish_many(struct shl_rank *r, int count, MPI_Request reqs[], const int *indices,
		       MPI_Status statuses[], struct failure *failed)
{
	failed->index = -1;
	for (int k = 0; k < count; k++) {
		int i = indices ? indices[k] : k;
		MPI_Status *out = statuses != MPI_STATUSES_IGNORE ? &statuses[indices ? k : i]
								  : NULL;
		struct shl_req *q = reqs[i];

		if (inactive(q)) {
			if (out != NULL)
				shl_status_empty(out, MPI_ANY_SOURCE);
			continue;
		}
		struct shl_comm *c = q->comm;
		void *ext = q->ext;
		/* A released request keeps its kind and status until it is handed out again,
		 * which no call here does. */
		if (unlikely(finish(r, &reqs[i], out) != MPI_SUCCESS) && failed->index < 0)
			*failed = (struct failure){ i, q->kind, c, q->status, ext };
	}
	return failed->index < 0 ? MPI_SUCCESS : MPI_ERR_IN_STATUS;
}

/* Raise MPI_ERR_IN_STATUS for `failed`, naming the request and what went wrong. */
static int in_status_error(const char *fn, const struct failure *failed)
{
	char text[400], name[MPI_MAX_ERROR_STRING];
	int len;

	if (failed->kind == SHL_REQ_FILE)
		return shl_file_req_raise(fn, failed->ext, failed->index, &failed->status);
	describe(text, sizeof text, failed->comm, failed->kind, &failed->status);
	PMPI_Error_string(failed->status.MPI_ERROR, name, &len);
	name[strcspn(name, ":")] = '\0';
	return shl_err(failed->comm, MPI_ERR_IN_STATUS, fn, "array_of_requests[%d] failed with "
		       "%s: %s", failed->index, name, text);
}

static int all(const char *fn, int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct array a = { count, reqs, -1, 0, 0 };
	struct failure failed;
	int err = check_array(fn, r, count, reqs);

	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	if (flag == NULL) {
		shl_wait(r, all_done, &a);
	} else {
		shl_progress(r);
		*flag = all_done(&a);
		if (!*flag) {
			shl_rank_unlock(r);
			shl_poll_missed();
			return MPI_SUCCESS;
		}
	}
	err = finish_many(r, count, reqs, NULL, statuses, &failed);
	shl_rank_unlock(r);
	if (err != MPI_SUCCESS)
		return in_status_error(fn, &failed);
	return MPI_SUCCESS;
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
	return all("MPI_Waitall", count, array_of_requests, NULL, array_of_statuses);
}
SHL_WEAK_ALIAS(Waitall);

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
		 MPI_Status array_of_statuses[])
{
	if (flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Testall", "flag is NULL");
	return all("MPI_Testall", count, array_of_requests, flag, array_of_statuses);
}
SHL_WEAK_ALIAS(Testall);

static int some(const char *fn, int incount, MPI_Request reqs[], int *outcount, int indices[],
		MPI_Status statuses[], bool block)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct array a = { incount, reqs, -1, 0, 0 };
	struct failure failed;
	int err = check_array(fn, r, incount, reqs);
	int n = 0;

	if (err == MPI_SUCCESS && (outcount == NULL || (incount > 0 && indices == NULL)))
		err = shl_err(NULL, MPI_ERR_ARG, fn, "outcount or array_of_indices is NULL");
	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	if (block)
		shl_wait(r, some_done, &a);
	else {
		shl_progress(r);
		some_done(&a);
	}
	if (a.active == 0) {
		shl_rank_unlock(r);
		*outcount = MPI_UNDEFINED;
		return MPI_SUCCESS;
	}
	for (int i = 0; i < incount; i++)
		if (!inactive(reqs[i]) && wait_done(reqs[i]))
			indices[n++] = i;
	err = finish_many(r, n, reqs, indices, statuses, &failed);
	shl_rank_unlock(r);
	if (n == 0)
		shl_poll_missed();
	*outcount = n;
	if (err != MPI_SUCCESS)
		return in_status_error(fn, &failed);
	return MPI_SUCCESS;
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
		  int array_of_indices[], MPI_Status array_of_statuses[])
{
	return some("MPI_Waitsome", incount, array_of_requests, outcount, array_of_indices,
		    array_of_statuses, true);
}
SHL_WEAK_ALIAS(Waitsome);

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
		  int array_of_indices[], MPI_Status array_of_statuses[])
{
	return some("MPI_Testsome", incount, array_of_requests, outcount, array_of_indices,
		    array_of_statuses, false);
}
SHL_WEAK_ALIAS(Testsome);

/* Rank locked: the status of complete request `q` as the MPI_Request_get_status family
 * reports it without finishing `q`: a generalized request's from its query_fn (its error
 * in MPI_ERROR). */
static MPI_Status peek_status(struct shl_rank *r, struct shl_req *q)
{
	MPI_Status st = q->status;

	if (q->kind == SHL_REQ_GREQ)
		st.MPI_ERROR = shl_greq_query(r, q, &st);
	return st;
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Request_get_status");
	int err = check_req("MPI_Request_get_status", r, request, -1);
	MPI_Status st;

	if (err == MPI_SUCCESS && flag == NULL)
		err = shl_err(NULL, MPI_ERR_ARG, "MPI_Request_get_status", "flag is NULL");
	if (err != MPI_SUCCESS)
		return err;
	shl_status_empty(&st, MPI_ANY_SOURCE);
	*flag = 1;
	if (!inactive(request)) {
		shl_rank_lock(r);
		shl_progress(r);
		*flag = settled(r, request);
		if (*flag)
			st = peek_status(r, request);
		shl_rank_unlock(r);
	}
	if (!*flag) {
		shl_poll_missed();
		return MPI_SUCCESS;
	}
	if (inactive(request)) {
		empty_out(status);
		return MPI_SUCCESS;
	}
	shl_status_out(status, &st);
	/* The operation's error, as MPI_Test would return it; the request stays. */
	if (st.MPI_ERROR != MPI_SUCCESS)
		return op_error("MPI_Request_get_status", request->comm, request->kind,
				request->ext, &st);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Request_get_status);

/* ---- MPI_Request_get_status_all, _any, _some (MPI 4.1, 3.7.5): MPI_Testall, MPI_Testany
 * and MPI_Testsome that neither free nor deactivate a request. ---- */

int PMPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
				MPI_Status array_of_statuses[])
{
	const char *fn = "MPI_Request_get_status_all";
	struct shl_rank *r = shl_rank_or_die(fn);
	MPI_Request *reqs = (MPI_Request *)array_of_requests;
	struct failure failed = { .index = -1 };
	int err = check_array(fn, r, count, reqs);

	if (err == MPI_SUCCESS && flag == NULL)
		err = shl_err(NULL, MPI_ERR_ARG, fn, "flag is NULL");
	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	shl_progress(r);
	*flag = 1;
	for (int i = 0; i < count && *flag; i++)
		*flag = inactive(reqs[i]) || wait_done(reqs[i]);
	for (int i = 0; i < count && *flag; i++) {
		struct shl_req *q = reqs[i];
		MPI_Status *out = array_of_statuses != MPI_STATUSES_IGNORE ? &array_of_statuses[i]
									   : NULL;
		if (inactive(q)) {
			empty_out(out);
			continue;
		}
		MPI_Status st = peek_status(r, q);
		if (out != NULL)
			*out = st;
		if (st.MPI_ERROR != MPI_SUCCESS && failed.index < 0)
			failed = (struct failure){ i, q->kind, q->comm, st, q->ext };
	}
	shl_rank_unlock(r);
	if (!*flag)
		shl_poll_missed();
	return failed.index < 0 ? MPI_SUCCESS : in_status_error(fn, &failed);
}
SHL_WEAK_ALIAS(Request_get_status_all);

int PMPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index,
				int *flag, MPI_Status *status)
{
	const char *fn = "MPI_Request_get_status_any";
	struct shl_rank *r = shl_rank_or_die(fn);
	MPI_Request *reqs = (MPI_Request *)array_of_requests;
	int err = check_array(fn, r, count, reqs), active = 0;
	MPI_Status st;

	if (err == MPI_SUCCESS && (index == NULL || flag == NULL))
		err = shl_err(NULL, MPI_ERR_ARG, fn, "%s is NULL", index == NULL ? "index" : "flag");
	if (err != MPI_SUCCESS)
		return err;
	*index = MPI_UNDEFINED;
	shl_rank_lock(r);
	shl_progress(r);
	for (int i = 0; i < count && *index == MPI_UNDEFINED; i++) {
		if (inactive(reqs[i]))
			continue;
		active++;
		if (wait_done(reqs[i])) {
			*index = i;
			st = peek_status(r, reqs[i]);
		}
	}
	shl_rank_unlock(r);
	*flag = *index != MPI_UNDEFINED || active == 0;
	if (!*flag) {
		shl_poll_missed();
		return MPI_SUCCESS;
	}
	if (*index == MPI_UNDEFINED) {
		empty_out(status);
		return MPI_SUCCESS;
	}
	shl_status_out(status, &st);
	if (st.MPI_ERROR != MPI_SUCCESS)
		return op_error(fn, reqs[*index]->comm, reqs[*index]->kind, reqs[*index]->ext,
				&st);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Request_get_status_any);

int PMPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[],
				 int *outcount, int array_of_indices[],
				 MPI_Status array_of_statuses[])
{
	const char *fn = "MPI_Request_get_status_some";
	struct shl_rank *r = shl_rank_or_die(fn);
	MPI_Request *reqs = (MPI_Request *)array_of_requests;
	struct failure failed = { .index = -1 };
	int err = check_array(fn, r, incount, reqs), active = 0, n = 0;

	if (err == MPI_SUCCESS && (outcount == NULL || (incount > 0 && array_of_indices == NULL)))
		err = shl_err(NULL, MPI_ERR_ARG, fn, "outcount or array_of_indices is NULL");
	if (err != MPI_SUCCESS)
		return err;
	shl_rank_lock(r);
	shl_progress(r);
	for (int i = 0; i < incount; i++) {
		struct shl_req *q = reqs[i];
		if (inactive(q))
			continue;
		active++;
		if (!wait_done(q))
			continue;
		MPI_Status st = peek_status(r, q);
		if (array_of_statuses != MPI_STATUSES_IGNORE)
			array_of_statuses[n] = st;
		if (st.MPI_ERROR != MPI_SUCCESS && failed.index < 0)
			failed = (struct failure){ i, q->kind, q->comm, st, q->ext };
		array_of_indices[n++] = i;
	}
	shl_rank_unlock(r);
	*outcount = active == 0 ? MPI_UNDEFINED : n;
	if (active > 0 && n == 0)
		shl_poll_missed();
	return failed.index < 0 ? MPI_SUCCESS : in_status_error(fn, &failed);
}
SHL_WEAK_ALIAS(Request_get_status_some);

int PMPI_Request_free(MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Request_free");
	struct shl_req *q;
	int err;

	if (request == NULL || *request == MPI_REQUEST_NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, "MPI_Request_free",
			       "request is MPI_REQUEST_NULL");
	err = check_req("MPI_Request_free", r, *request, -1);
	if (err != MPI_SUCCESS)
		return err;
	q = *request;
	shl_rank_lock(r);
	if (q->kind == SHL_REQ_GREQ) {
		err = shl_greq_free(r, q);
		shl_rank_unlock(r);
		*request = MPI_REQUEST_NULL;
		return err == MPI_SUCCESS ? MPI_SUCCESS : op_error("MPI_Request_free", NULL,
			SHL_REQ_GREQ, NULL, &(MPI_Status){ .MPI_ERROR = err });
	}
	if (inactive(q) || settled(r, q)) {
		shl_req_release(r, q);
	} else {
		/* Still in flight: a posted receive is released when it matches; anything
		 * else (a send, a receive matched with a rendezvous from another node, a
		 * communicator being created) when progress finds it completed. */
		q->freed = true;
		if (q->kind != SHL_REQ_RECV || !shl_p2p_is_posted(r, q)) {
			q->next = r->detached;
			r->detached = q;
		}
	}
	shl_rank_unlock(r);
	*request = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Request_free);

int PMPI_Cancel(MPI_Request *request)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Cancel");
	int err;

	if (request == NULL || *request == MPI_REQUEST_NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, "MPI_Cancel", "request is MPI_REQUEST_NULL");
	err = check_req("MPI_Cancel", r, *request, -1);
	if (err != MPI_SUCCESS)
		return err;
	if (inactive(*request))
		return shl_err((*request)->comm, MPI_ERR_REQUEST, "MPI_Cancel",
			       "request is a persistent request that is not active");
	if ((*request)->kind == SHL_REQ_DONE)
		return shl_err((*request)->comm, MPI_ERR_REQUEST, "MPI_Cancel",
			       "request is a collective operation's, which cannot be cancelled "
			       "(MPI 4.1, 6.12)");
	shl_rank_lock(r);
	if ((*request)->kind == SHL_REQ_GREQ)
		err = shl_greq_cancel(r, *request);
	else if ((*request)->kind == SHL_REQ_FILE)
		shl_file_req_cancel(r, *request);
	else if ((*request)->kind >= SHL_REQ_PAIR)
		err = shl_p2p_ext_cancel(r, *request);
	else
		shl_p2p_cancel(r, *request);
	shl_rank_unlock(r);
	if (err == MPI_ERR_REQUEST)
		return shl_err((*request)->comm, MPI_ERR_REQUEST, "MPI_Cancel", "request is a "
			       "partitioned communication's, which cannot be cancelled");
	if (err != MPI_SUCCESS)
		return shl_err(NULL, err, "MPI_Cancel", "cancel_fn of the generalized request "
			       "returned this error");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Cancel);

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
	if (status == NULL || flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Test_cancelled", "status or flag is NULL");
	*flag = status->shl_cancelled;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Test_cancelled);

static int start(const char *fn, struct shl_rank *r, MPI_Request *request, int index)
{
	struct shl_req *q;
	int err, rc;

	if (request == NULL || *request == MPI_REQUEST_NULL)
		return index < 0 ? shl_err(NULL, MPI_ERR_REQUEST, fn, "request is MPI_REQUEST_NULL")
				 : shl_err(NULL, MPI_ERR_REQUEST, fn,
					   "array_of_requests[%d] is MPI_REQUEST_NULL", index);
	err = check_req(fn, r, *request, index);
	if (err != MPI_SUCCESS)
		return err;
	q = *request;
	if (!q->persistent || q->active)
		return shl_err(q->comm, MPI_ERR_REQUEST, fn, "request is %s",
			       q->persistent ? "already active" : "not a persistent request");
	if (q->kind == SHL_REQ_DONE && q->cargs != NULL) {
		/* A collective: its meeting may run user functions; no rank lock held. */
		rc = shl_coll_restart(r, q);
		return rc ? shl_err(q->comm, rc, fn, "out of memory") : MPI_SUCCESS;
	}
	shl_rank_lock(r);
	rc = q->kind >= SHL_REQ_PSEND ? shl_p2p_ext_start(r, q) : shl_p2p_start(r, q);
	shl_rank_unlock(r);
	if (rc != 0 && q->kind >= SHL_REQ_PSEND)
		return shl_err(q->comm, MPI_ERR_NO_MEM, fn, "out of memory");
	if (rc != 0)
		return shl_p2p_start_error(fn, q->comm, rc, (size_t)q->count * q->type->size);
	return MPI_SUCCESS;
}

int PMPI_Start(MPI_Request *request)
{
	return start("MPI_Start", shl_rank_or_die("MPI_Start"), request, -1);
}
SHL_WEAK_ALIAS(Start);

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
	struct shl_rank *r = shl_rank_or_die("MPI_Startall");

	if (count < 0)
		return shl_err(NULL, MPI_ERR_COUNT, "MPI_Startall", "count %d is negative", count);
	if (count > 0 && array_of_requests == NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, "MPI_Startall", "array_of_requests is NULL");
	/* Every handle first: a bad one starts none of them. */
	for (int i = 0; i < count; i++) {
		int err = check_req("MPI_Startall", r, array_of_requests[i], i);
		if (err != MPI_SUCCESS)
			return err;
	}
	for (int i = 0; i < count; i++) {
		int err = start("MPI_Startall", r, &array_of_requests[i], i);
		if (err != MPI_SUCCESS)
			return err;
	}
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Startall);
