/* Collectives that move data without combining it: Barrier, Bcast, Gather(v), Scatter(v),
 * Allgather(v), Alltoall(v/w), their I… twins and persistent …_init forms, each (but
 * Barrier) also in its large-count …_c form, on intra- and intercommunicators, plus the
 * call path every collective shares. Entered by rank threads; run functions by the member
 * that arrives last at a meeting. Never sends a message: members meet (comm/comm.h) and the
 * last arriver copies between their buffers directly, in the shared address space.
 *
 * Algorithm: each call is one meeting keyed by the collective's number on the communicator
 * (so blocking and nonblocking calls may interleave and overlap); every member publishes
 * its arguments (buffers, counts, types) in its arrival, and the last to arrive moves every
 * byte once, from each source buffer straight into each destination buffer (shl_dt_copy
 * handles any pair of layouts), then completes every member's request. A nonblocking call
 * therefore progresses without the other members calling MPI again: whoever joins last
 * does the work. A persistent request keeps a held copy of its arguments; MPI_Start joins
 * the communicator's next meeting with it exactly as the MPI_I… call would. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/internal.h"
#include "runtime/coll/net.h"
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

int shl_coll_info(struct shl_rank *r, MPI_Comm comm, const char *fn, MPI_Info info)
{
	if (info == MPI_INFO_NULL || shl_info_get(r, info) != NULL)
		return MPI_SUCCESS;
	return shl_err(shl_comm_get(r, comm), MPI_ERR_INFO, fn, "invalid info argument");
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

int shl_coll_fail(struct shl_comm *c, const char *fn, int err)
{
	char why[400];

	return shl_err(c, err, fn, "%s", shl_coll_why(c, err, why, sizeof(why)));
}

void shl_coll_bad_all(struct shl_meeting *m, int err)
{
	for (int i = 0; i < m->n; i++)
		shl_coll_bad(m, i, err);
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

/* ---- argument checks ---- */

int shl_coll_comm(const char *fn, struct shl_rank *r, MPI_Comm comm, bool nb,
		  MPI_Request *request, struct shl_comm **c)
{
	*c = shl_comm_get(r, comm);
	if (*c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm%s",
			       comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
	/* One load of a word on the shared object's read-mostly line. */
	if (unlikely(atomic_load_explicit(&(*c)->sh->broken, memory_order_relaxed)))
		return shl_coll_usable(*c, fn);
	if (nb && request == NULL)
		return shl_err(*c, MPI_ERR_REQUEST, fn, "request is NULL");
	return MPI_SUCCESS;
}

int shl_coll_rootarg(struct shl_comm *c, const char *fn, int root)
{
	if (c->inter ? root == MPI_ROOT || root == MPI_PROC_NULL ||
		       (root >= 0 && root < c->remote_size)
		     : root >= 0 && root < c->size)
		return MPI_SUCCESS;
	return shl_err(c, MPI_ERR_ROOT, fn, "root %d is not a rank of the %sgroup (size %d)",
		       root, c->inter ? "remote " : "", c->inter ? c->remote_size : c->size);
}

/* Check a v or w array argument of `n` entries (counts non-negative and within bytes,
 * types usable); `x` says whether the arrays are int or MPI_Count/MPI_Aint. */
static int check_vec(struct shl_comm *c, const char *fn, const char *what, int n,
		     const struct shl_cargs *x, const void *counts, const void *displs,
		     const MPI_Datatype *types, MPI_Datatype type)
{
	char name[32];

	if (n > 0 && (counts == NULL || displs == NULL || (type == NULL && types == NULL)))
		return shl_err(c, MPI_ERR_ARG, fn, "%scounts or %sdispls is NULL", what, what);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s (entry %d) ", what, i);
		int err = shl_check_count(c, fn, name, shl_coll_count(x, counts, i),
					  types ? types[i] : type);
		if (err != MPI_SUCCESS)
			return err;
	}
	return MPI_SUCCESS;
}

int shl_coll_check_buf(struct shl_comm *c, const char *fn, const char *what, const void *buf,
		       MPI_Count count, MPI_Datatype type)
{
	if (buf == MPI_IN_PLACE)
		return shl_err(c, MPI_ERR_BUFFER, fn, "%s is MPI_IN_PLACE, which this call does "
			       "not take there", what);
	return shl_check_buf(c, fn, what, buf, count, type);
}

/* Members whose data this collective exchanges: the whole communicator, or the remote
 * group on an intercommunicator. */
static int peers(const struct shl_comm *c)
{
	return shl_comm_remote_size(c);
}

/* ---- moving blocks ---- */

/* Copy block s into block d for members (src, dst) of m; a block too small for what is
 * sent gets what fits and both members get MPI_ERR_TRUNCATE. A large copy is only
 * recorded, for the meeting to share out once the run returns (coll/share.c). */
static SHL_HOT_INLINE void move(struct shl_meeting *m, int src, int dst, struct shl_coll_blk d,
				 struct shl_coll_blk s)
{
	size_t sb = shl_coll_blk_bytes(s), db = shl_coll_blk_bytes(d);

