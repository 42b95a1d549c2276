/* Datatypes: the representation every transfer walks, and the copy between two layouts.
 * Entered by rank threads; predefined datatypes are immutable and shared by all ranks.
 * Must not allocate on the copy path. */
#ifndef SHL_RUNTIME_DATATYPE_H
#define SHL_RUNTIME_DATATYPE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mpi.h"
#include "runtime/core/handle.h"

#define SHL_TYPE_MAGIC 0x74797065u

struct shl_attr;

/* Nesting depth of the loop form. Subarrays of up to 4 dimensions inside a vector fit;
 * deeper nests expand their innermost loops into runs (correct, just bigger). */
#define SHL_DT_LOOPS 6

/* One run of bytes inside one extent of a datatype, relative to the element's origin. */
struct shl_block {
	ptrdiff_t off;
	size_t len;
};

/* One level of the loop form: the body below it repeats `count` times, `stride` bytes apart. */
struct shl_dt_loop {
	size_t count;
	ptrdiff_t stride;
};

/* How external32 converts one basic element (predefined types only). */
enum shl_dt_kind {
	SHL_DT_BYTES,    /* copied as is: char, byte, bool, packed */
	SHL_DT_SIGNED,   /* two's complement, big-endian; may narrow (MPI_LONG is 4 bytes) */
	SHL_DT_UNSIGNED,
	SHL_DT_FLOAT,    /* IEEE, byte-swapped per component (complex: 2 components) */
	SHL_DT_LDOUBLE,  /* x87 80-bit <-> IEEE binary128 */
	SHL_DT_PAIR,     /* MINLOC/MAXLOC pair: `pair` value then an int at `pair_off` */
};

/* The C type the reduction kernels (datatype/op.c) treat a predefined datatype's values as: the row
 * of their table. SHL_DT_ARITH_NONE for derived types and for the predefined types no
 * operation applies to (MPI_WCHAR, MPI_PACKED); P_* are the MINLOC/MAXLOC pairs of a value
 * and an int. MPI_CHAR is I8, an extension: MPI 4.1 defines no reduction on it, but Open MPI
 * and MPICH both reduce it as a signed char with every integer operation, and programs
 * (OSU's osu_allreduce, whose default type it is) rely on that (docs/process-model.md). */
enum shl_dt_arith {
	SHL_DT_ARITH_NONE, SHL_DT_ARITH_I8, SHL_DT_ARITH_U8, SHL_DT_ARITH_I16, SHL_DT_ARITH_U16,
	SHL_DT_ARITH_I32, SHL_DT_ARITH_U32, SHL_DT_ARITH_I64, SHL_DT_ARITH_U64, SHL_DT_ARITH_F,
	SHL_DT_ARITH_D, SHL_DT_ARITH_LD, SHL_DT_ARITH_CF, SHL_DT_ARITH_CD, SHL_DT_ARITH_CLD,
	SHL_DT_ARITH_BOOL, SHL_DT_ARITH_BYTE, SHL_DT_ARITH_P_F, SHL_DT_ARITH_P_D,
	SHL_DT_ARITH_P_L, SHL_DT_ARITH_P_I, SHL_DT_ARITH_P_S, SHL_DT_ARITH_P_LD,
	/* The Fortran types' own rows (datatype/fortran.c): LOGICAL of 1 to 16 bytes (LAND,
	 * LOR, LXOR only; .TRUE. is 1), INTEGER(16), REAL(16) and COMPLEX(16) as IEEE binary128
	 * (_Float128), and MPI_2REAL / MPI_2DOUBLE_PRECISION, whose index is a value of the
	 * same type. */
	SHL_DT_ARITH_L1, SHL_DT_ARITH_L2, SHL_DT_ARITH_L4, SHL_DT_ARITH_L8, SHL_DT_ARITH_L16,
	SHL_DT_ARITH_I128, SHL_DT_ARITH_Q, SHL_DT_ARITH_CQ, SHL_DT_ARITH_P_2F, SHL_DT_ARITH_P_2D,
	SHL_DT_ARITH_COUNT,
};

/* The constructor a derived type came from, and its arguments as given (MPI_Type_get_contents).
 * A large-count constructor (MPI_Type_vector_c and friends) records its MPI_Count arguments
 * in `large`, which the int MPI_Type_get_envelope/get_contents refuse (MPI 4.1, 6.1.13).
 * Every datatype in `types` holds a reference. */
struct shl_dt_contents {
	int combiner;
	size_t nints, naints, nlarge, ntypes;
	int *ints;
	MPI_Aint *aints;
	MPI_Count *large;
	struct shl_datatype **types;
};

/* The typemap of one derived element as blocks: block i holds blens[i] (or `blen`) elements
 * of types[i] (or `child`) at byte displacement disps[i] (or i * stride). Walked in order
 * by shl_dt_walk (element counts, external32); each child holds a reference. */
