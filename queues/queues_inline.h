/* Hot-path inbox operations (measured: one push and one pop per eager message).
 * Contracts in queues.h terms: push from any thread, pop and empty from the owner only. */
#ifndef SHL_QUEUES_INLINE_H
#define SHL_QUEUES_INLINE_H

#include "queues/queues.h"

/* Any thread: append `env` to `inbox`. Wait-free; a full barrier orders every earlier
 * write to `env` before the envelope becomes visible (the xchg inside enqueue), which pairs
 * with the owner's pop. The caller then wakes the owner (runtime's job). */
static inline void shl_inbox_push(struct shl_inbox *inbox, struct shl_envelope *env)
{
	cds_wfcq_node_init(&env->link);
	cds_wfcq_enqueue(&inbox->head, &inbox->tail, &env->link);
}

/* Owner: the oldest envelope, or NULL if the inbox is empty or its newest push is still
 * being linked (that pusher wakes the owner after finishing, so nothing is lost). */
static inline struct shl_envelope *shl_inbox_pop(struct shl_inbox *inbox)
{
	struct cds_wfcq_node *node = __cds_wfcq_dequeue_nonblocking(&inbox->head, &inbox->tail);

	if (node == NULL || node == CDS_WFCQ_WOULDBLOCK)
		return NULL;
	return caa_container_of(node, struct shl_envelope, link);
}

/* Any thread: whether nothing is queued (a hint for everyone but the owner). */
static inline bool shl_inbox_empty(struct shl_inbox *inbox)
{
	return cds_wfcq_empty(&inbox->head, &inbox->tail);
}

/* Receiver: where the payload of `env` is. */
static inline const void *shl_envelope_payload(const struct shl_envelope *env)
{
	return env->payload == SHL_Q_INLINE ? env->inline_data : env->data;
}

#endif
