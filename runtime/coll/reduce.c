/* The collectives that combine data: Reduce, Allreduce, Reduce_scatter(_block), Scan,
 * Exscan on intra- and intercommunicators (Scan and Exscan on intra only): the fold over
 * the members, and for each collective its entry (the checks of its arguments and the
 * choice of its path: the reduction ring of coll/ring.c, or a meeting through
 * shl_coll_start) and its run function. Entered by rank threads, from the bindings
 * (coll/reduce_bindings.c); run functions by the member that arrives last at a meeting, or
 * by a node's leader for the members of other nodes (coll/net.c). Never sends a message
 * and never reorders operands.
 *
 * Algorithm: one meeting per call (coll/call.c); the last arriver folds the members' input
 * buffers, read where they lie, strictly left to right in rank order,
 * ((a0 op a1) op a2) op ..., into an accumulator, then copies the result (or each
 * member's part, or each prefix) into the receive buffers. The same order for every op,
 * predefined or not, makes results deterministic (floating point too) and bitwise equal to
 * a sequential reduction in canonical order. A user function is called in the thread of
 * the member that runs the meeting, with that member's own op and datatype handles, as a
 * process-based MPI would call it in that process. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "runtime/coll/internal.h"

/* ---- the fold over members ---- */

struct red {
	struct shl_fold f;
	void *acc, *tmp, *spare;
};

/* Which member's op and datatype the fold uses: the member whose thread runs the meeting
 * (its copy of a user function, its handles), else the first that passed an op. */
static struct shl_cargs *runner(struct shl_meeting *m)
{
	int w = shl_self ? shl_self->world_rank : -1, first = -1;

	for (int i = 0; i < m->n; i++) {
		if (shl_coll_arg(m, i)->op == NULL)
			continue;
		if (m->sh->world[i] == w)
			return shl_coll_arg(m, i);
		if (first < 0)
			first = i;
	}
	return first >= 0 ? shl_coll_arg(m, first) : NULL;
}

/* Every member that passed an op passed the same predefined one (or user ops, which are
 * per rank and cannot be compared) and the same signature of `count` elements. */
static int agree(struct shl_meeting *m, const struct shl_cargs *p)
{
	size_t bytes = (size_t)p->scount * p->stype->size;

	for (int i = 0; i < m->n; i++) {
		const struct shl_cargs *x = shl_coll_arg(m, i);
		if (x->op == NULL)
			continue;
		if (x->op->kind != p->op->kind)
			return MPI_ERR_OP;
		if ((size_t)x->scount * x->stype->size != bytes)
			return MPI_ERR_COUNT;
	}
	return 0;
}

static int red_init(struct red *d, const struct shl_cargs *p, MPI_Count count, bool spare)
{
	char why[SHL_OP_WHY];
	int err;

	*d = (struct red){ 0 };
	/* Each member checked its own op, type and count: this is a mismatch, or a
	 * reduce-scatter's total above a user function's int length. */
	if ((err = shl_fold_init(&d->f, p->op, p->stype, count, false, why)) != 0)
		return err;
	d->acc = shl_fold_buf(&d->f);
	d->tmp = shl_fold_buf(&d->f);
	if (spare)
		d->spare = shl_fold_buf(&d->f);
	if (d->acc == NULL || d->tmp == NULL || (spare && d->spare == NULL))
		return MPI_ERR_NO_MEM;
	return 0;
}

static void red_free(struct red *d)
{
	shl_fold_free(&d->f, d->acc);
	shl_fold_free(&d->f, d->tmp);
	shl_fold_free(&d->f, d->spare);
}

static const void *input(const struct shl_cargs *x)
{
	return x->sbuf == MPI_IN_PLACE ? x->rbuf : x->sbuf;
}

