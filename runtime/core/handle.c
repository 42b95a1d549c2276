/* The handle arena: the memory of every object the library hands out as a handle, the
 * ranges the handle checks of core/handle.h look in, and the integers that name handles.
 * One process-wide struct (`arena`) under its own mutex; entered by any thread that
 * creates or frees a handle's object, or converts a handle. The arena is reserved once and
 * never unmapped or made inaccessible, so a check may read any slot start at any time.
 *
 * Handles as integers (MPI_Fint, 32 bits: MPI_Comm_c2f and its kin, and the Fortran
 * bindings to come). Every object a handle points to lies in one of three places, each
 * with a part of the int range:
 *   0                      the null handle of every kind (MPI_COMM_NULL, ...);
 *   1 .. 2^31-1            a slot of the arena: (size class + 1) << 26 | slot index in
 *                          its class's region (a region of 1 GiB holds at most 2^25
 *                          slots of the smallest class, so the index fits 26 bits);
 *   -1 .. -2^30            an object of the predefined section: -1 - its byte offset in
 *                          `shl_predef` (MPI_COMM_WORLD, MPI_INT, MPI_SUM, ...);
 *   -2^30-1 .. -2^31+1     the program's copy of a predefined object (a program linked
 *                          without -fPIC): -1 - 2^30 - its offset in the program's
 *                          writable data;
 *   -2^31                  SHL_HANDLE_INT_SPECIAL, which a kind may use (a request: the
 *                          calling rank's shared request for sends done at once).
 * An object keeps its integer for as long as it lives, and a handle converts back to the
 * very pointer it came from: MPI_COMM_WORLD and MPI_COMM_SELF, sentinels that each rank
 * maps to its own object, come back as the sentinels. Converting back checks the place
 * (a slot start of the kind's size class, a mapped byte of the section or the program's
 * data) and then the kind's magic, so an integer that names no live object of the kind
 * (a freed one, another kind's, a made-up number) gives the null handle. */
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include "runtime/core/handle.h"

/* Freed slots of a size wait in a queue until this many are waiting before one is reused:
 * a freed handle keeps failing validation (MPI_ERR_COMM, ...) until that many more objects
 * of its size were freed, instead of naming the next object created. It costs 8 KiB of
 * the smallest slots, 128 KiB of a datatype's or communicator's (512 bytes). */
#define SHL_HANDLE_QUARANTINE 256

/* A free slot: its magic 0, then the link of its size's queue. */
struct slot {
	uint32_t magic;
	struct slot *next;
};

/* How much of a region is mapped at a time (the last of a region is never split). */
#define GROW_BYTES ((size_t)1 << 20)

/* The allocator's state, all under `lock`. */
static struct {
	pthread_mutex_t lock;
	char *base;                   /* the reservation, or NULL before the first alloc */
	unsigned shift;               /* log2 of a region's bytes */
	bool failed;                  /* the reservation failed: every alloc returns NULL */
	struct {
		size_t used, mapped;  /* bytes of the region carved into slots, and mapped */
		struct slot *head, **tail;  /* freed slots, oldest first */
		size_t waiting;
	} cls[SHL_HANDLE_CLASSES];
} arena = { .lock = PTHREAD_MUTEX_INITIALIZER };

struct shl_handle_ranges shl_handle_ranges;

bool shl_handle_mapped_slow(const void *h, size_t size)
{
	uintptr_t p = (uintptr_t)h;

	if (p - (uintptr_t)__start_shl_predef <=
	    (uintptr_t)(__stop_shl_predef - __start_shl_predef) - size)
		return true;
	if (shl_handle_in_arena(h, size))
		return true;
	return shl_handle_ranges.prog_hi != 0 &&
	       p - shl_handle_ranges.prog_lo <=
		       shl_handle_ranges.prog_hi - shl_handle_ranges.prog_lo - size;
}

