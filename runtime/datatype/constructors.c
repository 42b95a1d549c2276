/* The MPI datatype constructors (the int bindings and the MPI 4.1 large-count _c bindings,
 * which share one path each), MPI_Type_commit, MPI_Type_free and MPI_Type_dup: argument
 * checks and the translation of each constructor into blocks for shl_dt_build.
 * Entered by rank threads. Never blocks; allocates only the new type (and the attributes
 * MPI_Type_dup copies); user attribute callbacks run from MPI_Type_dup and MPI_Type_free. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/datatype/internal.h"

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

/* `v` elements of `extent` bytes as a byte displacement in *out; MPI_ERR_ARG when that
 * leaves the address space (possible only through the _c bindings' MPI_Count values). */
static int scale(const char *fn, long long v, ptrdiff_t extent, const char *arg, ptrdiff_t *out)
{
	if (__builtin_mul_overflow(v, extent, out))
		return shl_err(NULL, MPI_ERR_ARG, fn, "%s %lld times the extent %td of oldtype "
			       "overflows an address", arg, v, extent);
	return MPI_SUCCESS;
}

/* ---- arguments as the caller gave them ---- */

/* An array argument in the representation of its binding: int (MPI-1), MPI_Aint (the
 * h- constructors) or MPI_Count (the _c constructors). At most one pointer is set. */
struct arr {
	const int *i;
	const MPI_Aint *a;
	const MPI_Count *c;
};

static long long at(struct arr x, size_t k)
{
	return x.c ? x.c[k] : x.a ? (long long)x.a[k] : x.i[k];
}

static bool given(struct arr x)
{
	return x.i != NULL || x.a != NULL || x.c != NULL;
}

/* The contents a constructor records, built in the order of its binding's arguments.
 * The large-count bindings put every MPI_Count argument (counts, block lengths, strides,
 * displacements, sizes, bounds) into the large counts, in binding order, and keep their
 * int arguments (ndims, order, distributions) as integers; MPI 4.1 6.1.13 tabulates only
 * the int bindings, whose counts are integers and whose byte quantities are addresses. */
struct rec {
	bool large;
	bool nomem;
	struct shl_dt_contents c;
};

/* Room for `cap` values of each kind; `types` (ntypes of them) stays the caller's. */
static void rec_open(struct rec *r, int combiner, bool large, size_t cap, size_t ntypes,
		     const MPI_Datatype *types)
{
	memset(r, 0, sizeof(*r));
	r->large = large;
	r->c.combiner = combiner;
	r->c.ints = malloc((cap ? cap : 1) * sizeof(*r->c.ints));
	r->c.aints = malloc((cap ? cap : 1) * sizeof(*r->c.aints));
	r->c.large = malloc((cap ? cap : 1) * sizeof(*r->c.large));
	r->c.ntypes = ntypes;
	r->c.types = (struct shl_datatype **)types;
	r->nomem = !r->c.ints || !r->c.aints || !r->c.large;
}

static void rec_int(struct rec *r, int v)
{
	if (!r->nomem)
		r->c.ints[r->c.nints++] = v;
}

/* A count: an integer in the int bindings (where it is an int), a large count in _c. */
static void rec_count(struct rec *r, long long v)
{
	if (r->nomem)
		return;
	if (r->large)
		r->c.large[r->c.nlarge++] = v;
	else
		r->c.ints[r->c.nints++] = (int)v;
}

/* A byte quantity: an address in the int bindings, a large count in _c. */
static void rec_addr(struct rec *r, long long v)
{
	if (r->nomem)
		return;
	if (r->large)
		r->c.large[r->c.nlarge++] = v;
	else
		r->c.aints[r->c.naints++] = (MPI_Aint)v;
}

static void rec_close(struct rec *r)
{
	free(r->c.ints);
	free(r->c.aints);
	free(r->c.large);
}

/* Give the new type `t`, which shl_dt_build returned with `rc`, the contents `r` and a
 * user handle; `r` is closed either way. */
static int publish(const char *fn, int rc, struct shl_datatype *t, struct rec *r,
		   MPI_Datatype *newtype)
{
	if (rc == 0 && r->nomem)
		rc = -ENOMEM;
	if (rc == 0)
		rc = shl_dt_set_contents(t, &r->c);
	rec_close(r);
	if (rc != 0)
		shl_dt_release(t);
	if (rc == -EOVERFLOW)
		return shl_err(NULL, MPI_ERR_ARG, fn, "the datatype's size or extent overflows an "
			       "address");
	if (rc != 0)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory building the datatype");
	atomic_store_explicit(&t->handles, 1, memory_order_relaxed);
	*newtype = t;
	return MPI_SUCCESS;
}

