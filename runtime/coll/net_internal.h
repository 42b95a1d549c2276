/* What the files of the collectives across nodes share: coll/net.c (the node-local meeting,
 * the leaders' schedule, the routing of arriving frames), coll/net_pack.c (blobs and
 * stand-ins), coll/net_fold.c (Allreduce folded per node) and coll/net_create.c
 * (communicator creation): a communicator's network state, one collective as a node sees
 * it, the layout of the blobs the leaders exchange, and the steps of the schedule.
 * Entered by rank threads and by node leaders' progress engines. Must not be included
 * outside coll/net*.c. */
#ifndef SHL_RUNTIME_COLL_NET_INTERNAL_H
#define SHL_RUNTIME_COLL_NET_INTERNAL_H

#include "runtime/coll/internal.h"
#include "runtime/coll/net.h"

struct shl_net_cre;
struct shl_net_sub;

/* A communicator's network state: who leads each node, and the local meetings. */
struct shl_coll_net {
	pthread_mutex_t lock;         /* guards `pending` */
	int nlocal;                   /* members on this node */
	int leader;                   /* member index of this node's leader */
	int npeers;                   /* other nodes with members */
	int *peer_world;              /* world rank of each other node's leader */
	struct shl_comm icomm;        /* internal context; world ranks as ranks */
	struct shl_netop *pending;    /* local meetings not complete yet */
	int subset_tag;               /* a create_group's stand-in: its tag; else -1 */
	struct shl_net_sub *subs;     /* create_group calls in progress on this one */
};

/* One other node's leader in the current round: the requests carrying the blobs' sizes
 * and the blobs each way, the sizes, the blob received, and the blob sent when it is this
 * peer's own. */
struct shl_net_peer {
	struct shl_req *ssize, *sdata, *rsize, *rdata;
	uint64_t rlen, slen;
	char *rbuf;
	char *sblob;                  /* this peer's own blob (targeted data), or NULL */
};

/* One collective as this node sees it. */
struct shl_netop {
	uint64_t key;
	shl_meet_fn *run;
	bool mismatch;
	int arrived;
	struct shl_comm_shared *sh;
	struct shl_coll_net *nc;
	int state;                    /* 0: queued, 1: exchanging */
	int round;                    /* exchanges done so far (creation takes several) */
	struct shl_net_cre *cre;      /* communicator creation: what the rounds agreed */
	uint64_t blen;
	char *blob;
	struct shl_net_peer *peer;
	int npeers;                   /* nc->npeers: nc may go once the members are completed */
	struct shl_netop *next;
	struct shl_cargs *arg[];      /* by member index; NULL for other nodes' members */
};

/* A blob's head. Then `nent` entries (struct shl_net_ent, then the entry's block sizes and
 * data: coll/net_pack.c), or a folded Allreduce's fold (coll/net_fold.c), or in a
 * creation's later rounds the window's free ids (coll/net_create.c). */
struct shl_net_head {
	int64_t fn;                   /* the run function, relative to shl_coll_start */
	uint64_t key;
	uint32_t nent;
	uint32_t lo;                  /* creation, round 0: the node's lowest free context id */
	uint32_t partial;             /* Allreduce: the body is the node's folded input */
	uint32_t pad;
};

/* The run function as a blob names it: its offset from shl_coll_start, the same in every
 * node process of the job. */
static inline int64_t shl_coll_net_fn_id(shl_meet_fn *run)
{
	return (int64_t)((uintptr_t)run - (uintptr_t)&shl_coll_start);
}

/* A member's entry: header, block sizes, then the send blocks' data and, with F_RDATA
 * (coll/net_pack.c), the receive blocks'. */
struct shl_net_ent {
	int32_t member, root;
	uint32_t flags, ns, nr;
	int32_t aux;                  /* communicator creation: the key */
};

/* ---- the node-local meeting and the leaders' schedule (coll/net.c) ---- */

/* Any rank thread: the network state of `sh`, made by its first collective, or NULL when
 * out of memory. */
struct shl_coll_net *shl_coll_net_of(struct shl_comm_shared *sh);

/* Owner thread, rank unlocked: join this rank's next collective on `c` with `a` (its a.req
 * set); the last local arrival hands the collective to the node's leader. Returns 0 or
 * MPI_ERR_NO_MEM. */
int shl_coll_net_arrive(struct shl_comm *c, shl_meet_fn *run, struct shl_cargs *a);

/* Which collective `run` is, for what its members ship (SHL_KIND_CREATE: a creation). */
enum shl_coll_kind shl_coll_net_kind(shl_meet_fn *run);

/* Leader, rank locked (as are the two below): send op->blob (or each peer's own blob) to
 * every other leader and post the receives of theirs, for this round. */
void shl_coll_net_exchange(struct shl_rank *r, struct shl_netop *op);

/* Let go of this round's requests and received blobs. */
void shl_coll_net_round_free(struct shl_rank *r, struct shl_netop *op);

/* Complete every local member of `op`, as shl_comm_meet does. The last one may free the
 * communicator (op->sh, op->nc) at once: nothing of it is read after. */
void shl_coll_net_finish(struct shl_netop *op);

/* ---- blobs and stand-ins (coll/net_pack.c); leader, rank locked ---- */

/* This node's blob for node `dest` (-1: for every node); its length in *len. */
char *shl_coll_net_pack(struct shl_netop *op, enum shl_coll_kind k, int dest, uint64_t *len);

/* Every blob is in: run the collective on every member's data, with stand-ins of the
 * other nodes' members built from their blobs, and complete this node's members. */
void shl_coll_net_compute(struct shl_netop *op);

/* ---- Allreduce folded per node (coll/net_fold.c); leader, rank locked ---- */

/* Whether this node may fold its members' inputs before the exchange: an op whose result
 * does not depend on the order (a predefined one on integers or bytes: exact), every local
 * member with the same predefined type and count. Any other case folds every member's
 * input in rank order on every node. */
bool shl_coll_net_exact(struct shl_netop *op);

/* The fold of this node's members' inputs (packed basic elements), for the blob. */
char *shl_coll_net_partial(struct shl_netop *op, uint64_t *len);

/* Allreduce where some node sent its folded input (so the op is exact): fold this node's
 * inputs, every other node's part (a fold, or its members' packed inputs), store in every
 * local member's receive buffer. Returns 0 or an error class. */
int shl_coll_net_combine(struct shl_netop *op);

/* ---- communicator creation (coll/net_create.c) ---- */

/* Creation's mark in the exchange, as a run function (never run). */
void shl_coll_net_create_run(struct shl_meeting *m);

/* Leader, rank locked: a creation's round is complete: read it, then either start the next
 * round (false) or build the communicators and complete the members (true). Round 0
 * exchanged the members' colors and keys and each node's lowest free id; each later round,
 * each node's free ids of the window [base, base + 256), reserved meanwhile. */
bool shl_coll_net_create_round(struct shl_rank *r, struct shl_netop *op);

#endif