/* The writable span of the loaded object `info` that holds `addr`, or false. */
static bool writable_span(const struct dl_phdr_info *info, uintptr_t addr, uintptr_t *lo,
			  uintptr_t *hi)
{
	*lo = UINTPTR_MAX;
	*hi = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;
		if (a < *lo)
			*lo = a;
		if (a + ph->p_memsz > *hi)
			*hi = a + ph->p_memsz;
	}
	return *hi > *lo && (addr == 0 || (addr >= *lo && addr < *hi));
}

/* Each loaded object in turn, the program first: note the program's writable span, and
 * whether libmpi.so's own has SHL_HANDLE_READ_MAX bytes past the predefined section. */
static int note_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	int *seen = arg;
	uintptr_t lo, hi, stop = (uintptr_t)__stop_shl_predef;

	if ((*seen)++ == 0 && writable_span(info, 0, &lo, &hi)) {
		shl_handle_ranges.prog_lo = lo;
		shl_handle_ranges.prog_hi = hi;
	}
	if (writable_span(info, (uintptr_t)__start_shl_predef, &lo, &hi)) {
		/* Past the segment's end, its last page still is mapped. */
		hi = (hi + 4095) & ~(uintptr_t)4095;
		shl_handle_ranges.predef_span =
			stop + SHL_HANDLE_READ_MAX <= hi
				? stop - (uintptr_t)__start_shl_predef
				: stop - (uintptr_t)__start_shl_predef - SHL_HANDLE_READ_MAX;
		return 1;
	}
	return 0;
}

/* At load, before any rank. A program built without -fPIC has copies of the predefined
 * objects it names in its own data, which the relocations of libmpi.so point to too; its
 * writable segments are one span (PT_LOAD segments are laid out back to back). */
__attribute__((constructor)) static void find_ranges(void)
{
	int seen = 0;

	dl_iterate_phdr(note_object, &seen);
}

