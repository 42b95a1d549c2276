/* Datatypes: the representation every transfer walks, and the copy between two layouts.
 * Entered by rank threads; predefined datatypes are immutable and shared by all ranks.
 * Must not allocate on the copy path. */
#ifndef SHL_RUNTIME_DATATYPE_H
#define SHL_RUNTIME_DATATYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

#define SHL_TYPE_MAGIC 0x74797065u

/* One run of bytes inside one extent of a datatype. */
struct shl_block {
	size_t off;
	size_t len;
};

struct shl_datatype {
	uint32_t magic;
	bool predefined;      /* MPI_INT and friends: immutable, never freed */
	bool contig;          /* one block covering [0, size) and size == extent */
	int nblocks;
	size_t size;          /* bytes of data in one element */
	ptrdiff_t lb;
	ptrdiff_t extent;
	int elements;         /* basic elements in one element (MPI_Get_elements) */
	struct shl_block blocks[2];
	const char *name;
};

/* Copy `bytes` bytes of typed data from (src, stype) to (dst, dtype). A NULL type means
 * contiguous bytes. Element counts are implied by `bytes`. */
void shl_dt_copy(void *dst, const struct shl_datatype *dtype, const void *src,
		 const struct shl_datatype *stype, size_t bytes);

static inline bool shl_type_ok(MPI_Datatype t)
{
	return t != NULL && t->magic == SHL_TYPE_MAGIC;
}

#endif
