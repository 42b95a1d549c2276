/* The access calls: MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate,
 * MPI_Fetch_and_op, MPI_Compare_and_swap, their request-based (MPI_R...) and large-count
 * (_c) twins: argument, epoch and range checks, then the access itself. Entered by rank
 * threads. A target on this node is accessed here, in the call, through the members'
 * table (win.c): a put or get is one copy between the two layouts, an accumulate an
 * atomic update of each element (atomic.c); the target takes no part. A target on
 * another node gets the access as a message (remote.c). Must not take the rank lock but
 * to make a request. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/check.h"
#include "runtime/rma/rma.h"

/* A buffer argument of the call: count and datatype (`what` names them: "origin_",
 * "result_", "target_"). */
static int check_buf(struct shl_win *w, const char *fn, const char *what, MPI_Count count,
		     MPI_Datatype type)
{
	const char *why;

	if (count < 0)
		return shl_win_err(w, MPI_ERR_COUNT, fn, "%scount %lld is negative", what, count);
	if (!shl_type_ok(type))
		return shl_win_err(w, MPI_ERR_TYPE, fn, "%sdatatype is not a valid datatype%s",
				   what, type == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	if ((why = shl_dt_unusable(type)) != NULL)
		return shl_win_err(w, MPI_ERR_TYPE, fn, "%sdatatype %s", what, why);
	size_t bytes;
	if (__builtin_mul_overflow((size_t)count, type->size, &bytes) || bytes > PTRDIFF_MAX)
		return shl_win_err(w, MPI_ERR_COUNT, fn, "%scount %lld of %zu-byte elements is "
				   "more bytes than any buffer holds", what, count, type->size);
	return MPI_SUCCESS;
}

/* A dynamic window's target on this node: whether [lo, hi) lies in one attached region. */
static bool attached(struct shl_win_target *t, const char *lo, const char *hi)
{
	bool in = false;

	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < t->nregions && !in; i++)
		in = t->regions[i].base <= lo && hi <= t->regions[i].base + t->regions[i].size;
	pthread_mutex_unlock(&t->mu);
	return in;
}

/* Where the target's data starts (`*at`; for another node's target, the displacement in
 * bytes), after checking that the access stays in the target's window. */
static int locate(struct shl_win *w, const char *fn, const struct shl_rma_op *op, char **at)
{
	const struct shl_win_peer *p = &w->peers[op->target];
	ptrdiff_t lo, hi, off;

	if (op->tcount == 0 || op->ttype->size == 0) {
		*at = p->base;
		return MPI_SUCCESS;
	}
	shl_dt_span(op->ttype, (size_t)op->tcount, &lo, &hi);
	if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
		/* The displacement is an address (MPI_Get_address of the target's memory); only
		 * the target knows what is attached: another node's checks on arrival. */
		*at = (char *)op->disp;
		if (p->t != NULL && !attached(p->t, *at + lo, *at + hi))
			return shl_win_err(w, MPI_ERR_RMA_RANGE, fn, "[%p, %p) of target %d is not "
					   "in memory attached to the window", (void *)(*at + lo),
					   (void *)(*at + hi), op->target);
		return MPI_SUCCESS;
	}
	if (__builtin_mul_overflow(op->disp, p->disp_unit, &off) || off + lo < 0 ||
	    off + hi > p->size || off + lo > off + hi)
		return shl_win_err(w, MPI_ERR_RMA_RANGE, fn, "target_disp %ld (disp_unit %ld) with "
				   "target_count %lld reaches bytes [%ld, %ld) of target %d, whose "
				   "window has %ld bytes", (long)op->disp, (long)p->disp_unit,
				   op->tcount, (long)(off + lo), (long)(off + hi), op->target,
				   (long)p->size);
	*at = p->t != NULL ? p->base + off : (char *)off;
	return MPI_SUCCESS;
}

/* The checks every access call makes, in the order a user reads its arguments: window,
 * rank, epoch, target buffer. Fills op->target; *w. */
