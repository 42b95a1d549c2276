/* Element-wise atomic updates of window memory: the effect on each target element of
 * MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op and MPI_Compare_and_swap (and their
 * request-based twins), and the process-wide striped locks behind the elements no single
 * instruction updates. Entered by rank threads (an origin updating a target of its own node)
 * and by whichever thread reads the node's connections (remote.c applying an access from
 * another node), in any number at once. Must not allocate, sleep but on a stripe, or call an
 * error handler: the callers have checked the op, the types and the range.
 *
 * Why instructions and locks mix safely: MPI 4.1 section 12.7.1 promises atomicity only
 * between accesses to one element with the same predefined datatype, and the way an element
 * is updated depends on nothing but its datatype and its address. An integer, MPI_BYTE or
 * MPI_C_BOOL element of 1, 2, 4 or 8 bytes whose size is its extent and whose address is a
 * multiple of its size is always updated by one atomic instruction on its word, for every
 * op: a fetch-and-add, -and, -or or -xor, an exchange, a load, or a compare-and-swap that
 * installs what the op's kernel made of a copy of the old value. Every other element
 * (float, double, long double, the complex types, the MINLOC/MAXLOC pairs, an element off
 * its alignment) is always read, combined and written, for every op including MPI_REPLACE,
 * MPI_NO_OP and compare-and-swap, under the stripe its granule (its first byte's address
 * divided by SHL_RMA_GRANULE) hashes to; a run of such elements takes one stripe per
 * granule in turn and hands the kernel the whole part inside that granule. Two accesses to
 * one element with one datatype thus meet on the same word or under the same lock,
 * whichever calls, threads or nodes they come from, and no thread holds two stripes.
 * Compare-and-swap compares bytes, not values (+0.0 and -0.0 differ; a NaN equals its own
 * bytes). */
#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "runtime/rma/rma.h"

/* Views of window memory as words, for the atomics: the memory holds the user's types. */
typedef uint8_t __attribute__((may_alias)) word8;
typedef uint16_t __attribute__((may_alias)) word16;
typedef uint32_t __attribute__((may_alias)) word32;
typedef uint64_t __attribute__((may_alias)) word64;

/* How many locks guard the elements updated under a lock, by the hash of their granule:
 * enough that the granules of 64 ranks each updating its own rarely share one (64 granules
 * in 1024 stripes: about 2 pairs share), few enough that the table (64 KiB, a line each) is
 * touched only in the lines in use. */
#define SHL_RMA_STRIPES 1024

/* The bytes of address space one stripe lock covers at a time: a run of elements under a
 * lock takes one lock per granule it touches and applies the op's kernel to its part in
 * that granule in one call. 1 KiB (docs/rma.md, "What is atomic", has the measurement):
 * large enough that taking the lock adds little to the kernel's time on a granule, small
 * enough that a granule is held briefly and that updates of elements far apart rarely
 * wait for each other. */
#define SHL_RMA_GRANULE 1024
_Static_assert((SHL_RMA_GRANULE & (SHL_RMA_GRANULE - 1)) == 0, "the granule is a power of 2");

/* The largest predefined element (MPI_C_LONG_DOUBLE_COMPLEX), in bytes. */
#define SHL_RMA_ELEM_MAX 32
_Static_assert(sizeof(long double _Complex) == SHL_RMA_ELEM_MAX,
	       "the largest predefined datatype fits SHL_RMA_ELEM_MAX");

/* Process-wide: the stripes, each on a cache line of its own so that updates under
 * different stripes share no line. A stripe's mutex guards the elements whose granule
 * hashes to it during one read-combine-write of a granule's part of a run; adaptive,
 * because that is at most a granule's kernel and a waiter is better off spinning a little
 * than sleeping. A thread holds at most one stripe at a time, so there is no lock order. */
static struct {
	struct {
		alignas(64) pthread_mutex_t mu;
	} stripe[SHL_RMA_STRIPES];
} locks = { .stripe = { [0 ... SHL_RMA_STRIPES - 1] = {
		    .mu = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP } } };

/* The granule of the element starting at `elem`: it decides the element's stripe, whatever
 * the bytes of the element that lie in the next granule. */
static inline uintptr_t granule_of(const char *elem)
{
	return (uintptr_t)elem / SHL_RMA_GRANULE;
}