struct shl_dt_tree {
	size_t count;
	size_t blen;
	ptrdiff_t stride;
	size_t *blens;
	ptrdiff_t *disps;
	struct shl_datatype **types;
	struct shl_datatype *child;
};

/* A datatype. Predefined ones are static and immutable. A derived one is built complete by
 * its constructor (the loop form is computed there, so MPI_Type_commit only sets a flag) and
 * is reference counted: one reference per user handle (`handles`), per derived type built
 * on it, and per request using it. The last release frees it. */
struct shl_datatype {
	uint32_t magic;
	bool predefined;      /* MPI_INT and friends: immutable, never freed */
	bool contig;          /* the data of n elements is n*size dense bytes at the buffer address */
	bool committed;
	bool overlaps;        /* some byte of one element's typemap is written twice (set at
			       * commit, shl_dt_find_overlap); a receive into it is erroneous */
	uint8_t nloops;       /* levels in `loops`, outermost first */
	uint8_t kind;         /* enum shl_dt_kind (predefined) */
	uint8_t ext_size;     /* external32 bytes of one component (predefined) */
	uint8_t ncomp;        /* components of a predefined type (complex: 2) */
	uint8_t arith;        /* enum shl_dt_arith (predefined) */
	uint8_t align;        /* strictest alignment of the basic types inside (struct padding) */
	size_t size;          /* bytes of data in one element */
	ptrdiff_t lb;
	ptrdiff_t extent;
	ptrdiff_t true_lb;    /* where the data really starts and ends, ignoring resizing */
	ptrdiff_t true_extent;
	size_t elements;      /* basic elements in one element (MPI_Get_elements) */
	/* Loop form: one element is the runs, repeated over the loop nest, in typemap order. */
	size_t nruns;
	struct shl_block *runs;
	struct shl_dt_loop loops[SHL_DT_LOOPS];
	struct shl_block blocks[2];            /* predefined: the runs live here */
	const struct shl_datatype *pair;       /* SHL_DT_PAIR: the value's type */
	ptrdiff_t pair_off;                    /* SHL_DT_PAIR: the int's offset */
	const char *name;                      /* predefined name, or the derived name (owned) */
	/* Derived types only. */
	_Atomic int refs;
	_Atomic int handles;
	struct shl_dt_tree tree;
	struct shl_dt_contents contents;
	struct shl_attr *attrs;   /* MPI_Type_set_attr; the owning rank's, under its rank lock */
};

/* Copy `bytes` bytes of typed data from (src, stype) to (dst, dtype). A NULL type means
 * contiguous bytes. Element counts are implied by `bytes`; a final partial element is
 * copied up to `bytes`. Any thread; both types must stay alive during the call. Never
 * allocates. Fast paths: dense, then strided runs of equal length, then the loop form. */
void shl_dt_copy(void *dst, const struct shl_datatype *dtype, const void *src,
		 const struct shl_datatype *stype, size_t bytes);

/* Up to 16 dense bytes as at most two pairs of overlapping moves, without a call: callgrind
 * on bench/msgrate counted 12 instructions of memcpy for 8 bytes, on each side. */
static inline void shl_dt_copy_small(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;

	if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n > 0) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/* shl_dt_copy with its contiguous case inline: the copy of every message and of every
 * block a collective moves. */
static inline void shl_dt_copy_inline(void *dst, const struct shl_datatype *dtype,
				      const void *src, const struct shl_datatype *stype,
				      size_t bytes)
{
	if (__builtin_expect((dtype != NULL && !dtype->contig) || (stype != NULL && !stype->contig),
			     0))
		shl_dt_copy(dst, dtype, src, stype, bytes);
	else if (bytes <= 16)
		shl_dt_copy_small(dst, src, bytes);
	else
		memcpy(dst, src, bytes);
}

/* The part of shl_dt_copy(dst, dtype, src, stype, ...) that moves signature bytes
 * [from, from + bytes): a slice of one large copy, so that several threads can share it
 * (runtime/p2p/split.c and coll/share.c, through the shared-copy engine of
 * datatype/share.h). Finds its start from `from` directly (element, loop turn,
 * run), without walking from the beginning. Same threads and rules as shl_dt_copy; the
 * same fast paths (dense, strided runs of one length, the loop form). */
void shl_dt_copy_range(void *dst, const struct shl_datatype *dtype, const void *src,
		       const struct shl_datatype *stype, size_t from, size_t bytes);

/* Take a reference on `t` (a no-op on predefined types): it stays alive until the matching
 * shl_dt_release, whatever MPI_Type_free the user calls meanwhile. Any thread. */
static inline void shl_dt_hold(struct shl_datatype *t)
{
	if (t != NULL && !t->predefined)
		atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
}