static int check_target(const char *fn, MPI_Win win, int target_rank, struct shl_win **w,
			struct shl_rma_op *op, bool passive_only)
{
	int err = shl_win_arg(fn, win, w);

	if (err != MPI_SUCCESS)
		return err;
	if (target_rank != MPI_PROC_NULL && (target_rank < 0 || target_rank >= (*w)->size))
		return shl_win_err(*w, MPI_ERR_RANK, fn, "target_rank %d is not a rank of the "
				   "window (size %d)", target_rank, (*w)->size);
	op->target = target_rank;
	if (passive_only && !(*w)->lock_all && (*w)->nlocked == 0)
		return shl_win_err(*w, MPI_ERR_RMA_SYNC, fn, "a request-based access needs a "
				   "passive target epoch (MPI_Win_lock or MPI_Win_lock_all)");
	if (target_rank != MPI_PROC_NULL && !shl_win_can_access(*w, target_rank))
		return shl_win_err(*w, MPI_ERR_RMA_SYNC, fn, "no access epoch to target %d is open "
				   "on the window (MPI_Win_fence, MPI_Win_start, MPI_Win_lock or "
				   "MPI_Win_lock_all first)", target_rank);
	return MPI_SUCCESS;
}

/* Two buffers must carry the same signature bytes. */
static int same_bytes(struct shl_win *w, const char *fn, const char *a, MPI_Count na,
		      const struct shl_datatype *ta, const char *b, MPI_Count nb,
		      const struct shl_datatype *tb)
{
	if ((size_t)na * ta->size == (size_t)nb * tb->size)
		return MPI_SUCCESS;
	return shl_win_err(w, MPI_ERR_TYPE, fn, "the %s buffer holds %zu bytes and the %s "
			   "buffer %zu: their type signatures must match", a, (size_t)na * ta->size,
			   b, (size_t)nb * tb->size);
}

/* An accumulate's op, and the one predefined type both sides are made of. */
static int check_acc(struct shl_win *w, const char *fn, struct shl_rma_op *op, MPI_Op mop,
		     shl_kern **k)
{
	struct shl_fold f;
	char why[SHL_OP_WHY];
	int err;

	if (!shl_op_ok(mop))
		return shl_win_err(w, MPI_ERR_OP, fn, "op is not a valid operation%s",
				   mop == MPI_OP_NULL ? " (MPI_OP_NULL)" : "");
	if (mop->kind == SHL_OP_USER)
		return shl_win_err(w, MPI_ERR_OP, fn, "op is a user operation: accumulates take "
				   "predefined operations only (MPI 4.1, 12.3.4)");
	op->op = mop;
	if ((err = shl_fold_init(&f, mop, op->ttype, op->tcount, true, why)) != 0)
		return shl_win_err(w, err, fn, "target_datatype: %s", why);
	op->basic = f.basic;
	*k = f.k;
	if (op->kind == SHL_RMA_GET_ACC && mop->kind == SHL_OP_NO_OP)
		return MPI_SUCCESS;  /* the origin buffer is ignored */
	struct shl_fold g;
	if ((err = shl_fold_init(&g, mop, op->otype, op->ocount, true, why)) != 0)
		return shl_win_err(w, err, fn, "origin_datatype: %s", why);
	if (g.basic != NULL && f.basic != NULL && g.basic != f.basic)
		return shl_win_err(w, MPI_ERR_TYPE, fn, "origin_datatype is made of %s and "
				   "target_datatype of %s: an accumulate needs one predefined type",
				   g.basic->name, f.basic->name);
	return same_bytes(w, fn, "origin", op->ocount, op->otype, "target", op->tcount, op->ttype);
}

/* ---- the common case ----
 * Latency-bound programs move one predefined type with equal counts on both sides, or one
 * element of an atomic, to a target of this node, inside an epoch: that case is checked
 * inline, in a few compares, and done at once. Anything else, and every error, takes the
 * general path, which checks it again and names what is wrong. */