/* ---- contiguous, vector, hvector ---- */

static int contiguous(const char *fn, long long count, bool large, MPI_Datatype oldtype,
		      MPI_Datatype *newtype)
{
	int err = check_count(fn, count, "count");
	struct shl_dt_tree l = { .count = 1, .blen = (size_t)count, .child = oldtype };
	struct shl_datatype *t;
	struct rec r;

	if (err == MPI_SUCCESS)
		err = check_old(fn, oldtype, "oldtype");
	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err != MPI_SUCCESS)
		return err;
	err = shl_dt_build(&l, NULL, false, &t);
	rec_open(&r, MPI_COMBINER_CONTIGUOUS, large, 1, 1, &oldtype);
	rec_count(&r, count);
	return publish(fn, err, t, &r, newtype);
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	return contiguous("MPI_Type_contiguous", count, false, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_contiguous);

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	return contiguous("MPI_Type_contiguous_c", count, true, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_contiguous_c);

/* vector and hvector: `stride` in bytes when `bytes`, else in extents of oldtype. */
static int vector(const char *fn, long long count, long long blocklength, long long stride,
		  bool bytes, bool large, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	int err = check_count(fn, count, "count");
	ptrdiff_t step = (ptrdiff_t)stride;
	struct shl_datatype *t;
	struct rec r;

	if (err == MPI_SUCCESS)
		err = check_count(fn, blocklength, "blocklength");
	if (err == MPI_SUCCESS)
		err = check_old(fn, oldtype, "oldtype");
	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err == MPI_SUCCESS && !bytes)
		err = scale(fn, stride, oldtype->extent, "stride", &step);
	if (err != MPI_SUCCESS)
		return err;

	struct shl_dt_tree l = { .count = (size_t)count, .blen = (size_t)blocklength,
				 .stride = step, .child = oldtype };
	err = shl_dt_build(&l, NULL, false, &t);
	rec_open(&r, bytes ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR, large, 3, 1, &oldtype);
	rec_count(&r, count);
	rec_count(&r, blocklength);
	if (bytes)
		rec_addr(&r, stride);
	else
		rec_count(&r, stride);
	return publish(fn, err, t, &r, newtype);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
		     MPI_Datatype *newtype)
{
	return vector("MPI_Type_vector", count, blocklength, stride, false, false, oldtype,
		      newtype);
}
SHL_WEAK_ALIAS(Type_vector);

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
		       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	return vector("MPI_Type_vector_c", count, blocklength, stride, false, true, oldtype,
		      newtype);
}
SHL_WEAK_ALIAS(Type_vector_c);

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
			     MPI_Datatype *newtype)
{
	return vector("MPI_Type_create_hvector", count, blocklength, stride, true, false,
		      oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_hvector);

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
			       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	return vector("MPI_Type_create_hvector_c", count, blocklength, stride, true, true,
		      oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_hvector_c);

/* ---- the indexed family and struct ---- */

/* The arguments of an indexed-like constructor, in the caller's representation. */
struct idx {
	const char *fn;
	int combiner;
	bool large;               /* a _c binding */
	bool block;               /* one block length `blen` for all blocks */
	bool bytes;               /* displacements in bytes, else in extents of `old` */
	long long count;
	struct arr blens;         /* per block, unless `block` */
	long long blen;
	struct arr disps;
	const MPI_Datatype *types;   /* struct: per block; else NULL and `old` */
	MPI_Datatype old;
};

static int check_idx(const struct idx *a, MPI_Datatype *newtype)
{
	int err = check_count(a->fn, a->count, "count");

	if (err == MPI_SUCCESS && a->block)
		err = check_count(a->fn, a->blen, "blocklength");
	if (err == MPI_SUCCESS)
		err = check_out(a->fn, newtype);
	if (err != MPI_SUCCESS)
		return err;
	if (a->combiner != MPI_COMBINER_STRUCT &&
	    (err = check_old(a->fn, a->old, "oldtype")) != MPI_SUCCESS)
		return err;
	if (a->count == 0)
		return MPI_SUCCESS;
	if ((!a->block && !given(a->blens)) || !given(a->disps))
		return shl_err(NULL, MPI_ERR_ARG, a->fn, "an array argument is NULL");
	for (size_t i = 0; !a->block && i < (size_t)a->count; i++)
		if (at(a->blens, i) < 0)
			return shl_err(NULL, MPI_ERR_ARG, a->fn,
				       "array_of_blocklengths[%zu] = %lld is negative", i,
				       at(a->blens, i));
	for (size_t i = 0; a->types != NULL && i < (size_t)a->count; i++) {
		char what[48];
		snprintf(what, sizeof(what), "array_of_types[%zu]", i);
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
	struct shl_datatype *t;
	struct rec r;

	if (err != MPI_SUCCESS)
		return err;
	blens = malloc((n ? n : 1) * sizeof(*blens));
	disps = malloc((n ? n : 1) * sizeof(*disps));
	if (blens == NULL || disps == NULL) {
		err = shl_err(NULL, MPI_ERR_NO_MEM, a->fn, "out of memory building the datatype");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		blens[i] = (size_t)(a->block ? a->blen : at(a->blens, i));
		disps[i] = (ptrdiff_t)at(a->disps, i);
		if (!a->bytes &&
		    (err = scale(a->fn, at(a->disps, i), a->old->extent,
				 "a displacement", &disps[i])) != MPI_SUCCESS)
			goto out;
	}
	struct shl_dt_tree l = { .count = n, .blens = blens, .disps = disps,
				 .types = (struct shl_datatype **)a->types, .child = a->old };
	/* A struct has a type per block, n of them: none for an empty one (whose arrays may be
	 * NULL), which has no oldtype either. */
	bool per_block = a->combiner == MPI_COMBINER_STRUCT;
	err = shl_dt_build(&l, NULL, per_block, &t);
	rec_open(&r, a->combiner, a->large, 2 * n + 2, per_block ? n : 1,
		 per_block ? a->types : &a->old);
	rec_count(&r, a->count);
	if (a->block)
		rec_count(&r, a->blen);
	for (size_t i = 0; !a->block && i < n; i++)
		rec_count(&r, at(a->blens, i));
	for (size_t i = 0; i < n; i++) {
		if (a->bytes)
			rec_addr(&r, at(a->disps, i));
		else
			rec_count(&r, at(a->disps, i));
	}
	err = publish(a->fn, err, t, &r, newtype);
out:
	free(blens);
	free(disps);
	return err;
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
		      const int array_of_displacements[], MPI_Datatype oldtype,
		      MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_indexed", .combiner = MPI_COMBINER_INDEXED,
			 .count = count, .blens.i = array_of_blocklengths,
			 .disps.i = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_indexed);

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
			const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
			MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_indexed_c", .combiner = MPI_COMBINER_INDEXED,
			 .large = true, .count = count, .blens.c = array_of_blocklengths,
			 .disps.c = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_indexed_c);

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
			      const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
			      MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_hindexed", .combiner = MPI_COMBINER_HINDEXED,
			 .bytes = true, .count = count, .blens.i = array_of_blocklengths,
			 .disps.a = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_hindexed);

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
				const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
				MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_hindexed_c", .combiner = MPI_COMBINER_HINDEXED,
			 .large = true, .bytes = true, .count = count,
			 .blens.c = array_of_blocklengths, .disps.c = array_of_displacements,
			 .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_hindexed_c);

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
				   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_indexed_block",
			 .combiner = MPI_COMBINER_INDEXED_BLOCK, .block = true, .count = count,
			 .blen = blocklength, .disps.i = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_indexed_block);

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
				     const MPI_Count array_of_displacements[],
				     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_indexed_block_c",
			 .combiner = MPI_COMBINER_INDEXED_BLOCK, .large = true, .block = true,
			 .count = count, .blen = blocklength, .disps.c = array_of_displacements,
			 .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_indexed_block_c);