	if (sb > db) {
		shl_coll_bad(m, src, MPI_ERR_TRUNCATE);
		shl_coll_bad(m, dst, MPI_ERR_TRUNCATE);
		sb = db;
	}
	/* The size test first: an 8-rank Allgather makes 64 small moves a call. */
	if (sb > 0 &&
	    (sb < SHL_COLL_SHARE_MIN || shl_coll_share_add(m, d.p, d.t, s.p, s.t, sb) != 0))
		shl_dt_copy_inline(d.p, d.t, s.p, s.t, sb);
}

/* ---- barrier ---- */

static void barrier_run(struct shl_meeting *m)
{
	/* Everyone has arrived: that is the whole barrier. */
}

struct barrier_wait {
	struct shl_comm_shared *sh;
	uint64_t target;
};

static bool barrier_done(void *arg)
{
	struct barrier_wait *x = arg;

	/* seq_cst, after shl_wait's sleepers increment (Dekker with the last arriver's
	 * fetch_add and shl_rank_wake); it also acquires the peers' writes before their
	 * barrier, released by their fetch_adds. */
	return atomic_load(&x->sh->arrived) >= x->target;
}

/* Blocking barrier, flag path (comm/comm.h): each member adds itself to `arrived`; the one
 * whose add completes the m-th barrier wakes the others, who wait for the counter to
 * reach m * nmembers, sleeping on their own futex. No allocation, no lock and one word: at
 * 2 ranks a barrier is the counter's line moving twice (a separate release word cost a
 * third transfer: 0.26 us against 0.19 us, bench/barrier -i 5000, 2 ranks, medians of 3). */
static int flag_barrier(struct shl_rank *r, struct shl_comm *c)
{
	struct shl_comm_shared *sh = c->sh;
	struct barrier_wait x = { sh, ++c->barriers * (uint64_t)sh->nmembers };
	uint64_t k = shl_coll_next(c, "MPI_Barrier", SHL_COLL_FLAG);
	int err = MPI_SUCCESS;

	/* seq_cst RMW: the event shl_rank_wake announces. */
	if (atomic_fetch_add(&sh->arrived, 1) + 1 == x.target) {
		for (int i = 0; i < sh->nmembers; i++)
			if (i != c->member)
				shl_rank_wake(shl_job.ranks[sh->world[i]]);
		return MPI_SUCCESS;
	}
	shl_rank_lock(r);
	for (bool poll = true;
	     !shl_wait_once(r, barrier_done, &x, SHL_COLL_CHECK_NS, poll);
	     poll = false)
		if ((err = shl_coll_check(c, k)) != 0)
			break;
	shl_rank_unlock(r);
	return err;
}