/* Where `bytes` bytes at displacement `disp` of `target` are, if the common case holds for
 * them (a valid window of fixed memory, the target on this node and inside an epoch of
 * this rank, the bytes inside its window); NULL otherwise. */
static SHL_HOT_INLINE char *fast_target(MPI_Win w, int target, MPI_Aint disp, size_t bytes)
{
	const struct shl_win_peer *p;
	MPI_Aint off;

	if (!shl_win_ok(w) || (unsigned)target >= (unsigned)w->size ||
	    w->flavor == MPI_WIN_FLAVOR_DYNAMIC || !shl_win_can_access(w, target))
		return NULL;
	p = &w->peers[target];
	if (p->t == NULL || disp < 0 || __builtin_mul_overflow(disp, p->disp_unit, &off) ||
	    off > p->size || bytes > (size_t)(p->size - off))
		return NULL;
	return p->base + off;
}

/* A buffer of `count` elements of `type` the common case takes: a contiguous predefined
 * type (MPI_DOUBLE_INT and its kind have gaps) and a count without overflow. */
static SHL_HOT_INLINE bool fast_buffer(const void *buf, MPI_Count count, MPI_Datatype type)
{
	return shl_type_ok(type) && type->predefined && type->contig &&
	       (uint64_t)count <= SHL_COUNT_FAST_MAX && (buf != NULL || count == 0);
}

/* ---- the access on this node ---- */

struct acc_walk {
	enum shl_op_kind op;
	shl_kern *k;
	const char *src;
	char *fetch;
};

static bool acc_run(void *arg, const struct shl_datatype *basic, char *addr, size_t n)
{
	struct acc_walk *a = arg;

	shl_rma_atomic(a->op, a->k, basic, addr, a->src, a->fetch, n);
	if (a->src != NULL)
		a->src += n * basic->size;
	if (a->fetch != NULL)
		a->fetch += n * basic->size;
	return true;
}

/* An accumulate at `at` on this node: the origin's data packed, each target element
 * updated atomically, the old values unpacked into the result buffer. */
static int accumulate_here(const struct shl_rma_op *op, shl_kern *k, char *at)
{
	size_t bytes = (size_t)op->tcount * op->ttype->size;
	bool no_src = op->op->kind == SHL_OP_NO_OP;
	bool pack_src = !no_src && !op->otype->contig;
	bool pack_fetch = op->result != NULL && !op->rtype->contig;
	char *tmp = NULL;

	if ((pack_src || pack_fetch) && (tmp = malloc(2 * bytes)) == NULL)
		return MPI_ERR_NO_MEM;
	struct acc_walk a = { op->op->kind, k, no_src ? NULL : op->origin,
			      pack_fetch ? tmp + bytes : op->result };
	if (pack_src) {
		shl_dt_copy(tmp, NULL, op->origin, op->otype, bytes);
		a.src = tmp;
	}
	if (op->ttype->contig)
		acc_run(&a, op->basic, at, bytes / op->basic->size);
	else
		shl_dt_walk(op->ttype, at, (size_t)op->tcount, acc_run, &a);
	if (pack_fetch)
		shl_dt_copy(op->result, op->rtype, tmp + bytes, NULL, bytes);
	free(tmp);
	return MPI_SUCCESS;
}