int PMPI_Type_create_hindexed_block(int count, int blocklength,
				    const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
				    MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_hindexed_block",
			 .combiner = MPI_COMBINER_HINDEXED_BLOCK, .block = true, .bytes = true,
			 .count = count, .blen = blocklength, .disps.a = array_of_displacements,
			 .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_hindexed_block);

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
				      const MPI_Count array_of_displacements[],
				      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_hindexed_block_c",
			 .combiner = MPI_COMBINER_HINDEXED_BLOCK, .large = true, .block = true,
			 .bytes = true, .count = count, .blen = blocklength,
			 .disps.c = array_of_displacements, .old = oldtype };
	return indexed(&a, newtype);
}
SHL_WEAK_ALIAS(Type_create_hindexed_block_c);

/* struct: the indexed path with one type per block. */
static int create_struct(struct idx *a, const MPI_Datatype types[], MPI_Datatype *newtype)
{
	if (a->count > 0 && types == NULL)
		return shl_err(NULL, MPI_ERR_ARG, a->fn, "array_of_types is NULL");
	a->combiner = MPI_COMBINER_STRUCT;
	a->bytes = true;
	a->types = types;
	return indexed(a, newtype);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
			    const MPI_Aint array_of_displacements[],
			    const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_struct", .count = count,
			 .blens.i = array_of_blocklengths, .disps.a = array_of_displacements };
	return create_struct(&a, array_of_types, newtype);
}
SHL_WEAK_ALIAS(Type_create_struct);

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
			      const MPI_Count array_of_displacements[],
			      const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
	struct idx a = { .fn = "MPI_Type_create_struct_c", .large = true, .count = count,
			 .blens.c = array_of_blocklengths, .disps.c = array_of_displacements };
	return create_struct(&a, array_of_types, newtype);
}
SHL_WEAK_ALIAS(Type_create_struct_c);