/* acc = the fold of the inputs of group `side`'s members (every member when `side` < 0). */
static void fold(struct red *d, struct shl_meeting *m, int side)
{
	bool first = true;

	for (int i = 0; i < m->n; i++) {
		const struct shl_cargs *x = shl_coll_arg(m, i);
		if (side >= 0 && shl_coll_side(m->sh, i) != side)
			continue;
		if (first)
			shl_fold_load(&d->f, d->acc, input(x), x->stype);
		else
			shl_fold_step(&d->f, &d->acc, &d->tmp, input(x), x->stype);
		first = false;
	}
}

/* ---- reduce and allreduce ---- */

/* A large Reduce (to member `root`) or Allreduce (root < 0) of an intracommunicator with a
 * predefined op on dense buffers: record the fold for the members blocked in the meeting
 * to share (coll/share.c). Measured with bench/allreduce, 2 and 8 ranks, 1 MiB: see
 * docs/performance.md. False when it does not apply: the caller folds alone. */
static bool fold_shared(struct shl_meeting *m, const struct shl_cargs *p, int root)
{
	struct shl_fold f;
	char why[SHL_OP_WHY];
	const void **in;
	void **out;
	int nout = 0, rc;

	if (m->sh->inter || p->op->kind == SHL_OP_USER ||
	    shl_fold_init(&f, p->op, p->stype, p->scount, false, why) != 0 || f.k == NULL ||
	    f.nbasic == 0 || f.bytes < SHL_COLL_SHARE_MIN)
		return false;
	for (int i = 0; i < m->n; i++) {
		const struct shl_cargs *x = shl_coll_arg(m, i);
		if (!x->stype->contig || ((root < 0 || i == root) && !x->rtype->contig))
			return false;
	}
	in = malloc((size_t)m->n * sizeof(*in));
	out = malloc((size_t)m->n * sizeof(*out));
	rc = -ENOMEM;
	if (in != NULL && out != NULL) {
		for (int i = 0; i < m->n; i++) {
			struct shl_cargs *x = shl_coll_arg(m, i);
			in[i] = input(x);
			if (root < 0 || i == root)
				out[nout++] = x->rbuf;
		}
		rc = shl_coll_share_fold(m, f.k, f.bytes / f.nbasic, f.bytes, in, m->n, out, nout);
	}
	free(in);
	free(out);
	return rc == 0;
}

static void reduce_run(struct shl_meeting *m)
{
	struct shl_cargs *p = runner(m), *rx;
	struct red d = { 0 };
	int root, side, err;

	err = shl_coll_root(m, &root, &side);
	if (err == 0 && p != NULL)
		err = agree(m, p);
	if (err == 0 && p != NULL && fold_shared(m, p, root))
		return;
	if (err == 0 && p != NULL)
		err = red_init(&d, p, p->scount, false);
	if (err == 0 && p != NULL) {
		fold(&d, m, m->sh->inter ? side : -1);
		rx = shl_coll_arg(m, root);
		shl_fold_store(&d.f, rx->rbuf, rx->rtype, d.acc);
	}
	if (err != 0)
		shl_coll_bad_all(m, err);
	red_free(&d);
}

void shl_coll_allreduce_run(struct shl_meeting *m)
{
	struct shl_cargs *p = runner(m);
	struct shl_comm_shared *sh = m->sh;
	struct red d = { 0 };
	int err = agree(m, p);

	if (err == 0 && fold_shared(m, p, -1))
		return;
	if (err == 0)
		err = red_init(&d, p, p->scount, false);
	for (int s = 0; err == 0 && s <= (int)sh->inter; s++) {
		/* Intracommunicator: everyone's inputs to everyone. Intercommunicator: each
		 * group's inputs to the other group. */
		fold(&d, m, sh->inter ? s : -1);
		for (int i = 0; i < m->n; i++) {
			struct shl_cargs *x = shl_coll_arg(m, i);
			if (!sh->inter || shl_coll_side(sh, i) != s)
				shl_fold_store(&d.f, x->rbuf, x->rtype, d.acc);
		}
	}
	if (err != 0)
		shl_coll_bad_all(m, err);
	red_free(&d);
}

