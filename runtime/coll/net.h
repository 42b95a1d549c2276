/* Collectives on a communicator with members on other nodes (coll/net.c): the hooks the
 * on-node collective path, the progress engine and the mesh start-up call.
 * Entered by rank threads; shl_coll_net_init by the node's main thread before ranks run. */
#ifndef SHL_RUNTIME_COLL_NET_H
#define SHL_RUNTIME_COLL_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/core/rt.h"

/* Set once before ranks run when this node process is part of a job on several nodes:
 * shl_progress then calls shl_coll_net_progress. */
extern bool shl_coll_net_on;

/* Node process main thread, before ranks run (shl_job_connect): remember which node hosts
 * each of the `size` world ranks (copied). Returns 0 or -ENOMEM. */
int shl_coll_net_init(int size, const uint32_t *node_of);

/* Owner, rank locked (from shl_progress): advance the network phases this rank leads for
 * its node; runs the collectives whose data has all arrived and completes their members'
 * requests. Returns at once when there is nothing to do. */
void shl_coll_net_progress(struct shl_rank *r);

/* Owner thread, rank unlocked, in MPI_Finalize once its own requests are done: on a job
 * of several nodes, wait until every rank of the job has come this far (a barrier on
 * MPI_COMM_WORLD), so no node process ends while another still needs one of its ranks. */
void shl_coll_net_finalize(struct shl_rank *r);

/* The node index of world rank `w` (0 on a one-node job). */
int shl_coll_net_node_of(int w);

/* ---- communicator creation across nodes ---- */

/* What a member of a creation gets: its place in a new shared object (sh NULL: none, i.e.
 * MPI_COMM_NULL), and, when `view` is set, that object made the view of it at completion
 * (MPI_Comm_idup's new communicator). */
struct shl_net_made {
	struct shl_comm_shared *sh;
	int member;
	struct shl_comm *view;
	/* Set by the caller, above 0 (one color, keys in the order wanted): the new
	 * communicator is an intercommunicator whose first group is its first gsize0 members
	 * (MPI_Intercomm_create, dup of an intercommunicator); -1: `p` is an
	 * intercommunicator split by color, each new one connecting the members of a color
	 * in group 0 to those in group 1 (MPI_COMM_NULL when a color is on one side only). */
	int gsize0;
};

/* Owner thread, rank unlocked, p->sh->offnode (an intra- or intercommunicator; see
 * md->gsize0): MPI_Comm_split of
 * `p` (color may be MPI_UNDEFINED) as this rank's next collective on it. The nodes' leaders
 * agree on a context id for each new communicator that is free on every node of `p`
 * (shl_ctx_lowest_free, shl_ctx_reserve). Blocking (q NULL): waits, fills *md and returns 0
 * or an error class. Nonblocking: `q` completes once done (md copied: only md->view is
 * used), returns 0 or MPI_ERR_NO_MEM. */
int shl_comm_net_split(struct shl_rank *r, struct shl_comm *p, int color, int key,
		       struct shl_net_made *md, struct shl_req *q);

/* Owner thread, rank unlocked, p->sh->offnode: MPI_Comm_create_group of `p` for group
 * `g` (a subgroup of p; this rank is member `at` of it) with `tag`: only the group's members
 * meet, on every node. Blocking; fills *md, returns 0 or an error class. Concurrent calls
 * on one parent must differ in tag or have disjoint groups (MPI 4.1, 7.4.2); tags are
 * told apart modulo 2^27. */
int shl_comm_net_create_group(struct shl_rank *r, struct shl_comm *p, const struct shl_group *g,
			      int tag, int at, struct shl_net_made *md);

/* Completion thread: an arriving message (EAGER or RTS envelope, env->src a world rank)
 * for local rank `to` on a context other than MPI_COMM_WORLD's: into `to`'s inbox with its
 * source as a rank of that communicator (internal contexts keep world ranks), or parked
 * until this node has built the communicator when its id is reserved here but not built
 * yet. Returns 0, or -EPROTO when no communicator of this node spanning nodes has that
 * context or either rank is not a member (the caller drops the connection). */
int shl_coll_net_deliver(struct shl_rank *to, struct shl_envelope *env);

/* Any rank thread, when `sh` is freed (comm/comm.c): free its network state and forget its
 * context for arriving frames. */
void shl_coll_net_free(struct shl_comm_shared *sh);

#endif