/* ---- resized, dup ---- */

static int resized(const char *fn, long long lb, long long extent, bool large,
		   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	int err = check_old(fn, oldtype, "oldtype");
	struct shl_dt_tree l = { .count = 1, .blen = 1, .child = oldtype };
	struct shl_dt_resize rs = { (ptrdiff_t)lb, (ptrdiff_t)extent };
	struct shl_datatype *t;
	struct rec r;

	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err != MPI_SUCCESS)
		return err;
	err = shl_dt_build(&l, &rs, false, &t);
	rec_open(&r, MPI_COMBINER_RESIZED, large, 2, 1, &oldtype);
	rec_addr(&r, lb);
	rec_addr(&r, extent);
	return publish(fn, err, t, &r, newtype);
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
			     MPI_Datatype *newtype)
{
	return resized("MPI_Type_create_resized", lb, extent, false, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_resized);

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
			       MPI_Datatype *newtype)
{
	return resized("MPI_Type_create_resized_c", lb, extent, true, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_resized_c);

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_dup";
	int err = check_old(fn, oldtype, "oldtype");
	struct shl_dt_tree l = { .count = 1, .blen = 1, .child = oldtype };
	struct shl_dt_resize rs;
	struct shl_datatype *t;
	struct rec r;

	if (err == MPI_SUCCESS)
		err = check_out(fn, newtype);
	if (err != MPI_SUCCESS)
		return err;
	rs = (struct shl_dt_resize){ oldtype->lb, oldtype->extent };
	err = shl_dt_build(&l, &rs, false, &t);
	if (t != NULL) {
		t->committed = oldtype->predefined || oldtype->committed;
		t->overlaps = oldtype->overlaps;
	}
	rec_open(&r, MPI_COMBINER_DUP, false, 0, 1, &oldtype);
	err = publish(fn, err, t, &r, newtype);
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
 * one whole inner slab, `slab` bytes) in *out: blocks (start, len) of it, resized to lb 0
 * and the whole dimension (check_array made sure that fits). Returns as shl_dt_build. */
static int dim_type(struct shl_datatype *inner, ptrdiff_t slab, size_t gsize, size_t nblocks,
		    size_t *blens, ptrdiff_t *starts, struct shl_datatype **out)
{
	for (size_t i = 0; i < nblocks; i++)
		starts[i] *= slab;
	struct shl_dt_tree l = { .count = nblocks, .blens = blens, .disps = starts,
				 .child = inner };
	struct shl_dt_resize rs = { 0, (ptrdiff_t)gsize * slab };
	return shl_dt_build(&l, &rs, false, out);
}

/* One dimension of a distributed array: which indices of `g` the process at `coord` of `p`
 * owns, as blocks in blens and starts (allocated, *n of them). Returns 0, -EINVAL (bad
 * distribution arguments) or -ENOMEM. */
