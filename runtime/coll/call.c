/* The call path every collective shares: a member's arguments join the meeting of its
 * collective number (blocking, nonblocking, or a persistent request's MPI_Start), the
 * blocked member's wait with its mismatch checks, the holds a nonblocking call keeps on its
 * types and op, what run functions use to find their root, and the user's explanation of a
 * collective's error. Entered by rank threads; shl_coll_drop_holds also by the last
 * arriver of a meeting or the leader's network phase (coll/net.c). Must not move data (the
 * run functions do: coll/move.c, coll/reduce.c) nor check arguments (coll/check.c).
 *
 * Algorithm: each call is one meeting keyed by the collective's number on the communicator
 * (so blocking and nonblocking calls may interleave and overlap); every member publishes
 * its arguments (buffers, counts, types) in its arrival, and the last to arrive runs the
 * collective's run function for everyone, then completes every member's request. A
 * nonblocking call therefore progresses without the other members calling MPI again:
 * whoever joins last does the work. A persistent request keeps a held copy of its
 * arguments; MPI_Start joins the communicator's next meeting with it exactly as the MPI_I…
 * call would. */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/coll/internal.h"
#include "runtime/p2p/internal.h"

/* ---- the call path ---- */

/* Apply `f` to every datatype a member's call made significant. */
static void each_type(const struct shl_cargs *x, void (*f)(struct shl_datatype *))
{
	if (x->keep_s) {
		if (x->svec == SHL_VEC_W)
			for (int i = 0; i < x->nv; i++)
				f(x->stypes[i]);
		else
			f(x->stype);
	}
	if (x->keep_r) {
		if (x->rvec == SHL_VEC_W)
			for (int i = 0; i < x->nv; i++)
				f(x->rtypes[i]);
		else
			f(x->rtype);
	}
}

void shl_coll_drop_holds(struct shl_arrival *a)
{
	struct shl_cargs *x = (struct shl_cargs *)a;

	each_type(x, shl_dt_release);
	if (x->op != NULL)
		shl_op_drop(x->op);
}

void shl_coll_hold(struct shl_cargs *x)
{
	each_type(x, shl_dt_hold);
	if (x->op != NULL)
		shl_op_hold(x->op);
}

/* Join the next collective of `c` with a heap copy of `x` that completes request `q`; the
 * meeting frees the copy and drops its holds. Returns 0 or MPI_ERR_NO_MEM. */
static int join(struct shl_comm *c, shl_meet_fn *run, const struct shl_cargs *x,
		struct shl_req *q)
{
	struct shl_comm_shared *sh = c->sh;
	struct shl_cargs *h;

	if (unlikely(sh->offnode))
		return shl_coll_net_join(c, run, x, q);
	if ((h = malloc(sizeof(*h))) == NULL)
		return MPI_ERR_NO_MEM;
	*h = *x;
	h->a = (struct shl_arrival){ .req = q, .heap = true, .drop = shl_coll_drop_holds };
	shl_coll_hold(h);
	uint64_t k = shl_coll_next(c, x->fn, SHL_COLL_MEET);
	if (shl_comm_meet(sh, k, sh->nmembers, c->member, run, &h->a) < 0) {
		shl_coll_drop_holds(&h->a);
		free(h);
		return MPI_ERR_NO_MEM;
	}
	return 0;
}

bool shl_coll_blocked_done(void *arg)
{
	struct shl_coll_blocked *w = arg;

	shl_coll_share_help(w->sh);
	return shl_req_done(w->req);
}

void shl_coll_wait_checked(struct shl_rank *r, struct shl_comm *c, uint64_t k,
			   struct shl_req *q)
{
	struct shl_coll_blocked w = { q, c->sh };

	shl_rank_lock(r);
	for (bool poll = true;
	     !shl_wait_once(r, shl_coll_blocked_done, &w, SHL_COLL_CHECK_NS, poll);
	     poll = false)
		shl_coll_check(c, k);
	shl_rank_unlock(r);
}

int shl_coll_start(struct shl_rank *r, struct shl_comm *c, const char *fn, shl_meet_fn *run,
		   const struct shl_cargs *x, MPI_Request *request, enum shl_coll_mode mode)
{
	struct shl_comm_shared *sh = c->sh;
	struct shl_cargs *t = NULL;
	struct shl_req *q;
	int err = MPI_ERR_NO_MEM;

	if (unlikely(sh->offnode) && mode == SHL_COLL_BLOCKING)
		return shl_coll_net_block(r, c, run, x);
	if (mode == SHL_COLL_BLOCKING) {
		struct shl_req sq;
		struct shl_cargs a = *x;
		/* Field by field: `= { ... }` compiled to a rep stos. */
		shl_req_init(&sq, r, SHL_REQ_DONE);
		a.a = (struct shl_arrival){ .req = &sq };
		uint64_t k = shl_coll_next(c, fn, SHL_COLL_MEET);
		if (shl_comm_meet(sh, k, sh->nmembers, c->member, run, &a.a) < 0)
			return MPI_ERR_NO_MEM;
		shl_coll_wait_checked(r, c, k, &sq);
		return a.a.err;
	}
	if (mode == SHL_COLL_PERSISTENT) {
		/* The request keeps a held copy of the arguments; each MPI_Start joins with
		 * a fresh heap copy of it, as an MPI_I... call does. */
		if ((t = malloc(sizeof(*t))) == NULL)
			return MPI_ERR_NO_MEM;
		*t = *x;
		t->a = (struct shl_arrival){ 0 };
		t->fn = fn;
	}
	shl_rank_lock(r);
	q = shl_req_new(r, SHL_REQ_DONE);
	shl_rank_unlock(r);
	if (q == NULL)
		goto free_t;
	q->comm = shl_comm_hold(c);
	q->holds_comm = true;
	if (t != NULL) {
		shl_coll_hold(t);
		q->persistent = true;
		q->run = run;
		q->cargs = t;
		*request = q;
		return MPI_SUCCESS;
	}
	struct shl_cargs named = *x;
	named.fn = fn;
	err = join(c, run, &named, q);
	if (err == 0) {
		*request = q;
		return MPI_SUCCESS;
	}
	shl_rank_lock(r);
	shl_req_release(r, q);
	shl_rank_unlock(r);
free_t:
	free(t);
	return err;
}

