/* The MPI datatype constructors, MPI_Type_commit, MPI_Type_free and MPI_Type_dup: argument
 * checks and the translation of each constructor into blocks for shl_dt_build.
 * Entered by rank threads. Never blocks; allocates only the new type (and the attributes
 * MPI_Type_dup copies); user attribute callbacks run from MPI_Type_dup and MPI_Type_free. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"
#include "runtime/dt_internal.h"

/* An input datatype of a constructor: valid, and not freed. Uncommitted is fine. */
static int check_old(const char *fn, MPI_Datatype t, const char *arg)
{
	if (!shl_type_ok(t))
		return shl_err(NULL, MPI_ERR_TYPE, fn, "%s is not a valid datatype%s", arg,
			       t == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	if (!t->predefined && atomic_load_explicit(&t->handles, memory_order_relaxed) == 0)
		return shl_err(NULL, MPI_ERR_TYPE, fn, "%s was freed with MPI_Type_free", arg);
	return MPI_SUCCESS;
}

static int check_count(const char *fn, long long count, const char *arg)
{
	if (count < 0)
		return shl_err(NULL, MPI_ERR_COUNT, fn, "%s %lld is negative", arg, count);
	return MPI_SUCCESS;
}

static int check_out(const char *fn, MPI_Datatype *newtype)
{
	if (newtype == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "newtype is NULL");
	return MPI_SUCCESS;
}

/* Give the new type `t` (NULL: out of memory) its contents and a user handle. */
static int publish(const char *fn, struct shl_datatype *t, int combiner, int nints,
		   const int *ints, int naints, const MPI_Aint *aints, int ntypes,
		   struct shl_datatype *const *types, MPI_Datatype *newtype)
{
	if (t == NULL)
		goto nomem;
	if (shl_dt_set_contents(t, combiner, nints, ints, naints, aints, ntypes, types) != 0) {
		shl_dt_release(t);
		goto nomem;
	}
	atomic_store_explicit(&t->handles, 1, memory_order_relaxed);
	*newtype = t;
	return MPI_SUCCESS;
nomem:
	return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory building the datatype");
}

/* ---- contiguous, vector, hvector ---- */

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_contiguous";
	int err = check_count(fn, count, "count");
	struct shl_dt_tree l = { .count = 1, .blen = (size_t)count, .child = oldtype };

	if (err == MPI_SUCCESS)
		err = check_old(fn, oldtype, "oldtype");
	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err != MPI_SUCCESS)
		return err;
	return publish(fn, shl_dt_build(&l, NULL, false), MPI_COMBINER_CONTIGUOUS, 1, &count, 0,
		       NULL, 1, &oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_contiguous);

/* vector and hvector: `stride` in bytes when `bytes`, else in extents of oldtype. */
static int vector(const char *fn, int count, int blocklength, MPI_Aint stride, bool bytes,
		  MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	int err = check_count(fn, count, "count");

	if (err == MPI_SUCCESS)
		err = check_count(fn, blocklength, "blocklength");
	if (err == MPI_SUCCESS)
		err = check_old(fn, oldtype, "oldtype");
	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err != MPI_SUCCESS)
		return err;

	struct shl_dt_tree l = { .count = (size_t)count, .blen = (size_t)blocklength,
				 .stride = bytes ? stride : stride * oldtype->extent,
				 .child = oldtype };
	struct shl_datatype *t = shl_dt_build(&l, NULL, false);

	if (bytes) {
		int ints[2] = { count, blocklength };
		return publish(fn, t, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &oldtype,
			       newtype);
	}
	int ints[3] = { count, blocklength, (int)stride };
	return publish(fn, t, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &oldtype, newtype);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
		     MPI_Datatype *newtype)
{
	return vector("MPI_Type_vector", count, blocklength, stride, false, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_vector);

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
			     MPI_Datatype *newtype)
{
	return vector("MPI_Type_create_hvector", count, blocklength, stride, true, oldtype,
		      newtype);
}
SHL_WEAK_ALIAS(Type_create_hvector);

/* ---- the indexed family and struct ---- */

/* The arguments of an indexed-like constructor, in the caller's representation. */
struct idx {
	const char *fn;
	int combiner;
	int count;
	const int *blens;         /* per block, or NULL: `blen` for all */
	int blen;
	const int *idisps;        /* displacements in extents of the old type, or */
	const MPI_Aint *adisps;   /* in bytes */
	const MPI_Datatype *types;   /* struct: per block, or NULL: `old` */
	MPI_Datatype old;
};

