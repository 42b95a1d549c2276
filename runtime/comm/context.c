/* Context ids: which ids are in use on this node, the agreement on a fresh one for a
 * communicator of the node's ranks, and the reservations through which the leaders of a
 * communicator spanning nodes agree on one free on every node (coll/net_create.c). An id
 * tells a communicator's messages apart from every other's; `id | SHL_CTX_INTERNAL` is its
 * internal traffic. Entered by rank threads (the last arriver of a creation's meeting, the
 * leaders' rounds, the last free of a shared object) and the completion thread
 * (shl_ctx_in_use); shl_ctx_init by the node's main thread before ranks run. Must not hold
 * its lock across anything but the bitmap. */
#include <errno.h>

#include "runtime/comm/internal.h"

/* Process-wide: the ids in use on this node. */
static struct {
	pthread_mutex_t lock;            /* guards `next` and `bits` */
	uint32_t next;                   /* where the search starts: a freed id returns late */
	uint64_t bits[SHL_CTX_MAX / 64]; /* bit i set: context id i in use */
} comms = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void ctx_mark(uint32_t id)
{
	comms.bits[id / 64] |= 1ull << (id % 64);
}

int shl_ctx_agree(uint32_t *ctx)
{
	int rc = -ENOSPC;

	/* The node's members only: the node-wide bitmap is the whole agreement. Across
	 * nodes, the leaders agree on an id free on every node (coll/net_create.c). */
	pthread_mutex_lock(&comms.lock);
	for (uint32_t i = 0; i < SHL_CTX_MAX; i++) {
		uint32_t id = (comms.next + i) % SHL_CTX_MAX;
		if (comms.bits[id / 64] & (1ull << (id % 64)))
			continue;
		ctx_mark(id);
		comms.next = (id + 1) % SHL_CTX_MAX;
		*ctx = id;
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&comms.lock);
	return rc;
}

static void ctx_release(uint32_t id)
{
	pthread_mutex_lock(&comms.lock);
	comms.bits[id / 64] &= ~(1ull << (id % 64));
	pthread_mutex_unlock(&comms.lock);
}

uint32_t shl_ctx_lowest_free(void)
{
	uint32_t id = SHL_CTX_MAX;

	pthread_mutex_lock(&comms.lock);
	for (uint32_t w = 0; w < SHL_CTX_MAX / 64 && id == SHL_CTX_MAX; w++)
		if (~comms.bits[w] != 0)
			id = w * 64 + (uint32_t)__builtin_ctzll(~comms.bits[w]);
	pthread_mutex_unlock(&comms.lock);
	return id;
}

bool shl_ctx_in_use(uint32_t id)
{
	bool used;

	pthread_mutex_lock(&comms.lock);
	used = id < SHL_CTX_MAX && (comms.bits[id / 64] & (1ull << (id % 64)));
	pthread_mutex_unlock(&comms.lock);
	return used;
}

void shl_ctx_reserve(uint32_t base, uint64_t mask[4])
{
	pthread_mutex_lock(&comms.lock);
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t id = base + i;
		if (id < SHL_CTX_MAX && !(comms.bits[id / 64] & (1ull << (id % 64)))) {
			ctx_mark(id);
			mask[i / 64] |= 1ull << (i % 64);
		}
	}
	pthread_mutex_unlock(&comms.lock);
}

void shl_ctx_unmark(uint32_t id)
{
	ctx_release(id);
}

void shl_ctx_init(void)
{
	ctx_mark(SHL_CTX_WORLD);
	ctx_mark(SHL_CTX_SELF);
}