/* The last release's work, out of line (shl_dt_release). */
void shl_dt_destroy(struct shl_datatype *t);

/* Inline like shl_comm_drop: every nonblocking receive's request holds its datatype. */
static inline void shl_dt_release(struct shl_datatype *t)
{
	if (t == NULL || t->predefined)
		return;
	/* acq_rel: the last releaser sees every other holder's accesses before freeing. */
	if (atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) == 1)
		shl_dt_destroy(t);
}

/* Why `t` (a valid handle) cannot describe a buffer for communication, or NULL if it can:
 * uncommitted, or freed by MPI_Type_free while something else kept it alive. */
static inline const char *shl_dt_unusable(const struct shl_datatype *t)
{
	if (t->predefined)
		return NULL;
	if (atomic_load_explicit(&t->handles, memory_order_relaxed) == 0)
		return "was freed with MPI_Type_free";
	if (!t->committed)
		return "is not committed (call MPI_Type_commit first)";
	return NULL;
}

/* Whether receiving `count` elements of `t` (valid and usable) would write some byte twice,
 * which MPI 4.1 section 5.1 makes erroneous even when the message is too short to reach the
 * overlap. Within one element: the flag MPI_Type_commit computed (shl_dt_find_overlap).
 * Between elements: a pigeonhole bound, the data of `count` elements not fitting in the
 * bytes they span; a resized extent smaller than the data is caught, while elements that
 * interleave (a matrix column resized to one double) are not flagged. Any thread; no
 * allocation; one branch for a predefined type. */
static inline bool shl_dt_recv_overlaps(const struct shl_datatype *t, size_t count)
{
	size_t data, span, ext;

	if (t->predefined || count == 0 || t->size == 0)
		return false;
	if (t->overlaps)
		return true;
	ext = t->extent < 0 ? (size_t)-t->extent : (size_t)t->extent;
	/* Overflow: no such buffer exists, and the transfer fails on its own size. */
	if (__builtin_mul_overflow(count, t->size, &data) ||
	    __builtin_mul_overflow(count - 1, ext, &span) ||
	    __builtin_add_overflow(span, (size_t)t->true_extent, &span))
		return false;
	return data > span;
}

/* The bytes [*lo, *hi) that `count` >= 1 elements of `t` at a buffer's address touch,
 * relative to it (a negative extent lays the elements downwards). */
static inline void shl_dt_span(const struct shl_datatype *t, size_t count, ptrdiff_t *lo,
			       ptrdiff_t *hi)
{
	ptrdiff_t far = (ptrdiff_t)(count - 1) * t->extent;

	*lo = t->true_lb + (far < 0 ? far : 0);
	*hi = t->true_lb + t->true_extent + (far > 0 ? far : 0);
}

/* Visit the typemap of `count` elements of `t` at `buf` in order, as runs of `n` predefined
 * elements of type `basic` at `addr` (n consecutive, basic->extent apart). Stops when `fn`
 * returns false; returns false then. Not on a hot path: recursion over the constructor tree. */
typedef bool (*shl_dt_visit)(void *ctx, const struct shl_datatype *basic, char *addr, size_t n);
bool shl_dt_walk(const struct shl_datatype *t, char *buf, size_t count, shl_dt_visit fn,
		 void *ctx);

/* Basic elements in the first `bytes` of the signature of (count elements of) `t`, or -1
 * if `bytes` ends inside a basic element. */
MPI_Count shl_dt_elements(const struct shl_datatype *t, size_t bytes);

/* The inverse: bytes of the signature of `t` (repeated) that hold its first `n` >= 0 basic
 * elements, so that shl_dt_elements gives `n` back (MPI_Status_set_elements); -1 if that is
 * more than PTRDIFF_MAX bytes or `t` holds no elements while `n` > 0. Not on a hot path. */
MPI_Count shl_dt_element_bytes(const struct shl_datatype *t, MPI_Count n);

/* external32 (datatype/pack.c) for MPI-IO's representations (file/datarep.c), without
 * argument checks or errors raised; any thread, no allocation. The bytes of one predefined
 * element `basic`; of `count` elements of `t`; and the conversion of `count` elements of
 * `t` at `buf` to (`to_ext`) or from external32 at `ext`, which returns false (and the
 * external32 offset of the value in *bad_at) when a native value does not fit its
 * external32 size (MPI_LONG is 4 bytes there). */
size_t shl_dt_x32_basic(const struct shl_datatype *basic);
size_t shl_dt_x32_size(const struct shl_datatype *t, size_t count);
bool shl_dt_x32_convert(const struct shl_datatype *t, void *buf, size_t count, void *ext,
			bool to_ext, size_t *bad_at);

static inline bool shl_type_ok(MPI_Datatype t)
{
	return shl_handle_mapped(t, sizeof(*t)) && t->magic == SHL_TYPE_MAGIC;
}

#endif