/* Do `op` (checked) now if its target is on this node, or send it. */
static int run(struct shl_win *w, const char *fn, const struct shl_rma_op *op, shl_kern *k)
{
	const struct shl_win_peer *p = &w->peers[op->target];
	char *at = NULL;
	int err;

	if ((err = locate(w, fn, op, &at)) != MPI_SUCCESS)
		return err;
	if (p->t == NULL) {
		struct shl_rma_op sent = *op;
		sent.disp = (MPI_Aint)at;  /* bytes, or the address on a dynamic window */
		err = shl_rma_remote_op(shl_self, w, &sent);
		return err == MPI_SUCCESS ? err : shl_win_err(w, err, fn, "could not send the "
							      "access to target %d", op->target);
	}
	switch (op->kind) {
	case SHL_RMA_PUT:
		shl_dt_copy_inline(at, op->ttype, op->origin, op->otype,
				   (size_t)op->tcount * op->ttype->size);
		return MPI_SUCCESS;
	case SHL_RMA_GET:
		shl_dt_copy_inline(op->result, op->rtype, at, op->ttype,
				   (size_t)op->tcount * op->ttype->size);
		return MPI_SUCCESS;
	case SHL_RMA_CAS:
		shl_rma_cas(op->basic, at, op->origin, op->compare, op->result);
		return MPI_SUCCESS;
	default:
		err = accumulate_here(op, k, at);
		return err == MPI_SUCCESS ? err : shl_win_err(w, err, fn, "out of memory");
	}
}

/* ---- requests ---- */

/* The request of an MPI_R... call: complete at once for this node's target, else when the
 * answer comes (remote.c). */
static int make_req(struct shl_win *w, const char *fn, struct shl_rma_op *op,
		    MPI_Request *request)
{
	struct shl_rank *r = shl_self;
	struct shl_req *q;

	shl_rank_lock(r);
	q = shl_req_new(r, SHL_REQ_DONE);
	shl_rank_unlock(r);
	if (q == NULL)
		return shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
	if (op->target == MPI_PROC_NULL || w->peers[op->target].t != NULL)
		atomic_store_explicit(&q->done, 1, memory_order_relaxed);
	else
		op->req = q;
	*request = q;
	return MPI_SUCCESS;
}

/* ---- the calls ---- */

