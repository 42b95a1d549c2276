/* The hooks of comm/: every function comm/ calls that a higher layer implements (coll/,
 * and rma/ for one-sided frames arriving from other nodes), listed in one place. comm/ sits below p2p/ and coll/ (core < datatype <
 * comm < p2p < coll) and includes no header of theirs: a communicator's meeting, its
 * constructors and its shared object's end reach the collectives only through these
 * declarations, which cost a direct call like any other. The implementing files include
 * this header too, so the compiler checks both sides against it. Entered as each hook says;
 * must not declare anything comm/ does not call. */
#ifndef SHL_RUNTIME_COMM_HOOKS_H
#define SHL_RUNTIME_COMM_HOOKS_H

#include "runtime/core/rt.h"

/* ---- the meeting (comm/meet.c) ---- */

/* Last arriver of meeting `m`, after its `fn`: make the copies `fn` left to share with the
 * members blocked in the meeting; nothing left: returns at once. A run that frees memory
 * its copies read calls it first itself. (coll/share.c) */
void shl_coll_share_run(struct shl_meeting *m);

/* Owner thread, rank unlocked, after joining meeting `k` of `c` with an arrival whose
 * request is `q`: wait until `q` completes, running shl_coll_check every SHL_COLL_CHECK_NS
 * (a mismatch fails the meeting too, so this always ends) and taking a share of the copies
 * a large run offers meanwhile. (coll/call.c) */
void shl_coll_wait_checked(struct shl_rank *r, struct shl_comm *c, uint64_t k,
			   struct shl_req *q);

/* ---- the shared object (comm/object.c) ---- */

/* Any rank thread, when the last reference to `sh` goes: free what the collectives keep on
 * it (its rings, its network state) and forget its context for frames from other nodes.
 * (coll/call.c) */
void shl_coll_shared_free(struct shl_comm_shared *sh);

/* ---- constructors (comm/create.c, comm/intercomm.c) ---- */

/* Owner thread, at the entry of every collective and creation call on `c`: MPI_SUCCESS,
 * or (c broken: some earlier collective's calls did not match) MPI_ERR_NOT_SAME reported
 * through c's handler, naming the two calls. (coll/mismatch.c) */
int shl_coll_usable(struct shl_comm *c, const char *fn);

/* The node index of world rank `w` (0 on a one-node job): MPI_Comm_split_type's color for
 * the node's memory. (coll/net.c) */
int shl_coll_net_node_of(int w);

/* Communicator creation across nodes (coll/net_create.c): what a member of a creation gets:
 * its place in a new shared object (sh NULL: none, i.e. MPI_COMM_NULL), and, when `view`
 * is set, that object made the view of it at completion (MPI_Comm_idup's new
 * communicator). */
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
 * md->gsize0): MPI_Comm_split of `p` (color may be MPI_UNDEFINED) as this rank's next
 * collective on it. The nodes' leaders agree on a context id for each new communicator
 * that is free on every node of `p` (shl_ctx_lowest_free, shl_ctx_reserve). Blocking
 * (q NULL): waits, fills *md and returns 0 or an error class. Nonblocking: `q` completes
 * once done (md copied: only md->view is used), returns 0 or MPI_ERR_NO_MEM.
 * (coll/net_create.c) */
int shl_comm_net_split(struct shl_rank *r, struct shl_comm *p, int color, int key,
		       struct shl_net_made *md, struct shl_req *q);

/* Owner thread, rank unlocked, p->sh->offnode: MPI_Comm_create_group of `p` for group
 * `g` (a subgroup of p; this rank is member `at` of it) with `tag`: only the group's members
 * meet, on every node. Blocking; fills *md, returns 0 or an error class. Concurrent calls
 * on one parent must differ in tag or have disjoint groups (MPI 4.1, 7.4.2); tags are
 * told apart modulo 2^27. (coll/net_create.c) */
int shl_comm_net_create_group(struct shl_rank *r, struct shl_comm *p, const struct shl_group *g,
			      int tag, int at, struct shl_net_made *md);

/* ---- MPI_Comm_free (comm/object.c) ---- */

/* Owner thread, rank unlocked, when the user frees `c`: detach the buffer attached to it
 * (MPI_Comm_attach_buffer), if any, once every message buffered in it has been received,
 * as MPI_Comm_detach_buffer would. (p2p/bsend.c) */
void shl_p2p_comm_buffer_end(struct shl_rank *r, struct shl_comm *c);

/* ---- process topologies (comm/topo.c) ---- */

/* Owner thread, rank unlocked: MPI_Dist_graph_create's exchange, on the old communicator,
 * of the edges each rank declared: the MPI calls themselves (coll/move_bindings.c), which
 * run on one node and across nodes alike and report their errors on `comm`. */
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
		   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
		   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);

/* ---- arrivals from other nodes (comm/route.c) ---- */

struct shl_route_rma;

/* Whoever reads a mesh connection (shl_route_deliver), holding the transport's lock: a
 * one-sided frame (tag SHL_RMA_TAG_BASE and up, comm/route.h) on the context of the window
 * whose node object is `obj`, for local rank `to`; env->src is the sender's rank in the
 * window. Apply it to the target's memory and answer, or take an answer to an access of
 * `to`; `env` goes back to its pool. Returns 0, or -EPROTO for a frame no window of this
 * node could have caused (`env` stays the caller's). (rma/remote.c) */
int shl_rma_deliver(struct shl_route_rma *obj, struct shl_rank *to, struct shl_envelope *env);

#endif