static pthread_mutex_t *stripe_of(uintptr_t granule)
{
	/* Fibonacci hashing: neighbouring granules spread over the whole table. */
	uint64_t h = (uint64_t)granule * UINT64_C(0x9e3779b97f4a7c15);

	return &locks.stripe[h >> (64 - 10)].mu;
}
_Static_assert(SHL_RMA_STRIPES == 1 << 10, "stripe_of takes the hash's top 10 bits");

/* The types a fetch-and-add adds as their op's kernel does (two's complement wrap-around),
 * and those fetch-and-and/or/xor combine as theirs (also MPI_BYTE): the integers. */
static inline bool int_arith(uint8_t arith)
{
	return (unsigned)(arith - SHL_DT_ARITH_I8) <= SHL_DT_ARITH_U64 - SHL_DT_ARITH_I8;
}

static inline bool bits_arith(uint8_t arith)
{
	return int_arith(arith) || arith == SHL_DT_ARITH_BYTE;
}

/* Whether `elem` is updated by instructions on its word: an integer, MPI_BYTE or
 * MPI_C_BOOL whose size is its extent, a power of two up to 8 (the switches below), at an
 * address that is a multiple of its size. */
static inline bool on_word(const struct shl_datatype *basic, const char *elem)
{
	return (bits_arith(basic->arith) || basic->arith == SHL_DT_ARITH_BOOL) &&
	       (ptrdiff_t)basic->size == basic->extent && basic->size <= 8 &&
	       ((uintptr_t)elem & (basic->size - 1)) == 0;
}

/* update_wN: shl_rma_atomic on n aligned words of N bits. The sequentially consistent
 * read-modify-writes are the locked instructions of x86-64 whatever the order asked, and
 * they keep a program's accumulates to different elements in one order for every thread.
 * A compare-and-swap loop's kernel works on a copy of the old word; when the op leaves the
 * word as it is (MAX below the maximum), its load is the access and nothing is written. */
#define UPDATE_WORD(name, W)                                                                   \
	static inline __attribute__((always_inline)) void                                     \
	name(enum shl_op_kind op, shl_kern *k, uint8_t arith, W *d, const char *src,           \
	     char *fetch, size_t n)                                                            \
	{                                                                                      \
		if (op == SHL_OP_NO_OP) {                                                      \
			for (size_t i = 0; fetch != NULL && i < n; i++, fetch += sizeof(W)) {  \
				W old = __atomic_load_n(d + i, __ATOMIC_SEQ_CST);               \
				memcpy(fetch, &old, sizeof old);                               \
			}                                                                      \
			return;                                                                \
		}                                                                              \
		for (size_t i = 0; i < n; i++, d++, src += sizeof(W)) {                       \
			W v = 0, old, nw;                                                      \
			if (op != SHL_OP_NO_OP) /* MPI_NO_OP: src may be NULL */              \
				memcpy(&v, src, sizeof v);                                     \
			switch (op) {                                                          \
			case SHL_OP_SUM:                                                       \
				if (!int_arith(arith))                                         \
					goto cas;                                              \
				old = __atomic_fetch_add(d, v, __ATOMIC_SEQ_CST);              \
				break;                                                         \
			case SHL_OP_BAND:                                                      \
				if (!bits_arith(arith))                                        \
					goto cas;                                              \
				old = __atomic_fetch_and(d, v, __ATOMIC_SEQ_CST);              \
				break;                                                         \
			case SHL_OP_BOR:                                                       \
				if (!bits_arith(arith))                                        \
					goto cas;                                              \
				old = __atomic_fetch_or(d, v, __ATOMIC_SEQ_CST);               \
				break;                                                         \
			case SHL_OP_BXOR:                                                      \
				if (!bits_arith(arith))                                        \
					goto cas;                                              \
				old = __atomic_fetch_xor(d, v, __ATOMIC_SEQ_CST);              \
				break;                                                         \
			case SHL_OP_REPLACE:                                                   \
				old = __atomic_exchange_n(d, v, __ATOMIC_SEQ_CST);             \
				break;                                                         \
			default:                                                               \
			cas:                                                                   \
				old = __atomic_load_n(d, __ATOMIC_SEQ_CST);                    \
				do {                                                           \
					nw = old;                                              \
					k(&v, &nw, 1);                                         \
				} while (nw != old &&                                          \
					 !__atomic_compare_exchange_n(d, &old, nw, true,       \
								      __ATOMIC_SEQ_CST,        \
								      __ATOMIC_SEQ_CST));      \
			}                                                                      \
			if (fetch != NULL) {                                                   \
				memcpy(fetch, &old, sizeof old);                               \
				fetch += sizeof old;                                           \
			}                                                                      \
		}                                                                              \
	}