/* MPI_Put and MPI_Get (`get`) and their twins: the general path. */
static __attribute__((noinline)) int put_checked(const char *fn, void *origin_addr,
						 MPI_Count origin_count,
						 MPI_Datatype origin_datatype, int target_rank,
						 MPI_Aint target_disp, MPI_Count target_count,
						 MPI_Datatype target_datatype, MPI_Win win,
						 bool rform, MPI_Request *request, bool get)
{
	struct shl_win *w;
	struct shl_rma_op op = { .kind = get ? SHL_RMA_GET : SHL_RMA_PUT };
	int err;

	if (rform && request == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "request is NULL");

	if ((err = check_target(fn, win, target_rank, &w, &op, rform)) != MPI_SUCCESS ||
	    (err = check_buf(w, fn, "origin_", origin_count, origin_datatype)) != MPI_SUCCESS ||
	    (err = check_buf(w, fn, "target_", target_count, target_datatype)) != MPI_SUCCESS ||
	    (err = same_bytes(w, fn, "origin", origin_count, origin_datatype, "target",
			      target_count, target_datatype)) != MPI_SUCCESS)
		return err;
	if (origin_addr == NULL && origin_count > 0 && origin_datatype->size > 0 &&
	    origin_datatype->predefined)
		return shl_win_err(w, MPI_ERR_BUFFER, fn, "origin_addr is NULL but origin_count "
				   "is %lld", origin_count);
	if (rform && (err = make_req(w, fn, &op, request)) != MPI_SUCCESS)
		return err;
	if (target_rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	op.disp = target_disp;
	op.tcount = target_count;
	op.ttype = target_datatype;
	if (get) {
		op.result = origin_addr;
		op.rcount = origin_count;
		op.rtype = origin_datatype;
	} else {
		op.origin = origin_addr;
		op.ocount = origin_count;
		op.otype = origin_datatype;
	}
	return run(w, fn, &op, NULL);
}

static SHL_HOT_INLINE int put(const char *fn, void *origin_addr, MPI_Count origin_count,
			      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
			      MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
			      bool rform, MPI_Request *request, bool get)
{
	shl_rank_or_die(fn);
	if (likely(!rform && origin_datatype == target_datatype &&
		   origin_count == target_count &&
		   fast_buffer(origin_addr, origin_count, origin_datatype))) {
		size_t bytes = (size_t)origin_count * origin_datatype->size;
		char *at = fast_target(win, target_rank, target_disp, bytes);
		if (at != NULL) {
			if (get)
				shl_dt_copy_inline(origin_addr, NULL, at, NULL, bytes);
			else
				shl_dt_copy_inline(at, NULL, origin_addr, NULL, bytes);
			return MPI_SUCCESS;
		}
	}
	return put_checked(fn, origin_addr, origin_count, origin_datatype, target_rank,
			   target_disp, target_count, target_datatype, win, rform, request, get);
}

/* MPI_Accumulate and MPI_Get_accumulate (result_addr NULL: the former). */
static int accumulate(const char *fn, const void *origin_addr, MPI_Count origin_count,
		      MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
		      MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
		      MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op mop,
		      MPI_Win win, bool rform, MPI_Request *request, bool fetch)
{
	struct shl_win *w;
	struct shl_rma_op op = { .kind = fetch ? SHL_RMA_GET_ACC : SHL_RMA_ACC };
	shl_kern *k = NULL;
	int err;

	shl_rank_or_die(fn);
	if (rform && request == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "request is NULL");
	if ((err = check_target(fn, win, target_rank, &w, &op, rform)) != MPI_SUCCESS)
		return err;
	bool no_origin = fetch && shl_op_ok(mop) && mop->kind == SHL_OP_NO_OP;
	if ((!no_origin && (err = check_buf(w, fn, "origin_", origin_count, origin_datatype)) !=
				   MPI_SUCCESS) ||
	    (fetch && (err = check_buf(w, fn, "result_", result_count, result_datatype)) !=
			      MPI_SUCCESS) ||
	    (err = check_buf(w, fn, "target_", target_count, target_datatype)) != MPI_SUCCESS)
		return err;
	op.origin = origin_addr;
	op.ocount = origin_count;
	op.otype = origin_datatype;
	op.result = result_addr;
	op.rcount = result_count;
	op.rtype = result_datatype;
	op.disp = target_disp;
	op.tcount = target_count;
	op.ttype = target_datatype;
	if ((err = check_acc(w, fn, &op, mop, &k)) != MPI_SUCCESS ||
	    (fetch && (err = same_bytes(w, fn, "result", result_count, result_datatype, "target",
					target_count, target_datatype)) != MPI_SUCCESS))
		return err;
	if (rform && (err = make_req(w, fn, &op, request)) != MPI_SUCCESS)
		return err;
	if (target_rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	return run(w, fn, &op, k);
}

/* The types MPI_Compare_and_swap takes: C integers, logicals, bytes (MPI 4.1, 12.3.5). */
static SHL_HOT_INLINE bool cas_type(const struct shl_datatype *t)
{
	return (t->arith >= SHL_DT_ARITH_I8 && t->arith <= SHL_DT_ARITH_U64) ||
	       t->arith == SHL_DT_ARITH_BOOL || t->arith == SHL_DT_ARITH_BYTE;
}

/* MPI_Fetch_and_op and MPI_Compare_and_swap: one element of a predefined type. */
static __attribute__((noinline)) int one_element(const char *fn, struct shl_rma_op *op, MPI_Datatype datatype,
		       MPI_Op mop, MPI_Win win, int target_rank, MPI_Aint target_disp)
{
	struct shl_win *w;
	shl_kern *k = NULL;
	int err;

	if ((err = check_target(fn, win, target_rank, &w, op, false)) != MPI_SUCCESS ||
	    (err = check_buf(w, fn, "", 1, datatype)) != MPI_SUCCESS)
		return err;
	if (!datatype->predefined)
		return shl_win_err(w, MPI_ERR_TYPE, fn, "datatype must be a predefined datatype");
	if (op->result == NULL || (op->origin == NULL && !(mop != NULL && shl_op_ok(mop) &&
							  mop->kind == SHL_OP_NO_OP)) ||
	    (op->kind == SHL_RMA_CAS && op->compare == NULL))
		return shl_win_err(w, MPI_ERR_BUFFER, fn, "%s is NULL",
				   op->result == NULL ? "result_addr" :
				   op->origin == NULL ? "origin_addr" : "compare_addr");
	op->ocount = op->rcount = op->tcount = 1;
	op->otype = op->rtype = op->ttype = datatype;
	op->disp = target_disp;
	if (op->kind == SHL_RMA_CAS) {
		if (!cas_type(datatype))
			return shl_win_err(w, MPI_ERR_TYPE, fn, "datatype %s is not an integer, "
					   "logical or byte type (MPI 4.1, 12.3.5)", datatype->name);
		op->basic = datatype;
	} else if ((err = check_acc(w, fn, op, mop, &k)) != MPI_SUCCESS) {
		return err;
	}
	if (target_rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	return run(w, fn, op, k);
}

/* ---- bindings ---- */

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	     int target_rank, MPI_Aint target_disp, int target_count,
	     MPI_Datatype target_datatype, MPI_Win win)
{
	return put("MPI_Put", (void *)origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, win, false, NULL, false);
}
SHL_WEAK_ALIAS(Put);

int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
	       int target_rank, MPI_Aint target_disp, MPI_Count target_count,
	       MPI_Datatype target_datatype, MPI_Win win)
{
	return put("MPI_Put_c", (void *)origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, win, false, NULL, false);
}
SHL_WEAK_ALIAS(Put_c);

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	      int target_rank, MPI_Aint target_disp, int target_count,
	      MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	return put("MPI_Rput", (void *)origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, win, true, request, false);
}
SHL_WEAK_ALIAS(Rput);

