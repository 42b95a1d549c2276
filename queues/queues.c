/* Envelope pools, inbox set-up and fastbox creation. shl_pool_get runs in the owning rank's
 * thread (one at a time); shl_pool_put and shl_fbox_open in any thread. Pools and boxes only
 * grow: their memory is never freed, so a late reader (a sender cancelling) always touches
 * valid memory. */
#include <stdlib.h>
#include <string.h>

#include "queues/queues.h"

/* Envelopes allocated together when a pool runs dry: 32 × 320 B = 10 KiB, small enough
 * that 1024 idle ranks cost 10 MiB. */
#define SHL_Q_BATCH 32

void shl_pool_init_sized(struct shl_pool *pool, size_t chunk_bytes)
{
	for (int k = 0; k < SHL_Q_CHUNK_KINDS; k++)
		pool->free[k] = NULL;
	pool->chunk_bytes = chunk_bytes;
	pool->adopted = 0;
	pool->back_n = 0;
	pool->back = NULL;
	pool->back_last = NULL;
	atomic_init(&pool->returned, NULL);
}

void shl_pool_init(struct shl_pool *pool)
{
	shl_pool_init_sized(pool, SHL_Q_MEDIUM_MAX);
}

void shl_inbox_init(struct shl_inbox *inbox, int lanes)
{
	inbox->lanes = lanes;
	for (int i = 0; i < SHL_Q_LANES; i++) {
		struct shl_inbox_lane *l = &inbox->lane[i];

		__cds_wfcq_init(&l->head, &l->tail);
		l->popped = 0;
		atomic_init(&l->pushed, 0);
	}
}

/* Move every returned envelope back to the owner's free lists. */
static void reclaim(struct shl_pool *pool)
{
	struct shl_envelope *env = atomic_exchange_explicit(&pool->returned, NULL,
							     memory_order_acquire);

	while (env != NULL) {
		struct shl_envelope *next = env->next;
		struct shl_envelope **list = &pool->free[env->chunk_kind];

		/* Its header line only: `next` is there too. */
		env->next = *list;
		*list = env;
		env = next;
	}
}

/* Any thread: push the chain first..last (linked by `next`) onto `pool`'s returned stack. */
static void give_back(struct shl_pool *pool, struct shl_envelope *first,
		      struct shl_envelope *last)
{
	struct shl_envelope *top = atomic_load_explicit(&pool->returned, memory_order_relaxed);

	do
		last->next = top;
	while (!atomic_compare_exchange_weak_explicit(&pool->returned, &top, first,
						      memory_order_release, memory_order_relaxed));
}

static int grow(struct shl_pool *pool, enum shl_q_chunk kind)
{
	struct shl_envelope *batch = aligned_alloc(64, SHL_Q_BATCH * sizeof(*batch));
	size_t bytes = kind == SHL_Q_CHUNK_MEDIUM ? pool->chunk_bytes : SHL_Q_PACKED_MAX;

	if (batch == NULL)
		return -1;
	for (int i = 0; i < SHL_Q_BATCH; i++) {
		struct shl_envelope *env = &batch[i];

		env->pool = pool;
		env->chunk_kind = (uint8_t)kind;
		env->chunk = NULL;
		if (kind != SHL_Q_CHUNK_NONE && (env->chunk = malloc(bytes)) == NULL)
			return i == 0 ? -1 : 0;
		env->next = pool->free[kind];
		pool->free[kind] = env;
	}
	return 0;
}

int shl_pool_prefill(struct shl_pool *pool, unsigned n)
{
	for (unsigned have = 0; have < n; have += SHL_Q_BATCH)
		if (grow(pool, SHL_Q_CHUNK_NONE) < 0)
			return -1;
	return 0;
}

struct shl_envelope *shl_pool_refill(struct shl_pool *pool, enum shl_q_chunk kind)
{
	reclaim(pool);
	if (pool->free[kind] == NULL && grow(pool, kind) < 0)
		return NULL;
	return shl_pool_get(pool, kind);
}

void shl_pool_put(struct shl_envelope *env)
{
	give_back(env->pool, env, env);
}

void shl_pool_flush(struct shl_pool *pool)
{
	give_back(pool->back->pool, pool->back, pool->back_last);
	pool->back = NULL;
	pool->back_n = 0;
}

int shl_pool_give_chunk(struct shl_pool *pool, struct shl_envelope *env)
{
	/* No reclaim here: `env` may be in the return queue already (its receiver matched
	 * it meanwhile), and must not reach a free list before its sender is done with it. */
	struct shl_envelope *donor = pool->free[SHL_Q_CHUNK_MEDIUM];

	if (donor != NULL) {
		/* The chunk of a free medium envelope, which becomes a small one. */
		pool->free[SHL_Q_CHUNK_MEDIUM] = donor->next;
		env->chunk = donor->chunk;
		donor->chunk = NULL;
		donor->chunk_kind = SHL_Q_CHUNK_NONE;
		donor->next = pool->free[SHL_Q_CHUNK_NONE];
		pool->free[SHL_Q_CHUNK_NONE] = donor;
	} else if ((env->chunk = malloc(pool->chunk_bytes)) == NULL) {
		return -1;
	}
	env->chunk_kind = SHL_Q_CHUNK_MEDIUM;
	return 0;
}

int shl_fbox_set_init(struct shl_fbox_set *set, int limit)
{
	size_t bytes = (size_t)limit * sizeof(*set->mem);

	if (limit == 0)
		return 0;
	set->mem = aligned_alloc(128, bytes);
	if (set->mem == NULL)
		return -1;
	memset(set->mem, 0, bytes);
	return 0;
}

struct shl_fbox *shl_fbox_open(struct shl_fbox_set *set, int limit, int sender)
{
	int slot;
	struct shl_fbox *fb;

	if (set->mem == NULL)
		return NULL;
	slot = atomic_fetch_add_explicit(&set->claimed, 1, memory_order_relaxed);
	if (slot >= limit)
		return NULL;
	fb = &set->mem[slot];
	fb->sender = sender;
	/* Pairs with the acquire load in shl_fbox_at. */
	atomic_store_explicit(&set->box[slot], fb, memory_order_release);
	return fb;
}