static int distribute(long long g, int distrib, int darg, int p, int coord, size_t *n,
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
	long long step = distrib == MPI_DISTRIBUTE_CYCLIC ? b * p : g + 1;
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
	const char *fn;
	bool large;
	int ndims;
	struct arr gsizes;
	int order;
	/* subarray */
	struct arr subsizes, starts;
	/* darray */
	int size, rank;
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
		struct shl_datatype *next = NULL;

		if (given(a->subsizes)) {
			blens = malloc(sizeof(*blens));
			starts = malloc(sizeof(*starts));
			rc = blens && starts ? 0 : -ENOMEM;
			if (rc == 0) {
				blens[0] = (size_t)at(a->subsizes, (size_t)d);
				starts[0] = (ptrdiff_t)at(a->starts, (size_t)d);
			}
		} else {
			rc = distribute(at(a->gsizes, (size_t)d), a->distribs[d], a->dargs[d],
					a->psizes[d], a->coords[d], &n, &blens, &starts);
		}
		if (rc == 0)
			rc = dim_type(t, slab, (size_t)at(a->gsizes, (size_t)d), n, blens, starts,
				      &next);
		free(blens);
		free(starts);
		if (t != old)
			shl_dt_release(t);
		if (rc != 0)
			return rc;
		t = next;
		slab *= (ptrdiff_t)at(a->gsizes, (size_t)d);
	}
	*out = t;  /* callers checked ndims > 0, so t is a new type */
	return 0;
}

/* The checks subarray and darray share: order, ndims, and a whole array of `old` whose
 * extent fits an address (the _c bindings take MPI_Count sizes). */
static int check_array(const struct array_args *a, MPI_Datatype old, MPI_Datatype *newtype)
{
	int err = check_old(a->fn, old, "oldtype");
	ptrdiff_t span = old->extent < 0 ? -old->extent : old->extent;

	if (err == MPI_SUCCESS)
		err = check_out(a->fn, newtype);
	if (err != MPI_SUCCESS)
		return err;
	if (a->order != MPI_ORDER_C && a->order != MPI_ORDER_FORTRAN)
		return shl_err(NULL, MPI_ERR_ARG, a->fn, "order %d is neither MPI_ORDER_C nor "
			       "MPI_ORDER_FORTRAN", a->order);
	if (a->ndims <= 0)
		return shl_err(NULL, MPI_ERR_DIMS, a->fn, "ndims %d is not positive", a->ndims);
	if (!given(a->gsizes) || (!given(a->subsizes) && a->distribs == NULL) ||
	    (given(a->subsizes) && !given(a->starts)) ||
	    (!given(a->subsizes) && (!a->dargs || !a->psizes)))
		return shl_err(NULL, MPI_ERR_ARG, a->fn, "an array argument is NULL");
	for (int d = 0; d < a->ndims; d++) {
		long long g = at(a->gsizes, (size_t)d);
		if (g <= 0)
			return shl_err(NULL, MPI_ERR_ARG, a->fn, "dimension %d: size %lld is not "
				       "positive", d, g);
		if (__builtin_mul_overflow(span, (ptrdiff_t)g, &span))
			return shl_err(NULL, MPI_ERR_ARG, a->fn, "the whole array (dimension %d: "
				       "size %lld) overflows an address", d, g);
	}
	return MPI_SUCCESS;
}