int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
		int target_rank, MPI_Aint target_disp, MPI_Count target_count,
		MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	return put("MPI_Rput_c", (void *)origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, win, true, request, false);
}
SHL_WEAK_ALIAS(Rput_c);

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
	return put("MPI_Get", origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, win, false, NULL, true);
}
SHL_WEAK_ALIAS(Get);

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
	       int target_rank, MPI_Aint target_disp, MPI_Count target_count,
	       MPI_Datatype target_datatype, MPI_Win win)
{
	return put("MPI_Get_c", origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, win, false, NULL, true);
}
SHL_WEAK_ALIAS(Get_c);

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	      int target_rank, MPI_Aint target_disp, int target_count,
	      MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	return put("MPI_Rget", origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, win, true, request, true);
}
SHL_WEAK_ALIAS(Rget);

int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
		int target_rank, MPI_Aint target_disp, MPI_Count target_count,
		MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	return put("MPI_Rget_c", origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, win, true, request, true);
}
SHL_WEAK_ALIAS(Rget_c);

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
		    int target_rank, MPI_Aint target_disp, int target_count,
		    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	return accumulate("MPI_Accumulate", origin_addr, origin_count, origin_datatype, NULL, 0,
			  NULL, target_rank, target_disp, target_count, target_datatype, op, win,
			  false, NULL, false);
}
SHL_WEAK_ALIAS(Accumulate);

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
		      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		      MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
		      MPI_Win win)
{
	return accumulate("MPI_Accumulate_c", origin_addr, origin_count, origin_datatype, NULL,
			  0, NULL, target_rank, target_disp, target_count, target_datatype, op,
			  win, false, NULL, false);
}
SHL_WEAK_ALIAS(Accumulate_c);

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
		     int target_rank, MPI_Aint target_disp, int target_count,
		     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
	return accumulate("MPI_Raccumulate", origin_addr, origin_count, origin_datatype, NULL, 0,
			  NULL, target_rank, target_disp, target_count, target_datatype, op, win,
			  true, request, false);
}
SHL_WEAK_ALIAS(Raccumulate);