static int barrier(const char *fn, MPI_Comm comm, MPI_Request *request, enum shl_coll_mode mode)
{
	bool nb = mode != SHL_COLL_BLOCKING;
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	struct shl_cargs x = { 0 };
	int err = shl_coll_comm(fn, r, comm, nb, request, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (!nb && !c->sh->offnode) {
		err = flag_barrier(r, c);
		return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
	}
	err = shl_coll_start(r, c, fn, barrier_run, &x, request, mode);
	return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
}

int PMPI_Barrier(MPI_Comm comm)
{
	return barrier("MPI_Barrier", comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Barrier);

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
	return barrier("MPI_Ibarrier", comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ibarrier);

/* ---- broadcast ---- */

static void bcast_run(struct shl_meeting *m)
{
	struct shl_comm_shared *sh = m->sh;
	int root, side;

	if (shl_coll_root(m, &root, &side) != 0) {
		shl_coll_bad_all(m, MPI_ERR_ROOT);
		return;
	}
	struct shl_cargs *rx = shl_coll_arg(m, root);
	struct shl_coll_blk s = { rx->rbuf, rx->rcount, rx->rtype };
	for (int i = 0; i < m->n; i++) {
		struct shl_cargs *x = shl_coll_arg(m, i);
		if (i != root && shl_coll_side(sh, i) == side)
			move(m, root, i, (struct shl_coll_blk){ x->rbuf, x->rcount, x->rtype }, s);
	}
}

static int bcast(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, int root,
		 MPI_Comm comm, MPI_Request *request, enum shl_coll_mode mode)
{
	bool nb = mode != SHL_COLL_BLOCKING;
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_coll_comm(fn, r, comm, nb, request, &c);

	if (err == MPI_SUCCESS)
		err = shl_coll_rootarg(c, fn, root);
	bool active = !c || !c->inter || root != MPI_PROC_NULL;
	if (err == MPI_SUCCESS && active)
		err = shl_check_count(c, fn, "", count, type);
	if (err == MPI_SUCCESS && active)
		err = shl_coll_check_buf(c, fn, "buffer", buf, count, type);
	if (err == MPI_SUCCESS && (c->inter ? root >= 0 : root != c->rank))
		err = shl_check_layout(c, fn, "", count, type);
	if (err != MPI_SUCCESS)
		return err;
	if (!nb && count <= INT_MAX &&
	    shl_coll_small_bcast_ok(c, (size_t)count * type->size)) {
		err = shl_coll_small_bcast(r, c, fn, buf, count, type, root);
		return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
	}
	struct shl_cargs x = { .rbuf = buf, .rcount = count, .rtype = type, .root = root,
			       .keep_r = active };
	err = shl_coll_start(r, c, fn, bcast_run, &x, request, mode);
	return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
	return bcast("MPI_Bcast", buffer, count, datatype, root, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Bcast);

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
		MPI_Request *request)
{
	return bcast("MPI_Ibcast", buffer, count, datatype, root, comm, request,
		     SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ibcast);

/* ---- gather and scatter ---- */

/* Gather: the root's receive block k gets the send buffer of rank k of the sending group
 * (the root's own group on an intracommunicator, except an MPI_IN_PLACE root). */
static void gather_run(struct shl_meeting *m)
{
	struct shl_comm_shared *sh = m->sh;
	int root, side;

	if (shl_coll_root(m, &root, &side) != 0) {
		shl_coll_bad_all(m, MPI_ERR_ROOT);
		return;
	}
	struct shl_cargs *rx = shl_coll_arg(m, root);
	for (int i = 0; i < m->n; i++) {
		struct shl_cargs *x = shl_coll_arg(m, i);
		if (shl_coll_side(sh, i) != side || x->sbuf == MPI_IN_PLACE)
			continue;
		move(m, i, root, shl_coll_rblock(rx, shl_coll_lrank(sh, i)),
		     (struct shl_coll_blk){ (char *)x->sbuf, x->scount, x->stype });
	}
}

static void scatter_run(struct shl_meeting *m)
{
	struct shl_comm_shared *sh = m->sh;
	int root, side;

	if (shl_coll_root(m, &root, &side) != 0) {
		shl_coll_bad_all(m, MPI_ERR_ROOT);
		return;
	}
	struct shl_cargs *rx = shl_coll_arg(m, root);
	for (int i = 0; i < m->n; i++) {
		struct shl_cargs *x = shl_coll_arg(m, i);
		if (shl_coll_side(sh, i) != side || x->rbuf == MPI_IN_PLACE)
			continue;
		move(m, root, i, (struct shl_coll_blk){ x->rbuf, x->rcount, x->rtype },
		     shl_coll_sblock(rx, shl_coll_lrank(sh, i)));
	}
}

/* Gather(v) (scatter false) and Scatter(v): `one`/`one_t` is the non-root side's buffer,
 * `many`/`many_t` the root's, with per-rank counts/displs for the v forms. */
static int rooted(const char *fn, bool scatter, bool vec, bool wide, const void *sbuf,
		  MPI_Count scount, MPI_Datatype stype, const void *scounts, const void *sdispls,
		  void *rbuf, MPI_Count rcount, MPI_Datatype rtype, const void *rcounts,
		  const void *rdispls, int root, MPI_Comm comm, MPI_Request *request,
		  enum shl_coll_mode mode)
{
	bool nb = mode != SHL_COLL_BLOCKING;
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_coll_comm(fn, r, comm, nb, request, &c);

	if (err == MPI_SUCCESS)
		err = shl_coll_rootarg(c, fn, root);
	if (err != MPI_SUCCESS)
		return err;
	bool is_root = shl_coll_is_root(c, root);
	bool sends = c->inter ? root >= 0 : true;  /* the non-root side's role */
	bool in_place = is_root && !c->inter && (scatter ? rbuf : sbuf) == MPI_IN_PLACE;
	struct shl_cargs x = { .sbuf = sbuf, .rbuf = rbuf, .scount = scount, .rcount = rcount,
			       .stype = stype, .rtype = rtype, .root = root, .wide = wide };

	if (c->inter && is_root && (sbuf == MPI_IN_PLACE || rbuf == MPI_IN_PLACE))
		return shl_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE on an intercommunicator");
	if (!is_root && (scatter ? rbuf : sbuf) == MPI_IN_PLACE && sends)
		return shl_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only for the root");
	if (is_root) {
		int n = peers(c);
		if (scatter) {
			x.keep_s = true;
			x.svec = vec ? SHL_VEC_V : SHL_VEC_NONE;
			x.scounts = scounts;
			x.sdispls = sdispls;
			err = vec ? check_vec(c, fn, "send", n, &x, scounts, sdispls, NULL, stype)
				  : shl_check_count(c, fn, "send", scount, stype);
			if (err == MPI_SUCCESS)
				err = shl_coll_check_buf(c, fn, "sendbuf", sbuf, vec ? 0 : scount,
							 stype);
		} else {
			x.keep_r = true;
			x.rvec = vec ? SHL_VEC_V : SHL_VEC_NONE;
			x.rcounts = rcounts;
			x.rdispls = rdispls;
			err = vec ? check_vec(c, fn, "recv", n, &x, rcounts, rdispls, NULL, rtype)
				  : shl_check_count(c, fn, "recv", rcount, rtype);
			if (err == MPI_SUCCESS)
				err = shl_coll_check_buf(c, fn, "recvbuf", rbuf, vec ? 0 : rcount,
							 rtype);
			if (err == MPI_SUCCESS)
				err = shl_coll_check_rlayout(c, fn, &x, n);
		}
		if (err != MPI_SUCCESS)
			return err;
	}
	if (sends && (!c->inter || !is_root) && !in_place) {
		if (scatter) {
			x.keep_r = true;
			err = shl_check_count(c, fn, "recv", rcount, rtype);
			if (err == MPI_SUCCESS)
				err = shl_coll_check_buf(c, fn, "recvbuf", rbuf, rcount, rtype);
			if (err == MPI_SUCCESS)
				err = shl_check_layout(c, fn, "recv", rcount, rtype);
		} else {
			x.keep_s = true;
			err = shl_check_count(c, fn, "send", scount, stype);
			if (err == MPI_SUCCESS)
				err = shl_coll_check_buf(c, fn, "sendbuf", sbuf, scount, stype);
		}
		if (err != MPI_SUCCESS)
			return err;
		if (is_root && sbuf == rbuf && (scatter ? rcount : scount) > 0)
			return shl_err(c, MPI_ERR_BUFFER, fn, "sendbuf and recvbuf are the same "
				       "buffer (use MPI_IN_PLACE)");
	}
	/* Non-roots of an intercommunicator's root group take no part in the data. */
	if (c->inter && root == MPI_PROC_NULL)
		x.keep_s = x.keep_r = false;
	err = shl_coll_start(r, c, fn, scatter ? scatter_run : gather_run, &x, request, mode);
	return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return rooted("MPI_Gather", false, false, false, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, NULL,
		      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Gather);

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request)
{
	return rooted("MPI_Igather", false, false, false, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Igather);

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
		 MPI_Comm comm)
{
	return rooted("MPI_Gatherv", false, true, false, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, 0, recvtype, recvcounts, displs, root, comm, NULL,
		      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Gatherv);

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request)
{
	return rooted("MPI_Igatherv", false, true, false, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, 0, recvtype, recvcounts, displs, root, comm, request,
		      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Igatherv);

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return rooted("MPI_Scatter", true, false, false, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, NULL,
		      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scatter);

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		  MPI_Request *request)
{
	return rooted("MPI_Iscatter", true, false, false, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscatter);

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
		  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  int root, MPI_Comm comm)
{
	return rooted("MPI_Scatterv", true, true, false, sendbuf, 0, sendtype, sendcounts, displs,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, NULL,
		      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scatterv);

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
		   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		   int root, MPI_Comm comm, MPI_Request *request)
{
	return rooted("MPI_Iscatterv", true, true, false, sendbuf, 0, sendtype, sendcounts, displs,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscatterv);

/* ---- allgather ---- */

/* Every member's receive block k gets the send buffer of rank k of the other group (of the
 * communicator, on an intracommunicator); an MPI_IN_PLACE member's data is its own block. */
static void allgather_run(struct shl_meeting *m)
{
	struct shl_comm_shared *sh = m->sh;

	for (int i = 0; i < m->n; i++) {
		struct shl_cargs *x = shl_coll_arg(m, i);
		int k = shl_coll_lrank(sh, i);
		struct shl_coll_blk s = x->sbuf == MPI_IN_PLACE
				       ? shl_coll_rblock(x, k)
				       : (struct shl_coll_blk){ (char *)x->sbuf, x->scount, x->stype };
		for (int j = 0; j < m->n; j++) {
			if (sh->inter ? shl_coll_side(sh, j) == shl_coll_side(sh, i)
				      : j == i && x->sbuf == MPI_IN_PLACE)
				continue;
			move(m, i, j, shl_coll_rblock(shl_coll_arg(m, j), k), s);
		}
	}
}

static int allgather(const char *fn, bool vec, bool wide, const void *sbuf, MPI_Count scount,
		     MPI_Datatype stype, void *rbuf, MPI_Count rcount, const void *rcounts,
		     const void *rdispls, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request,
		     enum shl_coll_mode mode)
{
	bool nb = mode != SHL_COLL_BLOCKING;
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_coll_comm(fn, r, comm, nb, request, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (sbuf == MPI_IN_PLACE && c->inter)
		return shl_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE on an intercommunicator");
	if (sbuf != MPI_IN_PLACE &&
	    ((err = shl_check_count(c, fn, "send", scount, stype)) ||
	     (err = shl_coll_check_buf(c, fn, "sendbuf", sbuf, scount, stype))))
		return err;
	struct shl_cargs x = { .sbuf = sbuf, .rbuf = rbuf, .scount = scount, .rcount = rcount,
			       .stype = stype, .rtype = rtype, .rcounts = rcounts,
			       .rdispls = rdispls, .rvec = vec ? SHL_VEC_V : SHL_VEC_NONE,
			       .wide = wide, .keep_s = sbuf != MPI_IN_PLACE, .keep_r = true };
	err = vec ? check_vec(c, fn, "recv", peers(c), &x, rcounts, rdispls, NULL, rtype)
		  : shl_check_count(c, fn, "recv", rcount, rtype);
	if (err == MPI_SUCCESS)
		err = shl_coll_check_buf(c, fn, "recvbuf", rbuf, vec ? 0 : rcount, rtype);
	if (err == MPI_SUCCESS)
		err = shl_coll_check_rlayout(c, fn, &x, peers(c));
	if (err != MPI_SUCCESS)
		return err;
	if (sbuf == rbuf && scount > 0)
		return shl_err(c, MPI_ERR_BUFFER, fn,
			       "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
	if (!nb && !vec && !wide && rcount <= INT_MAX && scount <= INT_MAX &&
	    shl_coll_small_move_ok(c, false, sbuf == MPI_IN_PLACE, (size_t)rcount * rtype->size)) {
		err = shl_coll_small_move(r, c, fn, false, sbuf, (int)scount, stype, rbuf,
					  (int)rcount, rtype);
		return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
	}
	err = shl_coll_start(r, c, fn, allgather_run, &x, request, mode);
	return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return allgather("MPI_Allgather", false, false, sendbuf, sendcount, sendtype, recvbuf,
			 recvcount, NULL, NULL, recvtype, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allgather);

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return allgather("MPI_Iallgather", false, false, sendbuf, sendcount, sendtype, recvbuf,
			 recvcount, NULL, NULL, recvtype, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallgather);

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		    MPI_Comm comm)
{
	return allgather("MPI_Allgatherv", true, false, sendbuf, sendcount, sendtype, recvbuf, 0,
			 recvcounts, displs, recvtype, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allgatherv);

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
		     MPI_Comm comm, MPI_Request *request)
{
	return allgather("MPI_Iallgatherv", true, false, sendbuf, sendcount, sendtype, recvbuf, 0,
			 recvcounts, displs, recvtype, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallgatherv);

/* ---- all-to-all ---- */

/* An MPI_IN_PLACE member's send blocks are its receive blocks, which other members'
 * data overwrite: pack each such member's blocks (in rank order) before any copy. */
static char *snapshot(const struct shl_cargs *x, int n)
{
	size_t total = 0, off = 0;
	char *p;

	for (int k = 0; k < n; k++)
		total += shl_coll_blk_bytes(shl_coll_rblock(x, k));
	p = malloc(total ? total : 1);
	if (p == NULL)
		return NULL;
	for (int k = 0; k < n; k++) {
		struct shl_coll_blk b = shl_coll_rblock(x, k);
		shl_dt_copy(p + off, NULL, b.p, b.t, shl_coll_blk_bytes(b));
		off += shl_coll_blk_bytes(b);
	}
	return p;
}

/* The bytes of every block of m's members when each block can be copied as bytes with no
 * check: an intracommunicator, each member's blocks given by one count (no v or w arrays)
 * in dense types, none in place, and every member's send and receive blocks of one size
 * below SHL_COLL_SHARE_MIN (nothing to truncate, nothing to share); else -1. move() takes
 * 60-70 instructions a block, and an Alltoall moves n * n blocks a call: 4096 at 64
 * ranks. Measured in docs/performance.md, "Alltoall blocks copied as bytes". */
static ptrdiff_t dense_blocks(struct shl_meeting *m)
{
	size_t bytes = 0;

	if (m->sh->inter)
		return -1;
	for (int i = 0; i < m->n; i++) {
		const struct shl_cargs *x = shl_coll_arg(m, i);
		if (x->svec != SHL_VEC_NONE || x->rvec != SHL_VEC_NONE || x->sbuf == MPI_IN_PLACE ||
		    !x->stype->contig || !x->rtype->contig)
			return -1;
		size_t rb = (size_t)x->rcount * x->rtype->size;
		if ((size_t)x->scount * x->stype->size != rb || (i > 0 && rb != bytes) ||
		    rb >= SHL_COLL_SHARE_MIN)
			return -1;
		bytes = rb;
	}
	return (ptrdiff_t)bytes;
}

static void alltoall_run(struct shl_meeting *m)
{
	struct shl_comm_shared *sh = m->sh;
	ptrdiff_t bytes = dense_blocks(m);

	if (bytes >= 0) {
		/* Into each receive buffer in turn (the other order, each send buffer in turn,
		 * read 1.3-2.7 us against 1.24-1.53 at 8 ranks, 4-256 B). */
		for (int j = 0; j < m->n && bytes > 0; j++) {
			char *d = shl_coll_arg(m, j)->rbuf;
			for (int i = 0; i < m->n; i++, d += bytes)
				shl_dt_copy_inline(d, NULL,
						   (const char *)shl_coll_arg(m, i)->sbuf + j * bytes,
						   NULL, (size_t)bytes);
		}
		return;
	}
	char **snap = calloc((size_t)m->n, sizeof(*snap));

	if (snap == NULL) {
		shl_coll_bad_all(m, MPI_ERR_NO_MEM);
		return;
	}
	for (int i = 0; i < m->n; i++)
		if (shl_coll_arg(m, i)->sbuf == MPI_IN_PLACE &&
		    (snap[i] = snapshot(shl_coll_arg(m, i), m->n)) == NULL) {
			shl_coll_bad_all(m, MPI_ERR_NO_MEM);
			goto free_snaps;
		}
	for (int i = 0; i < m->n; i++) {
		struct shl_cargs *x = shl_coll_arg(m, i);
		int k = shl_coll_lrank(sh, i);
		size_t off = 0;
		for (int j = 0; j < m->n; j++) {
			if (sh->inter && shl_coll_side(sh, j) == shl_coll_side(sh, i))
				continue;
			int kj = shl_coll_lrank(sh, j);
			struct shl_coll_blk d = shl_coll_rblock(shl_coll_arg(m, j), k), s;
			if (snap[i] != NULL) {
				s = shl_coll_rblock(x, kj);
				s = (struct shl_coll_blk){ snap[i] + off, (MPI_Count)shl_coll_blk_bytes(s), &shl_mpi_byte };
				off += (size_t)s.count;
			} else {
				s = shl_coll_sblock(x, kj);
			}
			move(m, i, j, d, s);
		}
	}
	shl_coll_share_run(m);  /* the copies read the snapshots */
free_snaps:
	for (int i = 0; i < m->n; i++)
		free(snap[i]);
	free(snap);
}

static int alltoall(const char *fn, enum shl_coll_vec vec, bool wide, const void *sbuf,
		    MPI_Count scount, const void *scounts, const void *sdispls,
		    MPI_Datatype stype, const MPI_Datatype *stypes, void *rbuf, MPI_Count rcount,
		    const void *rcounts, const void *rdispls, MPI_Datatype rtype,
		    const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request,
		    enum shl_coll_mode mode)
{
	bool nb = mode != SHL_COLL_BLOCKING;
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_coll_comm(fn, r, comm, nb, request, &c);

	if (err != MPI_SUCCESS)
		return err;
	int n = peers(c);
	bool in_place = sbuf == MPI_IN_PLACE;
	if (in_place && c->inter)
		return shl_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE on an intercommunicator");
	struct shl_cargs x = { .sbuf = sbuf, .rbuf = rbuf, .scount = scount, .rcount = rcount,
			       .stype = stype, .rtype = rtype, .scounts = scounts,
			       .sdispls = sdispls, .rcounts = rcounts, .rdispls = rdispls,
			       .stypes = stypes, .rtypes = rtypes, .svec = vec, .rvec = vec,
			       .wide = wide, .keep_s = !in_place, .keep_r = true, .nv = n };
	if (vec == SHL_VEC_NONE) {
		if (!in_place &&
		    ((err = shl_check_count(c, fn, "send", scount, stype)) ||
		     (err = shl_coll_check_buf(c, fn, "sendbuf", sbuf, scount, stype))))
			return err;
		err = shl_check_count(c, fn, "recv", rcount, rtype);
		if (err == MPI_SUCCESS)
			err = shl_coll_check_buf(c, fn, "recvbuf", rbuf, rcount, rtype);
	} else {
		if (!in_place && ((err = check_vec(c, fn, "send", n, &x, scounts, sdispls, stypes,
						   stype)) ||
				  (err = shl_coll_check_buf(c, fn, "sendbuf", sbuf, 0, stype))))
			return err;
		err = check_vec(c, fn, "recv", n, &x, rcounts, rdispls, rtypes, rtype);
		if (err == MPI_SUCCESS)
			err = shl_coll_check_buf(c, fn, "recvbuf", rbuf, 0, rtype);
	}
	if (err == MPI_SUCCESS)
		err = shl_coll_check_rlayout(c, fn, &x, n);
	if (err != MPI_SUCCESS)
		return err;
	if (sbuf == rbuf && n > 0 && (vec != SHL_VEC_NONE || scount > 0))
		return shl_err(c, MPI_ERR_BUFFER, fn,
			       "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
	if (!nb && vec == SHL_VEC_NONE && !wide && rcount <= INT_MAX && scount <= INT_MAX &&
	    shl_coll_small_move_ok(c, true, sbuf == MPI_IN_PLACE, (size_t)rcount * rtype->size)) {
		err = shl_coll_small_move(r, c, fn, true, sbuf, (int)scount, stype, rbuf,
					  (int)rcount, rtype);
		return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
	}
	err = shl_coll_start(r, c, fn, alltoall_run, &x, request, mode);
	return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return alltoall("MPI_Alltoall", SHL_VEC_NONE, false, sendbuf, sendcount, NULL, NULL,
			sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL,
			SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoall);

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return alltoall("MPI_Ialltoall", SHL_VEC_NONE, false, sendbuf, sendcount, NULL, NULL,
			sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm,
			request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoall);

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
		   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
	return alltoall("MPI_Alltoallv", SHL_VEC_V, false, sendbuf, 0, sendcounts, sdispls,
			sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, NULL,
			SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoallv);

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
		    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
		    MPI_Request *request)
{
	return alltoall("MPI_Ialltoallv", SHL_VEC_V, false, sendbuf, 0, sendcounts, sdispls,
			sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
			request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoallv);

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
		   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
		   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	return alltoall("MPI_Alltoallw", SHL_VEC_W, false, sendbuf, 0, sendcounts, sdispls, NULL,
			sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, NULL,
			SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoallw);

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
		    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
		    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
		    MPI_Request *request)
{
	return alltoall("MPI_Ialltoallw", SHL_VEC_W, false, sendbuf, 0, sendcounts, sdispls, NULL,
			sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, request,
			SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoallw);

/* ---- persistent collectives (MPI 4.1, 6.13): MPI_…_init, started by MPI_Start ---- */

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Barrier_init"), comm, "MPI_Barrier_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return barrier("MPI_Barrier_init", comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Barrier_init);

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
		MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Bcast_init"), comm, "MPI_Bcast_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return bcast("MPI_Bcast_init", buffer, count, datatype, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Bcast_init);

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Gather_init"), comm, "MPI_Gather_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return rooted("MPI_Gather_init", false, false, false, sendbuf, sendcount, sendtype, NULL,
		      NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Gather_init);

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Gatherv_init"), comm, "MPI_Gatherv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return rooted("MPI_Gatherv_init", false, true, false, sendbuf, sendcount, sendtype, NULL,
		      NULL, recvbuf, 0, recvtype, recvcounts, displs, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Gatherv_init);

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scatter_init"), comm, "MPI_Scatter_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return rooted("MPI_Scatter_init", true, false, false, sendbuf, sendcount, sendtype, NULL,
		      NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scatter_init);

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
		MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
		int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scatterv_init"), comm, "MPI_Scatterv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return rooted("MPI_Scatterv_init", true, true, false, sendbuf, 0, sendtype, sendcounts,
		      displs, recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scatterv_init);

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allgather_init"), comm, "MPI_Allgather_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return allgather("MPI_Allgather_init", false, false, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, NULL, NULL, recvtype, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allgather_init);

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allgatherv_init"), comm, "MPI_Allgatherv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return allgather("MPI_Allgatherv_init", true, false, sendbuf, sendcount, sendtype, recvbuf,
			 0, recvcounts, displs, recvtype, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allgatherv_init);

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoall_init"), comm, "MPI_Alltoall_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return alltoall("MPI_Alltoall_init", SHL_VEC_NONE, false, sendbuf, sendcount, NULL, NULL,
		      sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm,
		      request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoall_init);

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
		MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
		MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoallv_init"), comm, "MPI_Alltoallv_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return alltoall("MPI_Alltoallv_init", SHL_VEC_V, false, sendbuf, 0, sendcounts, sdispls,
		      sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
		      request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoallv_init);

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
		const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
		const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
		MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoallw_init"), comm, "MPI_Alltoallw_init", info);

	if (err != MPI_SUCCESS)
		return err;
	return alltoall("MPI_Alltoallw_init", SHL_VEC_W, false, sendbuf, 0, sendcounts, sdispls,
			NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm,
			request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoallw_init);

/* ---- large-count forms (MPI 4.1): the same paths, MPI_Count/MPI_Aint arrays read in
 * place (struct shl_cargs.wide) ---- */

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
	return bcast("MPI_Bcast_c", buffer, count, datatype, root, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Bcast_c);

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
		  MPI_Request *request)
{
	return bcast("MPI_Ibcast_c", buffer, count, datatype, root, comm, request,
		     SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ibcast_c);

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Bcast_init_c"), comm, "MPI_Bcast_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return bcast("MPI_Bcast_init_c", buffer, count, datatype, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Bcast_init_c);

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return rooted("MPI_Gather_c", false, false, true, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, NULL,
		      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Gather_c);

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		   MPI_Request *request)
{
	return rooted("MPI_Igather_c", false, false, true, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Igather_c);

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
		       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Gather_init_c"), comm, "MPI_Gather_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return rooted("MPI_Gather_init_c", false, false, true, sendbuf, sendcount, sendtype, NULL,
		      NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Gather_init_c);

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
		   int root, MPI_Comm comm)
{
	return rooted("MPI_Gatherv_c", false, true, true, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, 0, recvtype, recvcounts, displs, root, comm, NULL,
		      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Gatherv_c);

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
		    int root, MPI_Comm comm, MPI_Request *request)
{
	return rooted("MPI_Igatherv_c", false, true, true, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, 0, recvtype, recvcounts, displs, root, comm, request,
		      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Igatherv_c);

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
			MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Gatherv_init_c"), comm, "MPI_Gatherv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return rooted("MPI_Gatherv_init_c", false, true, true, sendbuf, sendcount, sendtype, NULL,
		      NULL, recvbuf, 0, recvtype, recvcounts, displs, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Gatherv_init_c);

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return rooted("MPI_Scatter_c", true, false, true, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, NULL,
		      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scatter_c);

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
		    MPI_Request *request)
{
	return rooted("MPI_Iscatter_c", true, false, true, sendbuf, sendcount, sendtype, NULL, NULL,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscatter_c);

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
			MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scatter_init_c"), comm, "MPI_Scatter_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return rooted("MPI_Scatter_init_c", true, false, true, sendbuf, sendcount, sendtype, NULL,
		      NULL, recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scatter_init_c);

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
		    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return rooted("MPI_Scatterv_c", true, true, true, sendbuf, 0, sendtype, sendcounts, displs,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, NULL,
		      SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Scatterv_c);

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
		     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
		     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	return rooted("MPI_Iscatterv_c", true, true, true, sendbuf, 0, sendtype, sendcounts, displs,
		      recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iscatterv_c);

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
			 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
			 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
			 MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Scatterv_init_c"), comm, "MPI_Scatterv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return rooted("MPI_Scatterv_init_c", true, true, true, sendbuf, 0, sendtype, sendcounts,
		      displs, recvbuf, recvcount, recvtype, NULL, NULL, root, comm, request,
		      SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Scatterv_init_c);

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return allgather("MPI_Allgather_c", false, true, sendbuf, sendcount, sendtype, recvbuf,
			 recvcount, NULL, NULL, recvtype, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allgather_c);

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *request)
{
	return allgather("MPI_Iallgather_c", false, true, sendbuf, sendcount, sendtype, recvbuf,
			 recvcount, NULL, NULL, recvtype, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallgather_c);

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			  MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allgather_init_c"), comm, "MPI_Allgather_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return allgather("MPI_Allgather_init_c", false, true, sendbuf, sendcount, sendtype, recvbuf,
		      recvcount, NULL, NULL, recvtype, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allgather_init_c);

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		      MPI_Datatype recvtype, MPI_Comm comm)
{
	return allgather("MPI_Allgatherv_c", true, true, sendbuf, sendcount, sendtype, recvbuf, 0,
			 recvcounts, displs, recvtype, comm, NULL, SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Allgatherv_c);

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
		       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	return allgather("MPI_Iallgatherv_c", true, true, sendbuf, sendcount, sendtype, recvbuf, 0,
			 recvcounts, displs, recvtype, comm, request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Iallgatherv_c);

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			   void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
			   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
			   MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Allgatherv_init_c"), comm, "MPI_Allgatherv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return allgather("MPI_Allgatherv_init_c", true, true, sendbuf, sendcount, sendtype, recvbuf,
			 0, recvcounts, displs, recvtype, comm, request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Allgatherv_init_c);

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	return alltoall("MPI_Alltoall_c", SHL_VEC_NONE, true, sendbuf, sendcount, NULL, NULL,
			sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL,
			SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoall_c);

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
		     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		     MPI_Request *request)
{
	return alltoall("MPI_Ialltoall_c", SHL_VEC_NONE, true, sendbuf, sendcount, NULL, NULL,
			sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm,
			request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoall_c);

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
			 void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			 MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoall_init_c"), comm, "MPI_Alltoall_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return alltoall("MPI_Alltoall_init_c", SHL_VEC_NONE, true, sendbuf, sendcount, NULL, NULL,
		      sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm,
		      request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoall_init_c);

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
		     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
	return alltoall("MPI_Alltoallv_c", SHL_VEC_V, true, sendbuf, 0, sendcounts, sdispls,
			sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm, NULL,
			SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoallv_c);

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
		      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
		      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *request)
{
	return alltoall("MPI_Ialltoallv_c", SHL_VEC_V, true, sendbuf, 0, sendcounts, sdispls,
			sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
			request, SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoallv_c);

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			  const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
			  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
			  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoallv_init_c"), comm, "MPI_Alltoallv_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return alltoall("MPI_Alltoallv_init_c", SHL_VEC_V, true, sendbuf, 0, sendcounts, sdispls,
		      sendtype, NULL, recvbuf, 0, recvcounts, rdispls, recvtype, NULL, comm,
		      request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoallv_init_c);

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
		     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
		     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	return alltoall("MPI_Alltoallw_c", SHL_VEC_W, true, sendbuf, 0, sendcounts, sdispls, NULL,
			sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, NULL,
			SHL_COLL_BLOCKING);
}
SHL_WEAK_ALIAS(Alltoallw_c);

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
		      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
		      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
		      MPI_Request *request)
{
	return alltoall("MPI_Ialltoallw_c", SHL_VEC_W, true, sendbuf, 0, sendcounts, sdispls, NULL,
			sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm, request,
			SHL_COLL_NONBLOCKING);
}
SHL_WEAK_ALIAS(Ialltoallw_c);

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
			  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
			  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
			  const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
			  MPI_Request *request)
{
	int err = shl_coll_info(shl_rank_or_die("MPI_Alltoallw_init_c"), comm, "MPI_Alltoallw_init_c", info);

	if (err != MPI_SUCCESS)
		return err;
	return alltoall("MPI_Alltoallw_init_c", SHL_VEC_W, true, sendbuf, 0, sendcounts, sdispls,
			NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, NULL, recvtypes, comm,
			request, SHL_COLL_PERSISTENT);
}
SHL_WEAK_ALIAS(Alltoallw_init_c);

enum shl_coll_kind shl_coll_kind_move(shl_meet_fn *run)
{
	if (run == barrier_run)
		return SHL_KIND_BARRIER;
	if (run == bcast_run)
		return SHL_KIND_BCAST;
	if (run == gather_run)
		return SHL_KIND_GATHER;
	if (run == scatter_run)
		return SHL_KIND_SCATTER;
	if (run == allgather_run)
		return SHL_KIND_ALLGATHER;
	if (run == alltoall_run)
		return SHL_KIND_ALLTOALL;
	return SHL_KIND_UNKNOWN;
}