static int subarray(struct array_args *a, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	int err = check_array(a, oldtype, newtype);
	size_t nd = (size_t)a->ndims;
	struct shl_datatype *t = NULL;
	struct rec r;

	if (err != MPI_SUCCESS)
		return err;
	for (int d = 0; d < a->ndims; d++) {
		long long g = at(a->gsizes, (size_t)d), s = at(a->subsizes, (size_t)d);
		long long st = at(a->starts, (size_t)d);
		if (s <= 0 || s > g || st < 0 || st > g - s)
			return shl_err(NULL, MPI_ERR_ARG, a->fn,
				       "dimension %d: size %lld, subsize %lld, start %lld (need 0 < "
				       "subsize <= size and 0 <= start <= size - subsize)",
				       d, g, s, st);
	}
	err = array_type(a, oldtype, &t);
	rec_open(&r, MPI_COMBINER_SUBARRAY, a->large, 3 * nd + 2, 1, &oldtype);
	rec_int(&r, a->ndims);
	for (size_t d = 0; d < nd; d++)
		rec_count(&r, at(a->gsizes, d));
	for (size_t d = 0; d < nd; d++)
		rec_count(&r, at(a->subsizes, d));
	for (size_t d = 0; d < nd; d++)
		rec_count(&r, at(a->starts, d));
	rec_int(&r, a->order);
	return publish(a->fn, err, t, &r, newtype);
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
			      const int array_of_subsizes[], const int array_of_starts[],
			      int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct array_args a = { .fn = "MPI_Type_create_subarray", .ndims = ndims,
				.gsizes.i = array_of_sizes, .order = order,
				.subsizes.i = array_of_subsizes, .starts.i = array_of_starts };
	return subarray(&a, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_subarray);

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
				const MPI_Count array_of_subsizes[],
				const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
				MPI_Datatype *newtype)
{
	struct array_args a = { .fn = "MPI_Type_create_subarray_c", .large = true,
				.ndims = ndims, .gsizes.c = array_of_sizes, .order = order,
				.subsizes.c = array_of_subsizes, .starts.c = array_of_starts };
	return subarray(&a, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_subarray_c);

static int darray(struct array_args *a, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	int err = check_array(a, oldtype, newtype), *coords = NULL, rc;
	size_t nd = (size_t)a->ndims;
	struct shl_datatype *t = NULL;
	long long procs = 1;
	struct rec r;

	if (err != MPI_SUCCESS)
		return err;
	for (int d = 0; d < a->ndims; d++) {
		if (a->psizes[d] <= 0)
			return shl_err(NULL, MPI_ERR_ARG, a->fn, "dimension %d: psize %d must be "
				       "positive", d, a->psizes[d]);
		procs *= a->psizes[d];
	}
	if (a->size <= 0 || procs != a->size || a->rank < 0 || a->rank >= a->size)
		return shl_err(NULL, MPI_ERR_ARG, a->fn, "rank %d, size %d: the process grid has "
			       "%lld processes", a->rank, a->size, procs);
	coords = malloc(nd * sizeof(*coords));
	if (coords == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, a->fn, "out of memory building the datatype");
	/* The process grid is row-major whatever the array order (MPI 4.1 6.1.4). */
	for (int d = a->ndims - 1, q = a->rank; d >= 0; d--) {
		coords[d] = q % a->psizes[d];
		q /= a->psizes[d];
	}
	a->coords = coords;
	rc = array_type(a, oldtype, &t);
	free(coords);
	if (rc == -EINVAL)
		return shl_err(NULL, MPI_ERR_ARG, a->fn, "a distribution does not fit its "
			       "dimension (unknown distrib, MPI_DISTRIBUTE_NONE over more than one "
			       "process, or darg * psize < gsize for MPI_DISTRIBUTE_BLOCK)");
	rec_open(&r, MPI_COMBINER_DARRAY, a->large, 4 * nd + 4, 1, &oldtype);
	rec_int(&r, a->size);
	rec_int(&r, a->rank);
	rec_int(&r, a->ndims);
	for (size_t d = 0; d < nd; d++)
		rec_count(&r, at(a->gsizes, d));
	for (size_t d = 0; d < nd; d++)
		rec_int(&r, a->distribs[d]);
	for (size_t d = 0; d < nd; d++)
		rec_int(&r, a->dargs[d]);
	for (size_t d = 0; d < nd; d++)
		rec_int(&r, a->psizes[d]);
	rec_int(&r, a->order);
	return publish(a->fn, rc, t, &r, newtype);
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
			    const int array_of_distribs[], const int array_of_dargs[],
			    const int array_of_psizes[], int order, MPI_Datatype oldtype,
			    MPI_Datatype *newtype)
{
	struct array_args a = { .fn = "MPI_Type_create_darray", .size = size, .rank = rank,
				.ndims = ndims, .gsizes.i = array_of_gsizes, .order = order,
				.distribs = array_of_distribs, .dargs = array_of_dargs,
				.psizes = array_of_psizes };
	return darray(&a, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_darray);

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
			      const int array_of_distribs[], const int array_of_dargs[],
			      const int array_of_psizes[], int order, MPI_Datatype oldtype,
			      MPI_Datatype *newtype)
{
	struct array_args a = { .fn = "MPI_Type_create_darray_c", .large = true, .size = size,
				.rank = rank, .ndims = ndims, .gsizes.c = array_of_gsizes,
				.order = order, .distribs = array_of_distribs,
				.dargs = array_of_dargs, .psizes = array_of_psizes };
	return darray(&a, oldtype, newtype);
}
SHL_WEAK_ALIAS(Type_create_darray_c);

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
