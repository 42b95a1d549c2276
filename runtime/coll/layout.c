/* Receive layouts of collectives: no location of a receive buffer written twice (MPI 4.1,
 * 6.5-6.8). Entered by rank threads at argument validation, reading only the caller's
 * arguments; must stay O(blocks) without allocation for blocks in address order. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/coll/internal.h"

/* Block k of a v/w receive as an interval [lo, hi) in units where any shared unit is a
 * location written twice: element indices of the receive type (v forms, whose blocks are
 * whole elements displs[k] * extent apart), or bytes (w forms, only for dense types, whose
 * hull is their data). */
struct ival {
	MPI_Aint lo, hi;
	int k;
};

static int by_lo(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Block k's interval; false when it writes nothing, or is not compared: a w block of a
 * type that is not dense (its hull is not its data), or bounds that overflow (no such
 * buffer exists). */
static bool ival_of(const struct shl_cargs *x, int k, struct ival *v)
{
	MPI_Count n = shl_coll_count(x, x->rcounts, k);
	MPI_Datatype t = x->rvec == SHL_VEC_W ? x->rtypes[k] : x->rtype;
	MPI_Aint len = (MPI_Aint)n;

	if (n == 0 || t->size == 0)
		return false;
	if (x->rvec == SHL_VEC_W) {
		if (!t->contig)
			return false;
		len = (MPI_Aint)((size_t)n * t->size);   /* <= PTRDIFF_MAX: shl_check_count */
	}
	v->lo = shl_coll_displ(x, x->rdispls, k);
	v->k = k;
	return !__builtin_add_overflow(v->lo, len, &v->hi);
}

/* Sweep intervals in order of lo: one that starts before the furthest end so far shares
 * a unit with the block that reaches there. */
struct sweep {
	MPI_Aint last_lo;
	struct ival far;
};

static bool sweep_hits(struct sweep *s, const struct ival *v, int *k1, int *k2)
{
	if (v->lo < s->far.hi) {
		*k1 = s->far.k;
		*k2 = v->k;
		return true;
	}
	s->last_lo = v->lo;
	if (v->hi > s->far.hi)
		s->far = *v;
	return false;
}

/* Two distinct blocks among the n of x's receive that share a location, in *k1 and *k2;
 * -ENOMEM when the blocks were out of order and sorting them needed memory. */
static int find_pair(const struct shl_cargs *x, int n, int *k1, int *k2)
{
	struct sweep s = { .last_lo = PTRDIFF_MIN, .far = { .hi = PTRDIFF_MIN } };
	struct ival v, *all;
	int m = 0, found = 0;

	for (int k = 0; k < n; k++) {
		if (!ival_of(x, k, &v))
			continue;
		if (v.lo < s.last_lo)
			goto unsorted;
		if (sweep_hits(&s, &v, k1, k2))
			return 1;
	}
	return 0;
unsorted:
	all = malloc((size_t)n * sizeof(*all));
	if (all == NULL)
		return -ENOMEM;
	for (int k = 0; k < n; k++)
		if (ival_of(x, k, &all[m]))
			m++;
	qsort(all, (size_t)m, sizeof(*all), by_lo);
	s = (struct sweep){ .last_lo = PTRDIFF_MIN, .far = { .hi = PTRDIFF_MIN } };
	for (int i = 0; i < m && !found; i++)
		found = sweep_hits(&s, &all[i], k1, k2);
	free(all);
	return found;
}

int shl_coll_check_rlayout(struct shl_comm *c, const char *fn, const struct shl_cargs *x, int n)
{
	int k1, k2, err;

	if (x->rvec == SHL_VEC_NONE) {
		size_t all;
		if (x->rtype->predefined ||
		    __builtin_mul_overflow((size_t)x->rcount, (size_t)n, &all) || all > PTRDIFF_MAX)
			return MPI_SUCCESS;
		return shl_check_layout(c, fn, "recv", (MPI_Count)all, x->rtype);
	}
	for (int k = 0; k < n; k++) {
		MPI_Datatype t = x->rvec == SHL_VEC_W ? x->rtypes[k] : x->rtype;
		MPI_Count cnt = shl_coll_count(x, x->rcounts, k);
		if (shl_dt_recv_overlaps(t, (size_t)cnt))
			return shl_err(c, MPI_ERR_TYPE, fn, "the receive layout overlaps: block %d "
				       "(recvcounts[%d] = %lld of datatype %s) writes some byte "
				       "twice", k, k, cnt,
				       t->name ? t->name : "(unnamed derived type)");
	}
	err = find_pair(x, n, &k1, &k2);
	if (err < 0)
		return shl_coll_fail(c, fn, MPI_ERR_NO_MEM);
	if (err == 0)
		return MPI_SUCCESS;
	if (k1 > k2) {
		int t = k1;
		k1 = k2;
		k2 = t;
	}
	return shl_err(c, MPI_ERR_ARG, fn, "the receive blocks overlap: recvcounts and %s make "
		       "blocks %d and %d write the same %s (no location may be written twice)",
		       x->svec != SHL_VEC_NONE ? "rdispls" : "displs", k1, k2,
		       x->rvec == SHL_VEC_W ? "bytes" : "elements");
}