/* Check the arguments every reducing call shares: count, datatype, op, and the buffers
 * (MPI_IN_PLACE only as sendbuf where `in_place_ok`; sendbuf equal to recvbuf, never;
 * recvbuf only where this member `receives`, not at a non-root of MPI_Reduce). On success
 * `f` is the caller's fold of (op, type, count). */
static int check(struct shl_comm *c, const char *fn, const void *sbuf, const void *rbuf,
		 bool receives, MPI_Count count, MPI_Datatype type, MPI_Op op, bool in_place_ok,
		 struct shl_fold *f)
{
	char why[SHL_OP_WHY];
	int err = shl_check_count(c, fn, "", count, type);

	if (err != MPI_SUCCESS)
		return err;
	if (!shl_op_ok(op))
		return shl_err(c, MPI_ERR_OP, fn, "invalid op argument%s",
			       op == MPI_OP_NULL ? " (MPI_OP_NULL)" : "");
	if ((err = shl_fold_init(f, op, type, count, false, why)) != 0)
		return shl_err(c, err, fn, "%s", why);
	if (sbuf == MPI_IN_PLACE && !in_place_ok)
		return shl_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed here%s",
			       c->inter ? " (intercommunicator)" : "");
	if (sbuf != MPI_IN_PLACE &&
	    (err = shl_coll_check_buf(c, fn, "sendbuf", sbuf, count, type)) != MPI_SUCCESS)
		return err;
	if (receives &&
	    (err = shl_coll_check_buf(c, fn, "recvbuf", rbuf, count, type)) != MPI_SUCCESS)
		return err;
	if (receives && sbuf == rbuf && count > 0)
		return shl_err(c, MPI_ERR_BUFFER, fn,
			       "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
	return MPI_SUCCESS;
}