static int check_idx(const struct idx *a, MPI_Datatype *newtype)
{
	int err = check_count(a->fn, a->count, "count");

	if (err == MPI_SUCCESS && a->blens == NULL)
		err = check_count(a->fn, a->blen, "blocklength");
	if (err == MPI_SUCCESS)
		err = check_out(a->fn, newtype);
	if (err != MPI_SUCCESS || a->count == 0)
		return err;
	if ((a->blens == NULL && a->blen < 0) ||
	    (a->idisps == NULL && a->adisps == NULL) || (a->types == NULL && a->old == NULL))
		return shl_err(NULL, MPI_ERR_ARG, a->fn, "an array argument is NULL");
	for (int i = 0; a->blens != NULL && i < a->count; i++)
		if (a->blens[i] < 0)
			return shl_err(NULL, MPI_ERR_ARG, a->fn,
				       "array_of_blocklengths[%d] = %d is negative", i, a->blens[i]);
	if (a->types == NULL)
		return check_old(a->fn, a->old, "oldtype");
	for (int i = 0; i < a->count; i++) {
		char what[48];
		snprintf(what, sizeof(what), "array_of_types[%d]", i);
		if ((err = check_old(a->fn, a->types[i], what)) != MPI_SUCCESS)
			return err;
	}
	return MPI_SUCCESS;
}

static int indexed(const struct idx *a, MPI_Datatype *newtype)
{
	int err = check_idx(a, newtype);
	size_t n = (size_t)(a->count > 0 ? a->count : 0);
	size_t *blens = NULL;
	ptrdiff_t *disps = NULL;
	int *ints = NULL, nints = 0;
	struct shl_datatype *t = NULL;

	if (err != MPI_SUCCESS)
		return err;
	blens = malloc((n ? n : 1) * sizeof(*blens));
	disps = malloc((n ? n : 1) * sizeof(*disps));
	ints = malloc((2 * n + 2) * sizeof(*ints));
	if (blens == NULL || disps == NULL || ints == NULL)
		goto nomem;
	ints[nints++] = a->count;
	if (a->blens == NULL)
		ints[nints++] = a->blen;
	for (size_t i = 0; i < n; i++) {
		blens[i] = (size_t)(a->blens ? a->blens[i] : a->blen);
		if (a->blens)
			ints[nints++] = a->blens[i];
	}
	for (size_t i = 0; i < n; i++) {
		if (a->idisps != NULL) {
			disps[i] = (ptrdiff_t)a->idisps[i] * a->old->extent;
			ints[nints++] = a->idisps[i];
		} else {
			disps[i] = a->adisps[i];
		}
	}
	struct shl_dt_tree l = { .count = n, .blens = blens, .disps = disps,
				 .types = (struct shl_datatype **)a->types, .child = a->old };
	t = shl_dt_build(&l, NULL, a->types != NULL);
	free(blens);
	free(disps);
	blens = NULL;
	disps = NULL;
	err = publish(a->fn, t, a->combiner, nints, ints, a->adisps ? a->count : 0, a->adisps,
		      a->types ? a->count : 1, a->types ? a->types : &a->old, newtype);
	free(ints);
	return err;
nomem:
	free(blens);
	free(disps);
	free(ints);
	return shl_err(NULL, MPI_ERR_NO_MEM, a->fn, "out of memory building the datatype");
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
		      const int array_of_displacements[], MPI_Datatype oldtype,
		      MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_indexed", .combiner = MPI_COMBINER_INDEXED,
			 .count = count, .blens = array_of_blocklengths,
			 .idisps = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_indexed);

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
			      const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
			      MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_hindexed", .combiner = MPI_COMBINER_HINDEXED,
			 .count = count, .blens = array_of_blocklengths,
			 .adisps = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_hindexed);

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
				   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_indexed_block",
			 .combiner = MPI_COMBINER_INDEXED_BLOCK, .count = count,
			 .blen = blocklength, .idisps = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_indexed_block);

int PMPI_Type_create_hindexed_block(int count, int blocklength,
				    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
				    MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_hindexed_block",
			 .combiner = MPI_COMBINER_HINDEXED_BLOCK, .count = count,
			 .blen = blocklength, .adisps = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_hindexed_block);

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
			    const MPI_Aint array_of_displacements[],
			    const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_struct", .combiner = MPI_COMBINER_STRUCT,
			 .count = count, .blens = array_of_blocklengths,
			 .adisps = array_of_displacements, .types = array_of_types };
	if (count > 0 && array_of_types == NULL)
		return shl_err(NULL, MPI_ERR_ARG, a.fn, "array_of_types is NULL");
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_struct);

