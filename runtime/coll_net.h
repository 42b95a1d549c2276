/* Collectives on a communicator with members on other nodes (coll_net.c): the hooks the
 * on-node collective path, the progress engine and the mesh start-up call.
 * Entered by rank threads; shl_coll_net_init by the node's main thread before ranks run. */
#ifndef SHL_RUNTIME_COLL_NET_H
#define SHL_RUNTIME_COLL_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/rt.h"

/* What a collective's run function does, as far as the network phase must know to ship a
 * member's arguments to the other nodes (coll_net.c). */
enum shl_coll_kind {
	SHL_KIND_UNKNOWN = 0,
	SHL_KIND_BARRIER, SHL_KIND_BCAST, SHL_KIND_GATHER, SHL_KIND_SCATTER, SHL_KIND_ALLGATHER,
	SHL_KIND_ALLTOALL,
	/* Reductions: every member contributes one input vector. */
	SHL_KIND_REDUCE, SHL_KIND_ALLREDUCE, SHL_KIND_SCAN, SHL_KIND_EXSCAN,
	SHL_KIND_REDUCE_SCATTER,
};

/* Which collective `run` is: coll.c answers for those that move data, coll_reduce.c for
 * those that combine it; SHL_KIND_UNKNOWN for any other function. */
enum shl_coll_kind shl_coll_kind_move(shl_meet_fn *run);
enum shl_coll_kind shl_coll_kind_reduce(shl_meet_fn *run);

/* Set once before ranks run when this node process is part of a job on several nodes:
 * shl_progress then calls shl_coll_net_progress. */
extern bool shl_coll_net_on;

/* Node process main thread, before ranks run (shl_job_connect): remember which node hosts
 * each of the `size` world ranks (copied). Returns 0 or -ENOMEM. */
int shl_coll_net_init(int size, const uint32_t *node_of);

/* Owner thread, rank unlocked, c->sh->offnode: run collective `run` with arguments `x` as
 * this rank's next collective on `c` and wait (sleeping) for it. Returns the class of the
 * error its run reported for this rank, or 0. */
int shl_coll_net_block(struct shl_rank *r, struct shl_comm *c, shl_meet_fn *run,
		       const struct shl_cargs *x);

/* Owner thread, rank unlocked, c->sh->offnode: join the next collective of `c` with a heap
 * copy of `x` (types and op held until it is done) that completes request `q`, as coll.c's
 * nonblocking join does. Returns 0 or MPI_ERR_NO_MEM. */
int shl_coll_net_join(struct shl_comm *c, shl_meet_fn *run, const struct shl_cargs *x,
		      struct shl_req *q);

/* Owner, rank locked (from shl_progress): advance the network phases this rank leads for
 * its node; runs the collectives whose data has all arrived and completes their members'
 * requests. Returns at once when there is nothing to do. */
void shl_coll_net_progress(struct shl_rank *r);

/* Owner thread, rank unlocked, in MPI_Finalize once its own requests are done: on a job
 * of several nodes, wait until every rank of the job has come this far (a barrier on
 * MPI_COMM_WORLD), so no node process ends while another still needs one of its ranks. */
void shl_coll_net_finalize(struct shl_rank *r);

/* Whether world ranks a and b live on the same node (true on a one-node job). */
bool shl_coll_net_same_node(int a, int b);

/* A communicator's network state, freed with its shared object (comm.c). */
void shl_coll_net_free(struct shl_coll_net *n);

#endif
