/* Rank translation between world ranks, which frames between nodes name, and communicator
 * ranks, which matching and statuses use, for every communicator (comm/route.c): the
 * sender's translation (inline, also the on-node send path's) and the arrival of a message
 * from another node. Entered by rank threads (sends, receives, creation and freeing of
 * communicators that span nodes) and by whoever reads a mesh connection (arrivals).
 * Knows no transport and no protocol: an arriving envelope is already whole. */
#ifndef SHL_RUNTIME_COMM_ROUTE_H
#define SHL_RUNTIME_COMM_ROUTE_H

#include <stdint.h>

#include "runtime/comm/comm.h"

struct shl_rank;
struct shl_envelope;

/* The world rank of rank `rank` of `c` as a sender names its peer: of the remote group on
 * an intercommunicator, of the group itself otherwise. */
static inline int shl_comm_remote_world(const struct shl_comm *c, int rank)
{
	return c->inter ? c->remote_world[rank] : shl_comm_world_rank(c, rank);
}

/* The world rank of the sender of `src`, the source of an envelope that arrived on `c`
 * (its context, or its internal context) from another node: the rank its frames named.
 * Internal contexts keep world ranks (shl_route_deliver). */
static inline int shl_route_sender_world(const struct shl_comm *c, uint32_t context, int src)
{
	return (context & SHL_CTX_INTERNAL) ? src : shl_comm_remote_world(c, src);
}

/* One-sided communication's frames (runtime/rma/remote.c) travel on a window's own
 * communicator's context, which no user holds, with tags from this one up (at most
 * SHL_IO_TAG_MAX): arrivals with such a tag on a context that has a window's node object
 * (shl_route_rma_set) go to shl_rma_deliver (comm/hooks.h) instead of an inbox; other
 * tags on it (a window's own point-to-point synchronization) are messages as usual. */
#define SHL_RMA_TAG_BASE 0x3fffff00

/* What a window's node object starts with, for route.c: its link on the retired list. */
struct shl_route_rma {
	struct shl_route_rma *retired;
};

/* Node process main thread, before ranks run, on a job of several nodes: a job of `size`
 * world ranks. Returns 0 or -ENOMEM. */
int shl_route_init(int size);

/* Whoever reads a mesh connection (one thread at a time): an arriving message (EAGER or
 * RTS envelope, env->src a world rank) for local rank `to`: into `to`'s inbox with its
 * source as a rank of its communicator (MPI_COMM_WORLD's and internal contexts keep world
 * ranks), or parked until this node has built the communicator when its context id is
 * reserved here but not built yet. Lock-free but for parking. Returns 0, or -EPROTO when
 * no communicator of this node spanning nodes has that context or either rank is not a
 * member (the caller drops the connection). */
int shl_route_deliver(struct shl_rank *to, struct shl_envelope *env);

/* A rank thread building `sh`, a communicator with members on other nodes (coll/net.c's
 * creation): translate arriving frames of its context from now on, delivering first those
 * parked for it. */
void shl_route_add(const struct shl_comm_shared *sh);

/* Rank threads creating or freeing a window on the communicator of `context` (built here,
 * spanning nodes), serialized by their caller: the node object arrivals of one-sided
 * frames on that context go to (shl_route_rma_get reads it; NULL: none). set returns 0, or
 * -ENOENT when no communicator of this node spanning nodes has that context. clear
 * forgets it; route.c frees it (free()) once no arrival can still hold it. */
int shl_route_rma_set(uint32_t context, struct shl_route_rma *obj);
struct shl_route_rma *shl_route_rma_get(uint32_t context);
void shl_route_rma_clear(uint32_t context);

/* Any rank thread, when the communicator with context `context` that spans nodes is freed:
 * forget its context for arriving frames. */
void shl_route_drop(uint32_t context);

#endif
