/* The shared-copy engine: a large copy (or any work) cut in numbered chunks that several
 * threads make at once, each chunk exactly once, so that one transfer's memory traffic
 * spreads over the cores of the ranks that wait for it. A point-to-point receiver shares its
 * copy with the waiting sender (p2p/split.c); a collective's last arriver shares its run's
 * copies and fold with the members blocked in its meeting (coll/share.c).
 *
 * Entered by any rank thread that takes part: the one that offers the chunks (and must then
 * finish them, shl_share_finish) and helpers that reach them through their own layer's
 * publication. Must not allocate, lock or sleep: a helper may be anywhere in a wait, and an
 * offered chunk must always be taken by someone. */
#ifndef SHL_RUNTIME_DATATYPE_SHARE_H
#define SHL_RUNTIME_DATATYPE_SHARE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct shl_datatype;

/* Chunks 0..n-1 of one job. Chunks not handed out yet are [front, end): takers from the
 * front and from the back meet in the middle, so across the messages of a stream each side
 * of a two-party copy tends to copy the same half of the buffers and keeps it in its own
 * cache. Whoever offers the chunks publishes the struct with a release (or stronger) store
 * after shl_share_offer; takers read it after the matching acquire. */
struct shl_share {
	_Atomic uint64_t claim;      /* front in the low 32 bits, end in the high 32 */
	_Atomic uint32_t done;       /* chunks made */
	uint32_t n;                  /* chunks in all */
};

/* Offerer, before publishing `s`: chunks 0..n-1, none taken. */
static inline void shl_share_offer(struct shl_share *s, uint32_t n)
{
	s->n = n;
	atomic_store_explicit(&s->claim, (uint64_t)n << 32, memory_order_relaxed);
	atomic_store_explicit(&s->done, 0, memory_order_relaxed);
}

/* Any taker: hand out one chunk, the first left if `back` is false, else the last, in *i;
 * false when none is left. A taker that finds none left changes nothing, so helpers that
 * keep asking while they wait never wrap the count. */
static inline bool shl_share_claim(struct shl_share *s, bool back, uint32_t *i)
{
	uint64_t c = atomic_load_explicit(&s->claim, memory_order_relaxed);

	if ((uint32_t)c >= (uint32_t)(c >> 32))
		return false;
	if (!back) {
		/* Front takers move `front` by one each; one that overshoots (the last chunk
		 * went meanwhile) finds front >= end in the value it added to. */
		c = atomic_fetch_add_explicit(&s->claim, 1, memory_order_relaxed);
		*i = (uint32_t)c;
		return (uint32_t)c < (uint32_t)(c >> 32);
	}
	do {
		if ((uint32_t)c >= (uint32_t)(c >> 32))
			return false;
		*i = (uint32_t)(c >> 32) - 1;
	} while (!atomic_compare_exchange_weak_explicit(&s->claim, &c, c - (UINT64_C(1) << 32),
							memory_order_relaxed,
							memory_order_relaxed));
	return true;
}

/* Any taker, once chunk it claimed is made: count it (release: pairs with the acquire load
 * of shl_share_finish, so the chunk's bytes are visible to the offerer). */
static inline void shl_share_made(struct shl_share *s)
{
	atomic_fetch_add_explicit(&s->done, 1, memory_order_release);
}

/* Any taker: make chunks of `s` while some are left, from the front or the back;
 * `make(arg, i)` makes chunk i. Inline, so a caller's `make` is called directly. */
static inline void shl_share_take(struct shl_share *s, bool back,
				  void (*make)(void *arg, uint32_t i), void *arg)
{
	uint32_t i;

	while (shl_share_claim(s, back, &i)) {
		make(arg, i);
		shl_share_made(s);
	}
}

/* The offerer, after taking chunks itself until none was left: wait until every chunk is
 * made. Takers are finishing their last chunk; one preempted mid-chunk (ranks outnumber
 * cores) gets the core. */
void shl_share_finish(const struct shl_share *s);

/* How many chunks of `chunk` bytes cut `bytes` (the last may be shorter). */
static inline uint32_t shl_share_chunks(size_t bytes, size_t chunk)
{
	return (uint32_t)((bytes + chunk - 1) / chunk);
}

/* One typed copy: `bytes` of signature from (src, stype) into (dst, dtype). A NULL type is
 * dense bytes; both types stay alive while the copy is shared. */
struct shl_share_copy {
	void *dst;
	const struct shl_datatype *dtype;
	const void *src;
	const struct shl_datatype *stype;
	size_t bytes;
};

/* Make chunk `i` of copy `c` cut in chunks of `chunk` bytes of signature: a memcpy when
 * both sides are dense, else that range of the typed copy (shl_dt_copy_range). */
void shl_share_copy_chunk(const struct shl_share_copy *c, size_t chunk, uint32_t i);

#endif