int shl_coll_reduce(const char *fn, const void *sbuf, void *rbuf, MPI_Count count,
		    MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request,
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
	bool active = !c->inter || root != MPI_PROC_NULL;
	struct shl_fold f;
	if (active) {
		err = check(c, fn, sbuf, rbuf, is_root, count, type, op, !c->inter, &f);
		if (err == MPI_SUCCESS && is_root)
			err = shl_check_layout(c, fn, "", count, type);
		if (err != MPI_SUCCESS)
			return err;
		if (sbuf == MPI_IN_PLACE && !is_root)
			return shl_err(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is only for the root");
	}
	if (!nb && active && count <= INT_MAX &&
	    shl_coll_small_reduce_ok(c, (size_t)count * type->size, true)) {
		err = shl_coll_small_reduce(r, c, fn, sbuf, rbuf, &f, root);
		return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
	}
	struct shl_cargs x = { .sbuf = sbuf, .rbuf = rbuf, .scount = count, .rcount = count,
			       .stype = type, .rtype = type, .root = root };
	if (active) {
		x.op = op;
		x.keep_s = x.keep_r = true;
		/* The intercommunicator's root contributes nothing (its group is not folded);
		 * its op is kept, so its node can fold the remote group's inputs when they come
		 * from other nodes (coll/net.c). */
		if (c->inter && is_root)
			x.keep_s = false;
	}
	err = shl_coll_start(r, c, fn, reduce_run, &x, request, mode);
	return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
}

/* Allreduce, Scan and Exscan: every member passes the same kind of arguments. */
int shl_coll_symmetric(const char *fn, shl_meet_fn *run, bool intra_only, const void *sbuf,
		       void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		       MPI_Request *request, enum shl_coll_mode mode)
{
	bool nb = mode != SHL_COLL_BLOCKING;
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_coll_comm(fn, r, comm, nb, request, &c);
	struct shl_fold f;

	if (err == MPI_SUCCESS && intra_only && c->inter)
		err = shl_err(c, MPI_ERR_COMM, fn, "comm is an intercommunicator");
	if (err == MPI_SUCCESS)
		err = check(c, fn, sbuf, rbuf, true, count, type, op, !c->inter, &f);
	if (err == MPI_SUCCESS)
		err = shl_check_layout(c, fn, "", count, type);
	if (err != MPI_SUCCESS)
		return err;
	if (!nb && run == shl_coll_allreduce_run && count <= INT_MAX &&
	    shl_coll_small_reduce_ok(c, (size_t)count * type->size, false)) {
		err = shl_coll_small_reduce(r, c, fn, sbuf, rbuf, &f, -1);
		return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
	}
	struct shl_cargs x = { .sbuf = sbuf, .rbuf = rbuf, .scount = count, .rcount = count,
			       .stype = type, .rtype = type, .op = op, .keep_s = true,
			       .keep_r = true };
	err = shl_coll_start(r, c, fn, run, &x, request, mode);
	return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
}

/* ---- scans ---- */

/* Member i gets a0 op ... op ai. An MPI_IN_PLACE member's input is its receive buffer,
 * read (by the step) before the store overwrites it. */
void shl_coll_scan_run(struct shl_meeting *m)
{
	struct shl_cargs *p = runner(m);
	struct red d = { 0 };
	int err = agree(m, p);

	/* Not shared: each member's result is a different prefix (fold_shared would give
	 * everyone the whole fold). */
	if (err == 0)
		err = red_init(&d, p, p->scount, false);
	for (int i = 0; err == 0 && i < m->n; i++) {
		struct shl_cargs *x = shl_coll_arg(m, i);
		if (i == 0)
			shl_fold_load(&d.f, d.acc, input(x), x->stype);
		else
			shl_fold_step(&d.f, &d.acc, &d.tmp, input(x), x->stype);
		shl_fold_store(&d.f, x->rbuf, x->rtype, d.acc);
	}
	if (err != 0)
		shl_coll_bad_all(m, err);
	red_free(&d);
}

/* Member i > 0 gets a0 op ... op a(i-1); member 0's buffer is left alone (MPI 4.1 6.11.2).
 * The next prefix is computed in `spare` before the store, which may overwrite ai. */
void shl_coll_exscan_run(struct shl_meeting *m)
{
	struct shl_cargs *p = runner(m);
	struct red d = { 0 };
	int err = agree(m, p);

	if (err == 0)
		err = red_init(&d, p, p->scount, true);
	for (int i = 0; err == 0 && i < m->n; i++) {
		struct shl_cargs *x = shl_coll_arg(m, i);
		if (i == 0) {
			shl_fold_load(&d.f, d.acc, input(x), x->stype);
			continue;
		}
		bool more = i + 1 < m->n;
		if (more) {
			shl_fold_dup(&d.f, d.spare, d.acc);
			shl_fold_step(&d.f, &d.spare, &d.tmp, input(x), x->stype);
		}
		shl_fold_store(&d.f, x->rbuf, x->rtype, d.acc);
		if (more) {
			void *t = d.acc;
			d.acc = d.spare;
			d.spare = t;
		}
	}
	if (err != 0)
		shl_coll_bad_all(m, err);
	red_free(&d);
}

/* ---- reduce-scatter ---- */

/* Elements a group's members receive in total: the fold's length. The members of a group
 * pass equal counts; the group's first member's are used. */
static size_t group_total(struct shl_meeting *m, int side, int first_member)
{
	const struct shl_cargs *x = shl_coll_arg(m, first_member);
	int n = m->sh->inter ? m->sh->gsize[side] : m->n;
	size_t total = 0;

	for (int k = 0; k < n; k++)
		total += (size_t)shl_coll_rcount(x, k);
	return total;
}

/* Whether every member of side `side` passed the counts its first member did: the fold
 * reads each sendbuf whole, by the first member's total, and places each block by them. */
static bool same_counts(struct shl_meeting *m, int side, int first_member)
{
	const struct shl_cargs *a = shl_coll_arg(m, first_member);
	int n = m->sh->inter ? m->sh->gsize[side] : m->n;

	for (int i = first_member; i < m->n && shl_coll_side(m->sh, i) == side; i++) {
		const struct shl_cargs *x = shl_coll_arg(m, i);
		for (int k = 0; k < n; k++)
			if (shl_coll_rcount(x, k) != shl_coll_rcount(a, k))
				return false;
	}
	return true;
}

/* Intracommunicator: fold everyone's whole vectors, member k gets its block. Inter: each
 * group's fold is scattered over the other group (whose counts give its length). */
static void reduce_scatter_run(struct shl_meeting *m)
{
	struct shl_comm_shared *sh = m->sh;
	struct shl_cargs *p = runner(m);
	int err = 0;

	for (int s = 0; err == 0 && s <= (int)sh->inter; s++) {
		int to = sh->inter ? !s : 0, first = shl_coll_member(sh, to, 0);
		size_t total = group_total(m, to, first), off = 0;
		struct red d;
		if (!same_counts(m, to, first)) {
			err = MPI_ERR_COUNT;
			break;
		}
		err = red_init(&d, p, (MPI_Count)total, false);
		if (err == 0) {
			fold(&d, m, sh->inter ? s : -1);
			for (int i = first; i < m->n && shl_coll_side(sh, i) == to; i++) {
				const struct shl_cargs *x = shl_coll_arg(m, i);
				int k = shl_coll_lrank(sh, i);
				size_t n = (size_t)shl_coll_rcount(x, k);
				shl_fold_store_part(&d.f, x->rbuf, x->rtype, d.acc, off, n);
				off += n;
			}
		}
		red_free(&d);
	}
	if (err != 0)
		shl_coll_bad_all(m, err);
}

int shl_coll_reduce_scatter(const char *fn, bool wide, const void *sbuf, void *rbuf,
			    MPI_Count rcount, const void *rcounts, MPI_Datatype type, MPI_Op op,
			    MPI_Comm comm, MPI_Request *request, enum shl_coll_mode mode)
{
	bool nb = mode != SHL_COLL_BLOCKING;
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_coll_comm(fn, r, comm, nb, request, &c);

	if (err != MPI_SUCCESS)
		return err;
	struct shl_cargs x = { .sbuf = sbuf, .rbuf = rbuf, .rcount = rcount, .rcounts = rcounts,
			       .rvec = rcounts ? SHL_VEC_V : SHL_VEC_NONE, .wide = wide,
			       .stype = type, .rtype = type, .op = op, .keep_s = true,
			       .keep_r = true };
	MPI_Count mine = rcount;
	if (rcounts != NULL) {
		for (int k = 0; k < c->size; k++)
			if (shl_coll_count(&x, rcounts, k) < 0)
				return shl_err(c, MPI_ERR_COUNT, fn, "recvcounts[%d] is %lld", k,
					       shl_coll_count(&x, rcounts, k));
		mine = shl_coll_count(&x, rcounts, c->rank);
	}
	struct shl_fold f;
	err = check(c, fn, sbuf, rbuf, true, mine, type, op, !c->inter, &f);
	if (err == MPI_SUCCESS)
		err = shl_check_layout(c, fn, "", mine, type);
	if (err != MPI_SUCCESS)
		return err;
	err = shl_coll_start(r, c, fn, reduce_scatter_run, &x, request, mode);
	return err ? shl_coll_fail(c, fn, err) : MPI_SUCCESS;
}

enum shl_coll_kind shl_coll_kind_reduce(shl_meet_fn *run)
{
	if (run == reduce_run)
		return SHL_KIND_REDUCE;
	if (run == shl_coll_allreduce_run)
		return SHL_KIND_ALLREDUCE;
	if (run == shl_coll_scan_run)
		return SHL_KIND_SCAN;
	if (run == shl_coll_exscan_run)
		return SHL_KIND_EXSCAN;
	if (run == reduce_scatter_run)
		return SHL_KIND_REDUCE_SCATTER;
	return SHL_KIND_UNKNOWN;
}
