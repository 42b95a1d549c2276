/* Handles: every MPI handle is a pointer to one of our objects, which starts with a 32-bit
 * magic number that validation compares. Before that load, a handle must be known to point
 * at memory that stays mapped, so that a garbage value (an int handle of another MPI, two
 * ints read as one pointer, a random word, a freed object) fails validation instead of
 * faulting or reading freed heap:
 *   - the predefined objects (MPI_COMM_WORLD, MPI_INT, MPI_SUM, ...) live in one section of
 *     libmpi.so, `shl_predef` (SHL_HANDLE_PREDEF): one range compare;
 *   - every object the library creates for a handle (communicators, datatypes, requests,
 *     operations, groups, info, error handlers) is a slot of the handle arena, an address
 *     range reserved once and never unmapped (core/handle.c): a range and an alignment
 *     compare. A freed slot keeps its memory with the magic cleared, and waits in a queue
 *     before reuse, so a freed handle fails validation for a while and never reads freed
 *     heap;
 *   - a program linked without -fPIC may hold copies of the predefined objects in its own
 *     data (copy relocations): its writable segments, found at start-up, are the last
 *     range tried.
 * Entered by any thread; the arena's allocation is serialized by its own lock, and the
 * checks take no lock. */
#ifndef SHL_RUNTIME_HANDLE_H
#define SHL_RUNTIME_HANDLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The predefined objects' section (for libmpi.so's own definitions only). */
#define SHL_HANDLE_PREDEF __attribute__((section("shl_predef")))

/* The arena: one reservation of address space (PROT_NONE until used; no memory is
 * committed for it) cut into one region per slot size, a power of two from 32 bytes to
 * 64 KiB. A region holds only slots of its size, so whether a pointer starts a slot is a
 * range and an alignment compare, and a kind's region is known when its object's size is
 * (a constant in every check). A region is 1 GiB (SHL_HANDLE_REGION_SHIFT), which holds
 * about 4 million requests (256 bytes) or 2 million datatypes or communicators (512) alive
 * at once; where the address space is limited (RLIMIT_AS) it is halved until the
 * reservation fits, down to 16 MiB. */
#define SHL_HANDLE_MIN_SHIFT 5
#define SHL_HANDLE_MAX_SHIFT 16
#define SHL_HANDLE_CLASSES (SHL_HANDLE_MAX_SHIFT - SHL_HANDLE_MIN_SHIFT + 1)
#define SHL_HANDLE_REGION_SHIFT 30
#define SHL_HANDLE_REGION_MIN_SHIFT 24

/* Where the checks look; written by core/handle.c. A region's `top` is release-stored
 * after the memory below it is mapped and `region` written; the checks acquire it first.
 * `predef_span` is set at load, before any rank runs. */
struct shl_handle_ranges {
	_Atomic uintptr_t region[SHL_HANDLE_CLASSES];  /* each region's first byte */
	_Atomic uintptr_t top[SHL_HANDLE_CLASSES];  /* bytes of each region in use (0: none) */
	uintptr_t predef_span;        /* a pointer below __start_shl_predef + predef_span may
				       * be read as any handle object (0 until known) */
	uintptr_t prog_lo, prog_hi;   /* the program's writable segments, or 0, 0 */
};
/* The largest object a handle check reads (a datatype: 376 bytes); predef_span counts on
 * that many bytes past the section being mapped. */
#define SHL_HANDLE_READ_MAX 512
extern struct shl_handle_ranges shl_handle_ranges __attribute__((visibility("hidden")));
extern char __start_shl_predef[] __attribute__((visibility("hidden")));
extern char __stop_shl_predef[] __attribute__((visibility("hidden")));

/* The slot size class of an object of `size` bytes (at most 64 KiB): a constant when
 * `size` is. */
static inline unsigned shl_handle_class(size_t size)
{
	return size <= ((size_t)1 << SHL_HANDLE_MIN_SHIFT)
		       ? 0
		       : (unsigned)(64 - __builtin_clzll(size - 1)) - SHL_HANDLE_MIN_SHIFT;
}

/* shl_handle_mapped's other cases, out of line. */
bool shl_handle_mapped_slow(const void *h, size_t size);

/* Whether `h` is the start of a slot (live or freed) for objects of `size` bytes. */
static inline bool shl_handle_in_arena(const void *h, size_t size)
{
	unsigned c = shl_handle_class(size);
	uintptr_t top = atomic_load_explicit(&shl_handle_ranges.top[c], memory_order_acquire);
	uintptr_t off = (uintptr_t)h -
			atomic_load_explicit(&shl_handle_ranges.region[c], memory_order_relaxed);

	return off < top &&
	       (off & (((uintptr_t)1 << (c + SHL_HANDLE_MIN_SHIFT)) - 1)) == 0;
}

/* Whether `h` may be read as an object of `size` bytes (at most SHL_HANDLE_READ_MAX): in
 * the predefined section, a slot of the arena for its size, or (copy relocations) in the
 * program's writable data. The common case first and inline, a subtraction and a compare:
 * every MPI call asks (figures: docs/performance.md, "Handle checks"). */
static inline bool shl_handle_mapped(const void *h, size_t size)
{
	uintptr_t p = (uintptr_t)h;

	if (__builtin_expect(p - (uintptr_t)__start_shl_predef < shl_handle_ranges.predef_span, 1))
		return true;
	return shl_handle_mapped_slow(h, size);
}

/* A zeroed slot of at least `size` bytes (at most 64 KiB) for an object whose first field is
 * its 32-bit magic, or NULL when the arena is exhausted or memory is short. Any thread. */
void *shl_handle_alloc(size_t size);

/* Give `obj`'s slot back (NULL: nothing): its magic becomes 0 at once, and the slot is
 * reused only after many other frees of its size. Any thread. */
void shl_handle_free(void *obj);

/* Handles as 32-bit integers, for MPI_*_c2f and MPI_*_f2c (core/handle.c's opening says
 * how they are encoded): 0 is the null handle, and every object of the predefined section,
 * the program's copies of them and the arena has a value of its own, the same for as long
 * as the object lives. SHL_HANDLE_INT_SPECIAL is none of them: a kind may give it a
 * meaning of its own. */
#define SHL_HANDLE_INT_SPECIAL INT32_MIN
/* The integer of handle `h`; 0 for NULL and for a pointer that is no handle's object. */
int32_t shl_handle_to_int(const void *h);
/* The object of `size` bytes whose first field is `magic` that integer `f` names, or NULL
 * (f is 0, names no mapped object, or its object is not of that kind or is freed). */
void *shl_handle_from_int(int32_t f, size_t size, uint32_t magic);

#endif