UPDATE_WORD(update_w64, word64)
UPDATE_WORD(update_w32, word32)
UPDATE_WORD(update_w16, word16)
UPDATE_WORD(update_w8, word8)

/* One element of `basic` from its layout at `elem` to packed bytes, and back: its runs
 * (a predefined type has one, or two for a pair with padding between value and int). */
static void load_elem(void *packed, const struct shl_datatype *basic, const char *elem)
{
	char *p = packed;

	for (size_t r = 0; r < basic->nruns; r++) {
		memcpy(p, elem + basic->runs[r].off, basic->runs[r].len);
		p += basic->runs[r].len;
	}
}

static void store_elem(char *elem, const struct shl_datatype *basic, const void *packed)
{
	const char *p = packed;

	for (size_t r = 0; r < basic->nruns; r++) {
		memcpy(elem + basic->runs[r].off, p, basic->runs[r].len);
		p += basic->runs[r].len;
	}
}

/* Whether `n` elements of `basic` at `dst`, and `n` packed ones at `src` (NULL: none),
 * can be handed to a kernel as they lie: packed (size is extent, a power of two) and both
 * at a multiple of the element's size (of 16 from 16 bytes), as the kernels' typed loops
 * assume. */
static inline bool kernel_in_place(const struct shl_datatype *basic, const char *dst,
				   const char *src)
{
	size_t size = basic->size, align = size < 16 ? size : 16;

	return (ptrdiff_t)size == basic->extent && (size & (size - 1)) == 0 &&
	       (((uintptr_t)dst | (uintptr_t)src) & (align - 1)) == 0;
}

/* One granule's part of a run under its stripe (held): `n` elements at `dst`, packed and
 * aligned for the kernel (kernel_in_place). The old values go out before the update. */
static void granule_packed(enum shl_op_kind op, shl_kern *k, size_t size, char *dst,
			   const char *src, char *fetch, size_t n)
{
	if (fetch != NULL)
		memcpy(fetch, dst, n * size);
	if (op == SHL_OP_REPLACE)
		memcpy(dst, src, n * size);
	else if (op != SHL_OP_NO_OP)
		k(src, dst, n);
}

/* One granule's part of a run under its stripe (held), element by element through aligned
 * copies: a pair with padding, an element off its alignment, or a source that is. */
static void granule_elems(enum shl_op_kind op, shl_kern *k, const struct shl_datatype *basic,
			  char *dst, const char *src, char *fetch, size_t n)
{
	size_t size = basic->size;

	for (size_t i = 0; i < n; i++, dst += basic->extent) {
		alignas(16) unsigned char old[SHL_RMA_ELEM_MAX], nw[SHL_RMA_ELEM_MAX];
		alignas(16) unsigned char v[SHL_RMA_ELEM_MAX];

		load_elem(old, basic, dst);
		if (op == SHL_OP_REPLACE) {
			store_elem(dst, basic, src + i * size);
		} else if (op != SHL_OP_NO_OP) {
			memcpy(v, src + i * size, size);
			memcpy(nw, old, size);
			k(v, nw, 1);
			store_elem(dst, basic, nw);
		}
		if (fetch != NULL)
			memcpy(fetch + i * size, old, size);
	}
}

/* shl_rma_atomic on elements no instruction updates: the run is cut at granule boundaries
 * (an element belongs to the granule its first byte is in), and each part is updated
 * under its granule's stripe, one stripe held at a time. */
static __attribute__((noinline)) void update_locked(enum shl_op_kind op, shl_kern *k,
						     const struct shl_datatype *basic, char *dst,
						     const char *src, char *fetch, size_t n)
{
	size_t size = basic->size, ext = (size_t)basic->extent;
	bool packed = kernel_in_place(basic, dst, src);

	while (n > 0) {
		uintptr_t g = granule_of(dst);
		/* Elements starting in granule g: those before its end. */
		size_t left = (size_t)((g + 1) * SHL_RMA_GRANULE - (uintptr_t)dst);
		size_t m = ext == 0 ? n : (left + ext - 1) / ext;
		pthread_mutex_t *mu = stripe_of(g);

		if (m > n)
			m = n;
		pthread_mutex_lock(mu);
		if (packed)
			granule_packed(op, k, size, dst, src, fetch, m);
		else
			granule_elems(op, k, basic, dst, src, fetch, m);
		pthread_mutex_unlock(mu);
		n -= m;
		dst += m * ext;
		if (src != NULL)
			src += m * size;
		if (fetch != NULL)
			fetch += m * size;
	}
}