/* ---- resized, dup ---- */

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
			     MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_resized";
	int err = check_old(fn, oldtype, "oldtype");
	struct shl_dt_tree l = { .count = 1, .blen = 1, .child = oldtype };
	struct shl_dt_resize rs = { lb, extent };
	MPI_Aint aints[2] = { lb, extent };

	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err != MPI_SUCCESS)
		return err;
	return publish(fn, shl_dt_build(&l, &rs, false), MPI_COMBINER_RESIZED, 0, NULL, 2, aints,
		       1, &oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_resized);

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_dup";
	int err = check_old(fn, oldtype, "oldtype");
	struct shl_dt_tree l = { .count = 1, .blen = 1, .child = oldtype };
	struct shl_dt_resize rs;
	struct shl_datatype *t;

	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err != MPI_SUCCESS)
		return err;
	rs = (struct shl_dt_resize){ oldtype->lb, oldtype->extent };
	t = shl_dt_build(&l, &rs, false);
	if (t != NULL) {
		t->committed = oldtype->predefined || oldtype->committed;
		t->overlaps = oldtype->overlaps;
	}
	err = publish(fn, t, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &oldtype, newtype);
	if (err != MPI_SUCCESS)
		return err;
	/* The copy callbacks see the new handle complete (MPI 4.1, 7.7.4). */
	err = shl_attr_copy_type(oldtype, t);
	if (err != MPI_SUCCESS) {
		shl_attr_delete_type(t);
		atomic_store_explicit(&t->handles, 0, memory_order_relaxed);
		shl_dt_release(t);
		*newtype = MPI_DATATYPE_NULL;
		return shl_err(NULL, err, fn, "a copy callback of oldtype's attributes failed");
	}
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_dup);

/* ---- subarray and darray: one dimension at a time, innermost first ---- */

/* The type for one more (outer) dimension of `gsize` elements of `inner` (whose extent is
 * one whole inner slab, `slab` bytes): blocks (start, len) of it, resized to lb 0 and the
 * whole dimension. NULL when memory is exhausted. */
static struct shl_datatype *dim_type(struct shl_datatype *inner, ptrdiff_t slab, size_t gsize,
				     size_t nblocks, size_t *blens, ptrdiff_t *starts)
{
	for (size_t i = 0; i < nblocks; i++)
		starts[i] *= slab;
	struct shl_dt_tree l = { .count = nblocks, .blens = blens, .disps = starts,
				 .child = inner };
	struct shl_dt_resize rs = { 0, (ptrdiff_t)gsize * slab };
	return shl_dt_build(&l, &rs, false);
}

/* One dimension of a distributed array: which indices of `g` the process at `coord` of `p`
 * owns, as blocks in blens and starts (allocated, *n of them). Returns 0, -EINVAL (bad
 * distribution arguments) or -ENOMEM. */