/* Lock held: reserve the arena, with regions as large as the address space allows. */
static bool reserve(void)
{
	void *p = MAP_FAILED;

	if (arena.base != NULL)
		return true;
	if (arena.failed)
		return false;
	for (arena.shift = SHL_HANDLE_REGION_SHIFT; p == MAP_FAILED; arena.shift--) {
		if (arena.shift < SHL_HANDLE_REGION_MIN_SHIFT) {
			arena.failed = true;
			return false;
		}
		p = mmap(NULL, (size_t)SHL_HANDLE_CLASSES << arena.shift, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	}
	arena.shift++;  /* the loop stepped past the size that fitted */
	arena.base = p;
	for (int c = 0; c < SHL_HANDLE_CLASSES; c++) {
		arena.cls[c].tail = &arena.cls[c].head;
		atomic_store_explicit(&shl_handle_ranges.region[c],
				      (uintptr_t)p + ((uintptr_t)c << arena.shift),
				      memory_order_relaxed);
	}
	return true;
}

/* Lock held: a new slot of class `c` carved from its region, or NULL when it is full. */
static void *carve(int c)
{
	size_t slot = (size_t)1 << (c + SHL_HANDLE_MIN_SHIFT);
	char *region = arena.base + ((size_t)c << arena.shift);

	if (arena.cls[c].used + slot > arena.cls[c].mapped) {
		size_t grow = slot > GROW_BYTES ? slot : GROW_BYTES;
		if (arena.cls[c].mapped + grow > ((size_t)1 << arena.shift) ||
		    mprotect(region + arena.cls[c].mapped, grow, PROT_READ | PROT_WRITE) != 0)
			return NULL;
		arena.cls[c].mapped += grow;
	}
	void *p = region + arena.cls[c].used;
	arena.cls[c].used += slot;
	/* release: a check that sees the new top sees the slot mapped. */
	atomic_store_explicit(&shl_handle_ranges.top[c], arena.cls[c].used, memory_order_release);
	return p;
}

void *shl_handle_alloc(size_t size)
{
	void *p = NULL;

	if (size > ((size_t)1 << SHL_HANDLE_MAX_SHIFT))
		return NULL;
	int c = (int)shl_handle_class(size);

	pthread_mutex_lock(&arena.lock);
	if (reserve()) {
		if (arena.cls[c].waiting > SHL_HANDLE_QUARANTINE) {
			struct slot *s = arena.cls[c].head;
			arena.cls[c].head = s->next;
			if (arena.cls[c].head == NULL)
				arena.cls[c].tail = &arena.cls[c].head;
			arena.cls[c].waiting--;
			p = s;
		} else {
			p = carve(c);
		}
	}
	pthread_mutex_unlock(&arena.lock);
	if (p != NULL)
		memset(p, 0, (size_t)1 << (c + SHL_HANDLE_MIN_SHIFT));
	return p;
}

void shl_handle_free(void *obj)
{
	struct slot *s = obj;

	if (s == NULL)
		return;
	int c = (int)(((uintptr_t)s - (uintptr_t)arena.base) >> arena.shift);

	s->magic = 0;  /* a stale handle fails validation from now on */
	pthread_mutex_lock(&arena.lock);
	s->next = NULL;
	*arena.cls[c].tail = s;
	arena.cls[c].tail = &s->next;
	arena.cls[c].waiting++;
	pthread_mutex_unlock(&arena.lock);
}

/* The part of the negative integers that names the predefined section. */
#define PREDEF_SPAN ((uintptr_t)1 << 30)
/* Bits of a slot index in a handle's integer. */
#define INDEX_BITS 26

int32_t shl_handle_to_int(const void *h)
{
	uintptr_t p = (uintptr_t)h;

	if (h == NULL)
		return 0;
	if (p - (uintptr_t)__start_shl_predef < (uintptr_t)(__stop_shl_predef - __start_shl_predef))
		return (int32_t)(-1 - (intptr_t)(p - (uintptr_t)__start_shl_predef));
	for (unsigned c = 0; c < SHL_HANDLE_CLASSES; c++) {
		unsigned shift = c + SHL_HANDLE_MIN_SHIFT;
		if (!shl_handle_in_arena(h, (size_t)1 << shift))
			continue;
		uintptr_t base = atomic_load_explicit(&shl_handle_ranges.region[c],
						      memory_order_relaxed);
		return (int32_t)(((uintptr_t)(c + 1) << INDEX_BITS) | ((p - base) >> shift));
	}
	uintptr_t off = p - shl_handle_ranges.prog_lo;
	if (shl_handle_ranges.prog_hi != 0 &&
	    off < shl_handle_ranges.prog_hi - shl_handle_ranges.prog_lo && off < PREDEF_SPAN - 1)
		return (int32_t)(-1 - (intptr_t)PREDEF_SPAN - (intptr_t)off);
	return 0;
}

void *shl_handle_from_int(int32_t f, size_t size, uint32_t magic)
{
	uintptr_t p;
	uint32_t m;

	if (f == 0 || f == SHL_HANDLE_INT_SPECIAL)
		return NULL;
	if (f > 0) {
		unsigned c = ((uint32_t)f >> INDEX_BITS) - 1;
		if (c >= SHL_HANDLE_CLASSES)
			return NULL;
		uintptr_t index = (uintptr_t)f & (((uintptr_t)1 << INDEX_BITS) - 1);
		p = atomic_load_explicit(&shl_handle_ranges.region[c], memory_order_relaxed) +
		    (index << (c + SHL_HANDLE_MIN_SHIFT));
		if (!shl_handle_in_arena((void *)p, size))
			return NULL;
	} else {
		uintptr_t off = (uintptr_t)(-1 - (intptr_t)f);
		if (off < PREDEF_SPAN) {
			p = (uintptr_t)__start_shl_predef + off;
			if (off + size > (uintptr_t)(__stop_shl_predef - __start_shl_predef))
				return NULL;
		} else {
			off -= PREDEF_SPAN;
			if (shl_handle_ranges.prog_hi == 0 ||
			    off + size > shl_handle_ranges.prog_hi - shl_handle_ranges.prog_lo)
				return NULL;
			p = shl_handle_ranges.prog_lo + off;
		}
	}
	memcpy(&m, (const void *)p, sizeof(m));
	return m == magic ? (void *)p : NULL;
}