/* shl_rma_atomic but for its first case. */
static __attribute__((noinline)) void update(enum shl_op_kind op, shl_kern *k,
					      const struct shl_datatype *basic, char *dst,
					      const void *src, void *fetch, size_t n)
{
	if (on_word(basic, dst)) {
		switch (basic->size) {
		case 8:
			update_w64(op, k, basic->arith, (word64 *)dst, src, fetch, n);
			return;
		case 4:
			update_w32(op, k, basic->arith, (word32 *)dst, src, fetch, n);
			return;
		case 2:
			update_w16(op, k, basic->arith, (word16 *)dst, src, fetch, n);
			return;
		case 1:
			update_w8(op, k, basic->arith, (word8 *)dst, src, fetch, n);
			return;
		}
	}
	update_locked(op, k, basic, dst, src, fetch, n);
}

/* `src` is not read for MPI_NO_OP (get-accumulate's callers pass NULL there). */
void shl_rma_atomic(enum shl_op_kind op, shl_kern *k, const struct shl_datatype *basic,
		    char *dst, const void *src, void *fetch, size_t n)
{
	/* MPI_Fetch_and_op's and a counter's accumulate: one integer of 8 or 4 bytes added. */
	if (op == SHL_OP_SUM && n == 1 && int_arith(basic->arith)) {
		if (basic->size == 8 && on_word(basic, dst)) {
			uint64_t v, old;
			memcpy(&v, src, sizeof v);
			old = __atomic_fetch_add((word64 *)dst, v, __ATOMIC_SEQ_CST);
			if (fetch != NULL)
				memcpy(fetch, &old, sizeof old);
			return;
		}
		if (basic->size == 4 && on_word(basic, dst)) {
			uint32_t v, old;
			memcpy(&v, src, sizeof v);
			old = __atomic_fetch_add((word32 *)dst, v, __ATOMIC_SEQ_CST);
			if (fetch != NULL)
				memcpy(fetch, &old, sizeof old);
			return;
		}
	}
	update(op, k, basic, dst, src, fetch, n);
}

/* cas_wN: shl_rma_cas on an aligned word of N bits. A failed exchange leaves the word's
 * value in `c`, a successful one leaves the expected value there: either way the old one. */
#define CAS_WORD(name, W)                                                                     \
	static inline void name(W *d, const void *src, const void *compare, void *old)        \
	{                                                                                     \
		W v, c;                                                                       \
		memcpy(&v, src, sizeof v);                                                    \
		memcpy(&c, compare, sizeof c);                                                \
		__atomic_compare_exchange_n(d, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
		memcpy(old, &c, sizeof c);                                                    \
	}

CAS_WORD(cas_w64, word64)
CAS_WORD(cas_w32, word32)
CAS_WORD(cas_w16, word16)
CAS_WORD(cas_w8, word8)

void shl_rma_cas(const struct shl_datatype *basic, char *dst, const void *src,
		 const void *compare, void *old)
{
	if (likely(on_word(basic, dst))) {
		switch (basic->size) {
		case 8:
			cas_w64((word64 *)dst, src, compare, old);
			return;
		case 4:
			cas_w32((word32 *)dst, src, compare, old);
			return;
		case 2:
			cas_w16((word16 *)dst, src, compare, old);
			return;
		case 1:
			cas_w8((word8 *)dst, src, compare, old);
			return;
		}
	}

	/* Under the stripe; `src` and `compare` are read before `old` is written, in case
	 * the caller's buffers meet. */
	alignas(16) unsigned char was[SHL_RMA_ELEM_MAX], v[SHL_RMA_ELEM_MAX];
	size_t size = basic->size;
	pthread_mutex_t *mu = stripe_of(granule_of(dst));
	bool same;

	memcpy(v, src, size);
	pthread_mutex_lock(mu);
	load_elem(was, basic, dst);
	same = memcmp(was, compare, size) == 0;
	if (same)
		store_elem(dst, basic, v);
	pthread_mutex_unlock(mu);
	memcpy(old, was, size);
}