static int distribute(int g, int distrib, int darg, int p, int coord, size_t *n,
		      size_t **blens, ptrdiff_t **starts)
{
	long long b, s;
	size_t k = 0, cap;

	*blens = NULL;
	*starts = NULL;
	if (distrib == MPI_DISTRIBUTE_NONE) {
		if (p != 1)
			return -EINVAL;
		b = g;
	} else if (distrib == MPI_DISTRIBUTE_BLOCK) {
		b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
		if (b <= 0 || b * p < g)
			return -EINVAL;
	} else if (distrib == MPI_DISTRIBUTE_CYCLIC) {
		b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
		if (b <= 0)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	cap = distrib == MPI_DISTRIBUTE_CYCLIC ? (size_t)(g / (b * p) + 1) : 1;
	*blens = malloc(cap * sizeof(**blens));
	*starts = malloc(cap * sizeof(**starts));
	if (*blens == NULL || *starts == NULL)
		return -ENOMEM;
	long long step = distrib == MPI_DISTRIBUTE_CYCLIC ? b * p : (long long)g + 1;
	for (s = (long long)coord * b; s < g && k < cap; s += step, k++) {
		(*starts)[k] = (ptrdiff_t)s;
		(*blens)[k] = (size_t)(g - s < b ? g - s : b);
	}
	*n = k;
	return 0;
}

/* An array type: `ndims` dimensions of `gsizes` in `order`, and per dimension either one
 * block (subarray: subsizes, starts) or a distribution (darray: distribs, dargs, psizes and
 * this process's coords). */
struct array_args {
	int ndims;
	const int *gsizes;
	int order;
	/* subarray */
	const int *subsizes, *starts;
	/* darray */
	const int *distribs, *dargs, *psizes;
	const int *coords;
};

static int array_type(const struct array_args *a, MPI_Datatype old, struct shl_datatype **out)
{
	struct shl_datatype *t = old;
	ptrdiff_t slab = old->extent;
	int rc = 0;

	for (int i = 0; i < a->ndims; i++) {
		int d = a->order == MPI_ORDER_C ? a->ndims - 1 - i : i;
		size_t n = 1, *blens = NULL;
		ptrdiff_t *starts = NULL;
		struct shl_datatype *next;

		if (a->subsizes != NULL) {
			blens = malloc(sizeof(*blens));
			starts = malloc(sizeof(*starts));
			rc = blens && starts ? 0 : -ENOMEM;
			if (rc == 0) {
				blens[0] = (size_t)a->subsizes[d];
				starts[0] = a->starts[d];
			}
		} else {
			rc = distribute(a->gsizes[d], a->distribs[d], a->dargs[d], a->psizes[d],
					a->coords[d], &n, &blens, &starts);
		}
		next = rc == 0 ? dim_type(t, slab, (size_t)a->gsizes[d], n, blens, starts) : NULL;
		free(blens);
		free(starts);
		if (t != old)
			shl_dt_release(t);
		if (next == NULL)
			return rc ? rc : -ENOMEM;
		t = next;
		slab *= a->gsizes[d];
	}
	*out = t;  /* callers checked ndims > 0, so t is a new type */
	return 0;
}

static int check_order(const char *fn, int order)
{
	if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
		return shl_err(NULL, MPI_ERR_ARG, fn, "order %d is neither MPI_ORDER_C nor "
			       "MPI_ORDER_FORTRAN", order);
	return MPI_SUCCESS;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
			      const int array_of_subsizes[], const int array_of_starts[],
			      int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_subarray";
	struct array_args a = { .ndims = ndims, .gsizes = array_of_sizes, .order = order,
				.subsizes = array_of_subsizes, .starts = array_of_starts };
	struct shl_datatype *t = NULL;
	int err = check_old(fn, oldtype, "oldtype"), *ints;

	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err == MPI_SUCCESS)
		err = check_order(fn, order);
	if (err != MPI_SUCCESS)
		return err;
	if (ndims <= 0)
		return shl_err(NULL, MPI_ERR_DIMS, fn, "ndims %d is not positive", ndims);
	if (!array_of_sizes || !array_of_subsizes || !array_of_starts)
		return shl_err(NULL, MPI_ERR_ARG, fn, "an array argument is NULL");
	for (int d = 0; d < ndims; d++) {
		int g = array_of_sizes[d], s = array_of_subsizes[d], st = array_of_starts[d];
		if (g <= 0 || s <= 0 || s > g || st < 0 || st > g - s)
			return shl_err(NULL, MPI_ERR_ARG, fn,
				       "dimension %d: size %d, subsize %d, start %d (need 0 < "
				       "subsize <= size and 0 <= start <= size - subsize)",
				       d, g, s, st);
	}
	ints = malloc((3 * (size_t)ndims + 2) * sizeof(*ints));
	if (ints == NULL || array_type(&a, oldtype, &t) != 0) {
		free(ints);
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory building the datatype");
	}
	ints[0] = ndims;
	memcpy(ints + 1, array_of_sizes, (size_t)ndims * sizeof(int));
	memcpy(ints + 1 + ndims, array_of_subsizes, (size_t)ndims * sizeof(int));
	memcpy(ints + 1 + 2 * ndims, array_of_starts, (size_t)ndims * sizeof(int));
	ints[1 + 3 * ndims] = order;
	err = publish(fn, t, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1, &oldtype,
		      newtype);
	free(ints);
	return err;
}
SHL_WEAK_ALIAS(Type_create_subarray);

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
			    const int array_of_distribs[], const int array_of_dargs[],
			    const int array_of_psizes[], int order, MPI_Datatype oldtype,
			    MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_darray";
	int err = check_old(fn, oldtype, "oldtype"), *ints = NULL, *coords = NULL, rc;
	struct shl_datatype *t = NULL;
	long long procs = 1;

	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err == MPI_SUCCESS)
		err = check_order(fn, order);
	if (err != MPI_SUCCESS)
		return err;
	if (ndims <= 0)
		return shl_err(NULL, MPI_ERR_DIMS, fn, "ndims %d is not positive", ndims);
	if (!array_of_gsizes || !array_of_distribs || !array_of_dargs || !array_of_psizes)
		return shl_err(NULL, MPI_ERR_ARG, fn, "an array argument is NULL");
	for (int d = 0; d < ndims; d++) {
		if (array_of_gsizes[d] <= 0 || array_of_psizes[d] <= 0)
			return shl_err(NULL, MPI_ERR_ARG, fn, "dimension %d: gsize %d, psize %d "
				       "must be positive", d, array_of_gsizes[d],
				       array_of_psizes[d]);
		procs *= array_of_psizes[d];
	}
	if (size <= 0 || procs != size || rank < 0 || rank >= size)
		return shl_err(NULL, MPI_ERR_ARG, fn, "rank %d, size %d: the process grid has %lld "
			       "processes", rank, size, procs);
	ints = malloc((4 * (size_t)ndims + 4) * sizeof(*ints));
	coords = malloc((size_t)ndims * sizeof(*coords));
	if (ints == NULL || coords == NULL)
		goto nomem;
	/* The process grid is row-major whatever the array order (MPI 4.1 5.1.4). */
	for (int d = ndims - 1, r = rank; d >= 0; d--) {
		coords[d] = r % array_of_psizes[d];
		r /= array_of_psizes[d];
	}
	struct array_args a = { .ndims = ndims, .gsizes = array_of_gsizes, .order = order,
				.distribs = array_of_distribs, .dargs = array_of_dargs,
				.psizes = array_of_psizes, .coords = coords };
	rc = array_type(&a, oldtype, &t);
	if (rc == -EINVAL) {
		free(ints);
		free(coords);
		return shl_err(NULL, MPI_ERR_ARG, fn, "a distribution does not fit its dimension "
			       "(unknown distrib, MPI_DISTRIBUTE_NONE over more than one process, "
			       "or darg * psize < gsize for MPI_DISTRIBUTE_BLOCK)");
	}
	if (rc != 0)
		goto nomem;
	ints[0] = size;
	ints[1] = rank;
	ints[2] = ndims;
	memcpy(ints + 3, array_of_gsizes, (size_t)ndims * sizeof(int));
	memcpy(ints + 3 + ndims, array_of_distribs, (size_t)ndims * sizeof(int));
	memcpy(ints + 3 + 2 * ndims, array_of_dargs, (size_t)ndims * sizeof(int));
	memcpy(ints + 3 + 3 * ndims, array_of_psizes, (size_t)ndims * sizeof(int));
	ints[3 + 4 * ndims] = order;
	err = publish(fn, t, MPI_COMBINER_DARRAY, 4 * ndims + 4, ints, 0, NULL, 1, &oldtype,
		      newtype);
	free(ints);
	free(coords);
	return err;