int shl_coll_restart(struct shl_rank *r, struct shl_req *q)
{
	int err;

	if (q->run == shl_coll_neigh_run)
		return shl_coll_neigh_restart(r, q);
	atomic_store_explicit(&q->done, 0, memory_order_relaxed);
	shl_status_empty(&q->status, MPI_ANY_SOURCE);
	q->active = true;
	err = join(q->comm, q->run, q->cargs, q);
	if (err != 0)
		q->active = false;
	return err;
}

void shl_coll_persist_free(struct shl_req *q)
{
	shl_coll_drop_holds(&q->cargs->a);
	free(q->cargs);
	q->cargs = NULL;
	q->run = NULL;
}

const char *shl_coll_why(struct shl_comm *c, int err, char *buf, size_t len)
{
	const char *why;

	switch (err) {
	case MPI_ERR_NOT_SAME:
		if (c != NULL && shl_coll_describe(c, buf, len))
			return buf;
		why = "the members called different collective operations (or were in a "
		      "different order)";
		break;
	case MPI_ERR_ROOT:
		why = "the members passed different roots";
		break;
	case MPI_ERR_TRUNCATE:
		why = "a receive buffer is smaller than the data sent to it";
		break;
	case MPI_ERR_COUNT:
		why = "the members passed counts (or datatypes) that do not match";
		break;
	case MPI_ERR_OP:
		why = "the members passed different operations";
		break;
	case MPI_ERR_TYPE:
		why = "the members passed datatypes of different basic types";
		break;
	case MPI_ERR_NO_MEM:
		why = "out of memory";
		break;
	default:
		why = "the collective failed";
	}
	snprintf(buf, len, "%s", why);
	return buf;
}

const char *shl_coll_why_status(struct shl_comm *c, const MPI_Status *st, char *buf,
				size_t len)
{
	if ((st->MPI_ERROR == MPI_ERR_TRUNCATE || st->MPI_ERROR == MPI_ERR_COUNT) &&
	    st->MPI_SOURCE >= 0) {
		snprintf(buf, len, "rank %d sends %lld bytes to rank %d, whose receive block from "
			 "it takes %lld bytes: the neighbours' counts or datatypes do not match",
			 st->MPI_SOURCE, (long long)st->shl_sent_bytes, st->MPI_TAG,
			 (long long)st->shl_bytes);
		return buf;
	}
	return shl_coll_why(c, st->MPI_ERROR, buf, len);
}

int shl_coll_fail(struct shl_comm *c, const char *fn, int err)
{
	char why[400];

	return shl_err(c, err, fn, "%s", shl_coll_why(c, err, why, sizeof(why)));
}

int shl_coll_root(struct shl_meeting *m, int *root, int *side)
{
	struct shl_comm_shared *sh = m->sh;

	if (!sh->inter) {
		int k = shl_coll_arg(m, 0)->root;
		for (int i = 1; i < m->n; i++)
			if (shl_coll_arg(m, i)->root != k)
				return MPI_ERR_ROOT;
		*root = k;
		*side = 0;
		return 0;
	}
	*root = -1;
	for (int i = 0; i < m->n; i++)
		if (shl_coll_arg(m, i)->root == MPI_ROOT) {
			if (*root >= 0)
				return MPI_ERR_ROOT;
			*root = i;
		}
	if (*root < 0)
		return MPI_ERR_ROOT;
	*side = !shl_coll_side(sh, *root);
	for (int i = 0; i < m->n; i++) {
		int k = shl_coll_arg(m, i)->root;
		if (i == *root)
			continue;
		if (shl_coll_side(sh, i) == *side ? k != shl_coll_lrank(sh, *root)
						  : k != MPI_PROC_NULL)
			return MPI_ERR_ROOT;
	}
	return 0;
}

void shl_coll_shared_free(struct shl_comm_shared *sh)
{
	for (int k = 0; k < SHL_RING_KINDS; k++)
		shl_coll_ring_free(sh->ring[k]);
	shl_coll_net_free(sh);
	shl_coll_neigh_free(sh);
}
