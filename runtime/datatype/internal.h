/* Datatype internals shared by datatype/query.c, datatype/build.c, datatype/constructors.c
 * and datatype/pack.c.
 * Entered by rank threads. Nothing here touches MPI error handlers: callers convert. */
#ifndef SHL_RUNTIME_DT_INTERNAL_H
#define SHL_RUNTIME_DT_INTERNAL_H

#include "runtime/datatype/datatype.h"
#include "runtime/datatype/hooks.h"

/* An explicit lower bound and extent (MPI_Type_create_resized, subarray, darray). */
struct shl_dt_resize {
	ptrdiff_t lb;
	ptrdiff_t extent;
};

/* A new derived type in *out whose element is the blocks of `l` (arrays copied; one
 * reference taken on each child), with bounds from the blocks, or `rs` if not NULL; `pad`
 * rounds a struct's extent up to its alignment. It holds one reference and no user handle,
 * and is not committed. Returns 0, -ENOMEM, or -EOVERFLOW when its size or a bound does not
 * fit an address (*out NULL then). A uniform `l` (no arrays) costs O(1) in its count. */
int shl_dt_build(const struct shl_dt_tree *l, const struct shl_dt_resize *rs, bool pad,
		 struct shl_datatype **out);

/* Record the constructor and its arguments `c` for MPI_Type_get_envelope/get_contents in `t`
 * (arrays copied, one reference taken on each type; `c` stays the caller's). Returns 0 or
 * -ENOMEM, leaving `t` without contents. */
int shl_dt_set_contents(struct shl_datatype *t, const struct shl_dt_contents *c);

/* Whether one element of `t` writes some byte twice (for shl_datatype.overlaps): exact up to
 * SHL_DT_OVERLAP_EXACT runs; above it, true only when the data exceeds the true extent
 * (exact for a vector of one run: |stride| < length). May allocate (false if that fails). */
bool shl_dt_find_overlap(const struct shl_datatype *t);

#endif
