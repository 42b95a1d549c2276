/* inbox_keeps_each_pushers_order_across_threads: three pusher threads, as three ranks of a
 * node, push envelopes from their own pools into one owner's inbox (two lanes) while the
 * owner pops them, checks each pusher's order and payload, and gives each envelope back
 * as the runtime does (kept in its own pool, or returned to the pusher's in a chain), so
 * that pushers reuse envelopes the owner touched. Built with ThreadSanitizer by make
 * test-san, which must report no race. Standalone: the queues' code without the node.
 *
 * liburcu's wait-free queue (urcu/static/wfcqueue.h, 0.13) orders a push before its pop
 * with x86 inline assembly, which ThreadSanitizer cannot see. Its own accesses are
 * suppressed (tests/san/tsan.supp) and this program states the order it guarantees (a full
 * barrier in the push, paired with the pop) with __tsan_release/__tsan_acquire on the
 * envelope; everything Shoal's own code does around it is checked. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queues/queues.c"

#define PUSHERS 3
#define LANES 2
#define PER_PUSHER 20000

/* ThreadSanitizer's annotations (libtsan): a happens-before edge from a release to a later
 * acquire of the same address. */
void __tsan_release(void *addr);
void __tsan_acquire(void *addr);

struct payload {
	int pusher;
	long seq;
	unsigned char fill[64];
};

static struct shl_inbox inbox;
static struct shl_pool owner_pool, pusher_pool[PUSHERS];

static void fail(const char *what, int pusher, long seq)
{
	fprintf(stderr, "inbox: %s (pusher %d, message %ld)\n", what, pusher, seq);
	exit(1);
}

static void *push(void *arg)
{
	int id = (int)(intptr_t)arg;
	struct shl_pool *pool = &pusher_pool[id];

	for (long seq = 0; seq < PER_PUSHER; seq++) {
		struct shl_envelope *env = shl_pool_get(pool, SHL_Q_CHUNK_NONE);
		struct payload p = { .pusher = id, .seq = seq };

		if (env == NULL)
			fail("no envelope", id, seq);
		memset(p.fill, (int)(seq & 0xff), sizeof(p.fill));
		env->cookie = NULL;
		env->bytes = sizeof(p);
		env->src = id;
		env->tag = (int32_t)seq;
		env->payload = SHL_Q_INLINE;
		memcpy(env->inline_data, &p, sizeof(p));
		__tsan_release(env);
		shl_inbox_push(&inbox, id % LANES, env);
		if (seq % 64 == 0)
			sched_yield();
	}
	return NULL;
}

int main(void)
{
	pthread_t t[PUSHERS];
	long next[PUSHERS] = { 0 }, got = 0;

	shl_inbox_init(&inbox, LANES);
	shl_pool_init(&owner_pool);
	for (int i = 0; i < PUSHERS; i++)
		shl_pool_init(&pusher_pool[i]);
	for (int i = 0; i < PUSHERS; i++)
		if (pthread_create(&t[i], NULL, push, (void *)(intptr_t)i))
			fail("pthread_create", i, -1);

	while (got < (long)PUSHERS * PER_PUSHER) {
		bool any = false;
		for (int lane = 0; lane < LANES; lane++) {
			struct shl_envelope *env;
			shl_inbox_prefetch(&inbox, lane);
			while ((env = shl_inbox_pop(&inbox, lane)) != NULL) {
				struct payload p;
				__tsan_acquire(env);
				memcpy(&p, shl_envelope_payload(env), sizeof(p));
				if (p.pusher < 0 || p.pusher >= PUSHERS || env->src != p.pusher)
					fail("wrong pusher", p.pusher, p.seq);
				if (p.seq != next[p.pusher] || env->tag != (int32_t)p.seq)
					fail("out of order", p.pusher, p.seq);
				for (size_t i = 0; i < sizeof(p.fill); i++)
					if (p.fill[i] != (unsigned char)(p.seq & 0xff))
						fail("wrong payload", p.pusher, p.seq);
				next[p.pusher]++;
				got++;
				any = true;
				/* Back as the runtime gives it: every other one at once, the
				 * rest kept or chained back (shl_pool_keep, shl_pool_flush). */
				if (got % 2)
					shl_pool_put(env);
				else
					shl_pool_keep(&owner_pool, env);
			}
		}
		if (owner_pool.back != NULL)
			shl_pool_flush(&owner_pool);
		if (!any)
			sched_yield();  /* a push still being linked is popped on a later pass */
	}
	for (int i = 0; i < PUSHERS; i++)
		pthread_join(t[i], NULL);
	if (!shl_inbox_empty(&inbox))
		fail("inbox not empty at the end", -1, -1);
	printf("inbox: %ld envelopes from %d pushers in order\n", got, PUSHERS);
	return 0;
}