int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
		       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
		       MPI_Win win, MPI_Request *request)
{
	return accumulate("MPI_Raccumulate_c", origin_addr, origin_count, origin_datatype, NULL,
			  0, NULL, target_rank, target_disp, target_count, target_datatype, op,
			  win, true, request, false);
}
SHL_WEAK_ALIAS(Raccumulate_c);

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
			void *result_addr, int result_count, MPI_Datatype result_datatype,
			int target_rank, MPI_Aint target_disp, int target_count,
			MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	return accumulate("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype,
			  result_addr, result_count, result_datatype, target_rank, target_disp,
			  target_count, target_datatype, op, win, false, NULL, true);
}
SHL_WEAK_ALIAS(Get_accumulate);

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
			  MPI_Datatype origin_datatype, void *result_addr,
			  MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
			  MPI_Aint target_disp, MPI_Count target_count,
			  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	return accumulate("MPI_Get_accumulate_c", origin_addr, origin_count, origin_datatype,
			  result_addr, result_count, result_datatype, target_rank, target_disp,
			  target_count, target_datatype, op, win, false, NULL, true);
}
SHL_WEAK_ALIAS(Get_accumulate_c);

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count,
			 MPI_Datatype origin_datatype, void *result_addr, int result_count,
			 MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
			 int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			 MPI_Request *request)
{
	return accumulate("MPI_Rget_accumulate", origin_addr, origin_count, origin_datatype,
			  result_addr, result_count, result_datatype, target_rank, target_disp,
			  target_count, target_datatype, op, win, true, request, true);
}
SHL_WEAK_ALIAS(Rget_accumulate);

int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
			   MPI_Datatype origin_datatype, void *result_addr,
			   MPI_Count result_count, MPI_Datatype result_datatype,
			   int target_rank, MPI_Aint target_disp, MPI_Count target_count,
			   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			   MPI_Request *request)
{
	return accumulate("MPI_Rget_accumulate_c", origin_addr, origin_count, origin_datatype,
			  result_addr, result_count, result_datatype, target_rank, target_disp,
			  target_count, target_datatype, op, win, true, request, true);
}
SHL_WEAK_ALIAS(Rget_accumulate_c);

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
		      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
	shl_rank_or_die("MPI_Fetch_and_op");
	if (likely(fast_buffer(result_addr, 1, datatype) && result_addr != NULL &&
		   shl_op_ok(op))) {
		char *at = fast_target(win, target_rank, target_disp, datatype->size);
		shl_kern *k = NULL;
		if (at != NULL && (op->kind == SHL_OP_NO_OP ||
				   (origin_addr != NULL &&
				    (op->kind == SHL_OP_REPLACE ||
				     (k = shl_op_kern(op, datatype)) != NULL)))) {
			shl_rma_atomic(op->kind, k, datatype, at, origin_addr, result_addr, 1);
			return MPI_SUCCESS;
		}
	}
	struct shl_rma_op o = { .kind = SHL_RMA_GET_ACC, .origin = origin_addr,
				.result = result_addr };

	return one_element("MPI_Fetch_and_op", &o, datatype, op, win, target_rank, target_disp);
}
SHL_WEAK_ALIAS(Fetch_and_op);

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
			  MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
			  MPI_Win win)
{
	shl_rank_or_die("MPI_Compare_and_swap");
	if (likely(fast_buffer(result_addr, 1, datatype) && result_addr != NULL &&
		   origin_addr != NULL && compare_addr != NULL && cas_type(datatype))) {
		char *at = fast_target(win, target_rank, target_disp, datatype->size);
		if (at != NULL) {
			shl_rma_cas(datatype, at, origin_addr, compare_addr, result_addr);
			return MPI_SUCCESS;
		}
	}
	struct shl_rma_op o = { .kind = SHL_RMA_CAS, .origin = origin_addr,
				.compare = compare_addr, .result = result_addr };

	return one_element("MPI_Compare_and_swap", &o, datatype, MPI_OP_NULL, win, target_rank,
			   target_disp);
}
SHL_WEAK_ALIAS(Compare_and_swap);
