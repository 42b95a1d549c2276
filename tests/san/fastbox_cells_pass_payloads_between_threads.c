/* fastbox_cells_pass_payloads_between_threads: two threads, as two ranks of a node, pass
 * messages through fastboxes (queues/queues.h): a stream one way that fills the ring, then
 * a ping-pong whose acks start new laps; payloads of 0 to SHL_Q_FBOX_MAX bytes (one to three
 * cells) and envelopes carried in cells, which the receiver gives back to the sender's pool.
 * Every message arrives once, in order, with its bytes. Built with ThreadSanitizer by
 * make test-san, which must report no race: the release/acquire pairs of the cells' `seq`,
 * the box's `tail` and the pool's returned stack order every payload and envelope.
 * Standalone: the queues' code without the node. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queues/queues.c"

#define STREAM 100000  /* messages of the one-way stream */
#define ROUNDS 20000   /* round trips of the ping-pong */
#define ENVELOPE_EVERY 7  /* every 7th message is an envelope in a cell */

struct side {
	int id;
	struct shl_fbox *out;   /* box to the other thread */
	struct shl_fbox *in;    /* box from it (the ping-pong only) */
	struct shl_pool pool;   /* envelopes this side sends */
};

static void fail(const char *what, long seq)
{
	fprintf(stderr, "fastbox: %s (message %ld)\n", what, seq);
	exit(1);
}

static unsigned char byte_of(long seq, size_t i)
{
	return (unsigned char)(seq * 31 + (long)i);
}

static uint32_t size_of(long seq)
{
	return (uint32_t)(seq % (SHL_Q_FBOX_MAX + 1));
}

/* Send message `seq` from `s` (payload or, every ENVELOPE_EVERY, an envelope). */
static void send_one(struct side *s, long seq)
{
	unsigned char payload[SHL_Q_FBOX_MAX];
	bool envelope = seq % ENVELOPE_EVERY == 0;
	uint32_t bytes = envelope ? SHL_Q_FBOX_ENVELOPE : size_of(seq);
	unsigned cells = shl_fbox_cells(bytes);
	struct shl_fbox_cell *cell;

	while ((cell = shl_fbox_reserve(s->out, cells)) == NULL)
		sched_yield();
	/* As the runtime does: how far we have read the box back, when there is one. */
	cell->ack = s->in != NULL ? s->in->next : UINT64_MAX;
	cell->bytes = bytes;
	cell->context = 1;
	cell->src = s->id;
	cell->tag = (int32_t)seq;
	if (envelope) {
		struct shl_envelope *env = shl_pool_get(&s->pool, SHL_Q_CHUNK_NONE);
		if (env == NULL)
			fail("no envelope", seq);
		env->cookie = NULL;
		env->bytes = sizeof(seq);
		env->tag = (int32_t)seq;
		env->payload = SHL_Q_INLINE;
		memcpy(env->inline_data, &seq, sizeof(seq));
		cell->env = env;
	} else {
		for (uint32_t i = 0; i < bytes; i++)
			payload[i] = byte_of(seq, i);
		if (cells == 1)
			memcpy(cell->data, payload, bytes);
		else
			shl_fbox_fill(s->out, cell, payload, bytes);
	}
	shl_fbox_publish(s->out, cell, cells, seq % 2 == 0);
}

/* Receive message `seq` from box `in`, check it, give back what it carried. */
static void receive_one(struct shl_fbox *in, int from, long seq)
{
	unsigned char payload[SHL_Q_FBOX_MAX];
	struct shl_fbox_cell *cell;

	while ((cell = shl_fbox_peek(in)) == NULL)
		sched_yield();
	if (cell->src != from || cell->tag != (int32_t)seq || cell->context != 1)
		fail("wrong header", seq);
	if (cell->bytes == SHL_Q_FBOX_ENVELOPE) {
		struct shl_envelope *env = cell->env;
		long got;
		if (seq % ENVELOPE_EVERY != 0 || env->tag != (int32_t)seq)
			fail("unexpected envelope", seq);
		memcpy(&got, shl_envelope_payload(env), sizeof(got));
		if (got != seq)
			fail("wrong envelope payload", seq);
		shl_pool_put(env);
	} else {
		uint32_t bytes = cell->bytes;
		if (bytes != size_of(seq))
			fail("wrong size", seq);
		if (bytes <= SHL_Q_FBOX_HEAD)
			memcpy(payload, cell->data, bytes);
		else
			shl_fbox_copy_out(in, cell, payload, bytes);
		for (uint32_t i = 0; i < bytes; i++)
			if (payload[i] != byte_of(seq, i))
				fail("wrong payload byte", seq);
	}
	shl_fbox_take(in, cell);
}

static struct side a = { .id = 0 }, b = { .id = 1 };

static void *stream_sender(void *arg)
{
	for (long seq = 0; seq < STREAM; seq++)
		send_one(&a, seq);
	return arg;
}

static void *stream_receiver(void *arg)
{
	for (long seq = 0; seq < STREAM; seq++)
		receive_one(b.in, 0, seq);
	return arg;
}

static void *ping(void *arg)
{
	for (long seq = 0; seq < ROUNDS; seq++) {
		send_one(&a, seq);
		receive_one(a.in, 1, seq);
	}
	return arg;
}

static void *pong(void *arg)
{
	for (long seq = 0; seq < ROUNDS; seq++) {
		receive_one(b.in, 0, seq);
		send_one(&b, seq);
	}
	return arg;
}

/* Run `fa` and `fb` on two threads and wait for both. */
static void pair(void *(*fa)(void *), void *(*fb)(void *))
{
	pthread_t ta, tb;

	if (pthread_create(&ta, NULL, fa, NULL) || pthread_create(&tb, NULL, fb, NULL))
		fail("pthread_create", -1);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
}

int main(void)
{
	static struct shl_fbox_set to_a, to_b, to_b2;

	shl_pool_init(&a.pool);
	shl_pool_init(&b.pool);

	/* A stream from a to b: the sender runs ahead until the ring is full. */
	if (shl_fbox_set_init(&to_b, 1) < 0 || (a.out = shl_fbox_open(&to_b, 1, 0)) == NULL)
		fail("no box", -1);
	b.in = shl_fbox_at(&to_b, 0);
	pair(stream_sender, stream_receiver);

	/* A ping-pong on fresh boxes linked both ways, as the runtime links them (fbox_ack). */
	if (shl_fbox_set_init(&to_b2, 1) < 0 || shl_fbox_set_init(&to_a, 1) < 0 ||
	    (a.out = shl_fbox_open(&to_b2, 1, 0)) == NULL ||
	    (b.out = shl_fbox_open(&to_a, 1, 1)) == NULL)
		fail("no box", -1);
	a.in = b.out;
	b.in = a.out;
	a.out->back_in = b.out;
	b.out->back_out = a.out;
	b.out->back_in = a.out;
	a.out->back_out = b.out;
	pair(ping, pong);
	printf("fastbox: %d streamed, %d round trips\n", STREAM, ROUNDS);
	return 0;
}
