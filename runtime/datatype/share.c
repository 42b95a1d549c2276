/* The shared-copy engine's out-of-line half (datatype/share.h): the offerer's wait for the
 * last chunks, and the making of one chunk of a typed copy. Entered by the rank threads
 * that take part in a shared copy. Must not allocate, lock or sleep. */
#include <sched.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/datatype/share.h"

/* Pauses the offerer spends waiting for a taker's last chunk before yielding: a 64 KiB
 * chunk copies in about 3 µs, some 100 pauses. */
#define SHL_SHARE_SPINS 1000

void shl_share_finish(const struct shl_share *s)
{
	for (unsigned spins = 0; atomic_load_explicit(&s->done, memory_order_acquire) < s->n;
	     spins++) {
		if (spins < SHL_SHARE_SPINS)
			__builtin_ia32_pause();
		else
			sched_yield();
	}
}

void shl_share_copy_chunk(const struct shl_share_copy *c, size_t chunk, uint32_t i)
{
	size_t off = (size_t)i * chunk;
	size_t len = c->bytes - off < chunk ? c->bytes - off : chunk;

	if ((c->dtype == NULL || c->dtype->contig) && (c->stype == NULL || c->stype->contig))
		memcpy((char *)c->dst + off, (const char *)c->src + off, len);
	else
		shl_dt_copy_range(c->dst, c->dtype, c->src, c->stype, off, len);
}
