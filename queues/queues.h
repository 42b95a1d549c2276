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

/* Payload bytes carried inside an envelope: with the 48-byte header and 64 cold bytes this
 * makes the envelope 320 bytes (5 cache lines), and a payload of up to 16 bytes shares the
 * header's line, so a tiny message moves one cache line. SHOAL_INLINE_MAX tunes the
 * switch to direct copies down from here. */
#define SHL_Q_INLINE_MAX 208
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
	SHL_Q_SPLIT,      /* matched, and its copy is cut in chunks the sender may take too */
};

struct shl_pool;

/* Fields the receiver reads for every message come first, so that the header and the
 * first 16 payload bytes share one cache line. */
struct shl_envelope {
	struct cds_wfcq_node link;   /* in an inbox or in a pool's return queue, one at a time */
	struct shl_pool *pool;       /* where the envelope goes back to */
	void *cookie;                /* sender's request, completed by the receiver, or NULL */
	size_t bytes;                /* payload size in bytes (the message's signature size) */
	uint32_t context;            /* communicator context id */
	int32_t src;                 /* sender's rank in the communicator */
	int32_t tag;
	_Atomic uint8_t state;       /* enum shl_q_state; see SHL_Q_MATCHED */
	uint8_t payload;             /* enum shl_q_payload */
	alignas(16) unsigned char inline_data[SHL_Q_INLINE_MAX];
	/* Cold: pooled and direct payloads, and the owner's list link. */
	const void *data;            /* SHL_Q_POOLED, SHL_Q_DIRECT: where the payload is */
	const void *layout;          /* SHL_Q_DIRECT: sender's datatype, opaque here */
	void *chunk;                 /* pooled medium buffer owned by this envelope, or NULL */
	struct shl_envelope *next;   /* owner's private lists (unexpected, free) */
	void *probed_on;             /* owner's: set by a matched probe, opaque here */
	/* SHL_Q_SPLIT: the receiver's contiguous destination and the chunks handed out and
	 * finished; written by the receiver before its release store of `state`. */
	void *split_dst;
	size_t split_bytes;
	_Atomic uint32_t split_next;
	_Atomic uint32_t split_done;
};

_Static_assert(offsetof(struct shl_envelope, inline_data) == 48, "header is one 48-byte run");
_Static_assert(sizeof(struct shl_envelope) == 320, "an envelope is five cache lines");

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