nomem:
	free(ints);
	free(coords);
	return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory building the datatype");
}
SHL_WEAK_ALIAS(Type_create_darray);

/* ---- commit, free ---- */

int PMPI_Type_commit(MPI_Datatype *datatype)
{
	const char *fn = "MPI_Type_commit";
	int err;

	if (datatype == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "datatype is NULL");
	err = check_old(fn, *datatype, "datatype");
	if (err != MPI_SUCCESS)
		return err;
	/* The loop form was built by the constructor: committing allows use, and finds once
	 * whether receives into the type would write a byte twice. */
	if (!(*datatype)->predefined && !(*datatype)->committed) {
		(*datatype)->overlaps = shl_dt_find_overlap(*datatype);
		(*datatype)->committed = true;
	}
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_commit);

int PMPI_Type_free(MPI_Datatype *datatype)
{
	const char *fn = "MPI_Type_free";
	struct shl_datatype *t;
	int h;

	if (datatype == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "datatype is NULL");
	t = *datatype;
	if (!shl_type_ok(t))
		return shl_err(NULL, MPI_ERR_TYPE, fn, "datatype is not a valid datatype%s",
			       t == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	if (t->predefined)
		return shl_err(NULL, MPI_ERR_TYPE, fn, "%s is predefined and cannot be freed",
			       t->name);
	h = atomic_load_explicit(&t->handles, memory_order_relaxed);
	/* The last handle deletes the attributes first; a failing callback fails the free
	 * (MPI 4.1, 7.7.4), leaving the type and its remaining attributes. */
	if (h == 1 && t->attrs != NULL) {
		int err = shl_attr_delete_type(t);
		if (err != MPI_SUCCESS)
			return shl_err(NULL, err, fn, "the delete callback of an attribute failed");
	}
	do {
		if (h == 0)
			return shl_err(NULL, MPI_ERR_TYPE, fn, "datatype was freed already");
	} while (!atomic_compare_exchange_weak_explicit(&t->handles, &h, h - 1,
							memory_order_relaxed,
							memory_order_relaxed));
	*datatype = MPI_DATATYPE_NULL;
	shl_dt_release(t);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_free);
