/* Envelopes, per-rank envelope pools and per-rank inboxes: the only way bytes and
 * descriptors move between ranks of one node process. Any thread may push into any inbox
 * or return an envelope to any pool; only the owning rank (one thread at a time) pops its
 * inbox or takes from its pool. Knows no MPI types; never blocks, never allocates on a push. */
#ifndef SHL_QUEUES_H
#define SHL_QUEUES_H

#define _LGPL_SOURCE
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <urcu/wfcqueue.h>

/* Payload bytes carried inside an envelope. 224 makes the envelope 320 bytes (5 cache
 * lines); the small/medium switch point is tuned by SHOAL_INLINE_MAX up to this size. */
#define SHL_Q_INLINE_MAX 224
/* Payload bytes of a pooled medium buffer; tunable down by SHOAL_MEDIUM_MAX. */
#define SHL_Q_MEDIUM_MAX (16 * 1024)

/* How the receiver finds the payload. */
enum shl_q_payload {
	SHL_Q_INLINE,  /* in env->inline_data, packed */
	SHL_Q_POOLED,  /* in env->chunk, packed */
	SHL_Q_DIRECT,  /* in the sender's buffer, in the sender's layout (env->layout) */
};

/* Envelope state; matters only for envelopes with a cookie (the sender waits for them). */
enum shl_q_state {
	SHL_Q_PENDING = 0,
	SHL_Q_MATCHED,    /* a receive (or Mprobe) claimed it: the send can no longer be cancelled */
	SHL_Q_CANCELLED,  /* the sender cancelled it: the receiver discards it */
};

struct shl_pool;

struct shl_envelope {
	struct cds_wfcq_node link;   /* in an inbox or in a pool's return queue, one at a time */
	struct shl_envelope *next;   /* owner's private lists (unexpected, free) */
	struct shl_pool *pool;       /* where the envelope goes back to */
	uint32_t context;            /* communicator context id */
	int32_t src;                 /* sender's rank in the communicator */
	int32_t tag;
	uint8_t payload;             /* enum shl_q_payload */
	_Atomic uint32_t state;      /* enum shl_q_state; see SHL_Q_MATCHED */
	size_t bytes;                /* payload size in bytes (the message's signature size) */
	const void *data;            /* where the payload is */
	const void *layout;          /* SHL_Q_DIRECT: sender's datatype, opaque here */
	size_t count;                /* SHL_Q_DIRECT: sender's element count */
	void *cookie;                /* sender's request, completed by the receiver, or NULL */
	void *chunk;                 /* pooled medium buffer owned by this envelope, or NULL */
	alignas(16) unsigned char inline_data[SHL_Q_INLINE_MAX];
};

/* A rank's envelopes. `free_small`/`free_medium` belong to the owner; any thread returns
 * envelopes through the wait-free return queue, which the owner splices back lazily. */
struct shl_pool {
	struct shl_envelope *free_small;
	struct shl_envelope *free_medium;
	alignas(64) struct __cds_wfcq_head ret_head;
	alignas(64) struct cds_wfcq_tail ret_tail;
};

struct shl_inbox {
	alignas(64) struct __cds_wfcq_head head;  /* owner only */
	alignas(64) struct cds_wfcq_tail tail;    /* every pusher */
};

/* Owner, once. */
void shl_pool_init(struct shl_pool *pool);
void shl_inbox_init(struct shl_inbox *inbox);

/* Owner: an envelope, with a medium chunk of SHL_Q_MEDIUM_MAX bytes if `medium`; NULL only
 * when memory is exhausted. The envelope's fields other than pool/chunk are garbage. */
struct shl_envelope *shl_pool_get(struct shl_pool *pool, bool medium);

/* Any thread: give `env` back to its pool. Wait-free. */
void shl_pool_put(struct shl_envelope *env);

#include "queues/queues_inline.h"
#endif
