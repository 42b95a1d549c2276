/* Collectives on a communicator whose members live on several nodes, and the exchange
 * between the nodes' leaders that they and communicator creation across nodes
 * (coll/net_create.c) run on: a node-local meeting of the members of each node, then
 * rounds of exchanges over the mesh between the node leaders, scheduled from each leader's
 * progress engine (arriving frames reach the members through comm/route.c). Entered by
 * rank threads (arrivals) and each node leader's progress engine (exchange, run,
 * completion). Never touches another node's memory; messages go through the
 * internal context (context | SHL_CTX_INTERNAL), which no user receive can match. What a
 * node packs and how it runs the collective on the blobs it gets is coll/net_pack.c's.
 *
 * Algorithm (docs/offnode.md, "Collectives across nodes"): the members of a node meet
 * (keyed by the collective's number, as on one node). When the last local member arrives,
 * the node's leader (its member of lowest index) packs, for each local member, what the
 * collective reads from it — its arguments' shape, and its input data — into a blob and
 * sends it once to every other node's leader, receiving theirs (a blob per node holding
 * only the blocks its members read, for Gather, Scatter, Alltoall and Reduce; the node's
 * folded input, for an Allreduce with an exact op: coll/net_fold.c). Each node then holds
 * every input it needs exactly once, and runs the collective's on-node run function
 * on a meeting where the members of other nodes are stand-ins built from the blobs (their
 * buffers are scratch, their types dense bytes, or for reductions the leader's own type):
 * every node computes the same result in the same rank order, keeps its own members'
 * part, and completes their requests. Non-commutative and user ops fold in rank order
 * because the run sees every input. The exchange is a schedule the leader advances from
 * shl_progress, so nonblocking collectives interleave with point-to-point freely. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/net_internal.h"

bool shl_coll_net_on;

/* Process-wide; written by shl_coll_net_init before ranks run unless said otherwise. */
static struct {
	int size;
	uint32_t *node_of;
	struct duty *duty;            /* by world rank: the network phases it leads */
	pthread_mutex_t lock;         /* creation of communicators' network state */
} net = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The collectives a rank leads: queued by the last local arriver (any thread, under
 * `lock`), then advanced by the leader's own threads under its rank lock (`active`). */
struct duty {
	pthread_mutex_t lock;
	struct shl_netop *queue, **tail;
	_Atomic int queued;
	struct shl_netop *active;     /* leader's threads, rank locked */
	bool busy;                    /* a progress call is advancing `active` */
};

int shl_coll_net_init(int size, const uint32_t *node_of)
{
	net.size = size;
	net.node_of = malloc((size_t)size * sizeof(*net.node_of));
	net.duty = calloc((size_t)size, sizeof(*net.duty));
	if (net.node_of == NULL || net.duty == NULL)
		return -ENOMEM;
	memcpy(net.node_of, node_of, (size_t)size * sizeof(*net.node_of));
	for (int i = 0; i < size; i++) {
		pthread_mutex_init(&net.duty[i].lock, NULL);
		net.duty[i].tail = &net.duty[i].queue;
	}
	shl_coll_net_on = true;
	return 0;
}

int shl_coll_net_node_of(int w)
{
	return net.node_of == NULL ? 0 : (int)net.node_of[w];
}

void shl_coll_net_free(struct shl_comm_shared *sh)
{
	struct shl_coll_net *n = sh->net;

	/* A create_group stand-in has its parent's context, which stays. */
	if (sh->offnode && sh->context != SHL_CTX_WORLD && (n == NULL || n->subset_tag < 0))
		shl_route_drop(sh->context);
	if (n == NULL)
		return;
	pthread_mutex_destroy(&n->lock);
	free(n->peer_world);
	free(n);
}

struct shl_coll_net *shl_coll_net_of(struct shl_comm_shared *sh)
{
	struct shl_coll_net *n = atomic_load_explicit(&sh->net, memory_order_acquire);
	uint32_t here = UINT32_MAX;

	if (n != NULL)
		return n;
	pthread_mutex_lock(&net.lock);
	n = atomic_load_explicit(&sh->net, memory_order_relaxed);
	if (n != NULL)
		goto out;
	n = calloc(1, sizeof(*n));
	if (n == NULL || (n->peer_world = calloc((size_t)sh->nmembers, sizeof(int))) == NULL) {
		free(n);
		n = NULL;
		goto out;
	}
	pthread_mutex_init(&n->lock, NULL);
	n->leader = -1;
	n->subset_tag = -1;
	for (int j = 0; j < sh->nmembers; j++) {
		if (shl_job.ranks[sh->world[j]] == NULL)
			continue;
		if (n->leader < 0) {
			n->leader = j;
			here = net.node_of[sh->world[j]];
		}
		n->nlocal++;
	}
	/* Each other node's leader: its member of lowest index. */
	for (int j = 0; j < sh->nmembers; j++) {
		uint32_t node = net.node_of[sh->world[j]];
		bool seen = node == here;
		for (int k = 0; k < j && !seen; k++)
			seen = net.node_of[sh->world[k]] == node;
		if (!seen)
			n->peer_world[n->npeers++] = sh->world[j];
	}
	n->icomm = (struct shl_comm){ .magic = SHL_COMM_MAGIC,
				      .context = sh->context | SHL_CTX_INTERNAL,
				      .rank = sh->world[n->leader], .size = net.size, .sh = sh };
	atomic_store_explicit(&sh->net, n, memory_order_release);
out:
	pthread_mutex_unlock(&net.lock);
	return n;
}

/* ---- the local meeting ---- */

/* Hand `op` (complete on this node) to its leader and wake it. */
static void to_leader(struct shl_netop *op)
{
	int w = op->sh->world[op->nc->leader];
	struct duty *d = &net.duty[w];
	struct shl_rank *lr = shl_job.ranks[w];

	op->next = NULL;
	pthread_mutex_lock(&d->lock);
	*d->tail = op;
	d->tail = &op->next;
	pthread_mutex_unlock(&d->lock);
	atomic_fetch_add(&d->queued, 1);  /* seq_cst RMW: the event shl_rank_wake announces */
	shl_rank_wake(lr);
	if (shl_self == lr) {
		/* Start the exchange now rather than at the leader's next MPI call. */
		shl_rank_lock(lr);
		shl_progress(lr);
		shl_rank_unlock(lr);
	}
}

int shl_coll_net_arrive(struct shl_comm *c, shl_meet_fn *run, struct shl_cargs *a)
{
	struct shl_comm_shared *sh = c->sh;
	struct shl_coll_net *nc = shl_coll_net_of(sh);
	uint64_t key = ++c->seq;
	struct shl_netop **link, *op;
	bool last;

	if (nc == NULL)
		return MPI_ERR_NO_MEM;
	a->a.err = MPI_SUCCESS;
	pthread_mutex_lock(&nc->lock);
	for (link = &nc->pending; (op = *link) != NULL; link = &op->next)
		if (op->key == key)
			break;
	if (op == NULL) {
		op = calloc(1, sizeof(*op) + (size_t)sh->nmembers * sizeof(op->arg[0]));
		if (op == NULL) {
			pthread_mutex_unlock(&nc->lock);
			return MPI_ERR_NO_MEM;
		}
		op->key = key;
		op->run = run;
		op->sh = sh;
		op->nc = nc;
		op->next = nc->pending;
		nc->pending = op;
		link = &nc->pending;
	}
	if (op->run != run)
		op->mismatch = true;
	op->arg[c->member] = a;
	last = ++op->arrived == nc->nlocal;
	if (last)
		*link = op->next;
	pthread_mutex_unlock(&nc->lock);
	if (last)
		to_leader(op);
	return 0;
}

int shl_coll_net_block(struct shl_rank *r, struct shl_comm *c, shl_meet_fn *run,
		       const struct shl_cargs *x)
{
	struct shl_req sq = { .magic = SHL_REQ_MAGIC, .kind = SHL_REQ_DONE, .owner = r };
	struct shl_cargs a = *x;
	struct shl_coll_blocked w = { &sq, c->sh };
	int err;

	a.a = (struct shl_arrival){ .req = &sq };
	if ((err = shl_coll_net_arrive(c, run, &a)) != 0)
		return err;
	shl_rank_lock(r);
	shl_wait(r, shl_coll_blocked_done, &w);
	shl_rank_unlock(r);
	return a.a.err;
}

int shl_coll_net_join(struct shl_comm *c, shl_meet_fn *run, const struct shl_cargs *x,
		      struct shl_req *q)
{
	struct shl_cargs *h = malloc(sizeof(*h));

	if (h == NULL)
		return MPI_ERR_NO_MEM;
	*h = *x;
	h->a = (struct shl_arrival){ .req = q, .heap = true, .drop = shl_coll_drop_holds };
	shl_coll_hold(h);
	if (shl_coll_net_arrive(c, run, h) != 0) {
		shl_coll_drop_holds(&h->a);
		free(h);
		return MPI_ERR_NO_MEM;
	}
	return 0;
}

/* ---- which collective a run function is ---- */

/* MPI_Finalize's barrier on MPI_COMM_WORLD: everyone has arrived, nothing to move. */
static void finalize_run(struct shl_meeting *m)
{
}

enum shl_coll_kind shl_coll_net_kind(shl_meet_fn *run)
{
	enum shl_coll_kind k = run == finalize_run ? SHL_KIND_BARRIER
			       : run == shl_coll_net_create_run ? SHL_KIND_CREATE
			       : shl_coll_kind_move(run);

	return k != SHL_KIND_UNKNOWN ? k : shl_coll_kind_reduce(run);
}

/* ---- the leader's schedule ---- */

/* A node is never more than one round ahead of another, so rounds modulo 4 suffice. */
static int tag_of(const struct shl_netop *op, int which)
{
	if (op->nc->subset_tag >= 0)  /* MPI_Comm_create_group: its tag, bit 30 */
		return 1 << 30 | (op->nc->subset_tag & 0x7ffffff) << 3 | (op->round & 3) << 1 |
		       which;
	return (int)((op->key & 0x3ffffffu) << 3) | ((op->round & 3) << 1) | which;
}

static struct shl_req *post(struct shl_rank *r, struct shl_netop *op, enum shl_req_kind kind,
			    void *buf, uint64_t bytes, int peer, int tag)
{
	struct shl_req *q = shl_req_new(r, kind);

	if (q == NULL)
		shl_panic("collective across nodes", ENOMEM, "no request for the network phase");
	q->comm = &op->nc->icomm;
	q->buf = buf;
	q->count = (MPI_Count)bytes;
	q->type = NULL;
	q->peer = peer;
	q->tag = tag;
	q->mode = SHL_MODE_STANDARD;
	/* shl_p2p_start reads the type: MPI_BYTE, never held or released. */
	q->type = MPI_BYTE;
	if (shl_p2p_start(r, q) < 0)
		shl_panic("collective across nodes", ENOMEM, "no memory for the network phase");
	return q;
}

static bool done(struct shl_req *q)
{
	return q != NULL && atomic_load_explicit(&q->done, memory_order_acquire);
}

static void release(struct shl_rank *r, struct shl_req **q)
{
	if (*q != NULL) {
		(*q)->type = NULL;
		shl_req_release(r, *q);
		*q = NULL;
	}
}

void shl_coll_net_exchange(struct shl_rank *r, struct shl_netop *op)
{
	struct shl_coll_net *nc = op->nc;

	for (int p = 0; p < nc->npeers; p++) {
		struct shl_net_peer *x = &op->peer[p];
		int w = nc->peer_world[p];
		if (x->sblob == NULL)
			x->slen = op->blen;
		x->rsize = post(r, op, SHL_REQ_RECV, &x->rlen, 8, w, tag_of(op, 0));
		x->ssize = post(r, op, SHL_REQ_SEND, &x->slen, 8, w, tag_of(op, 0));
		x->sdata = post(r, op, SHL_REQ_SEND, x->sblob ? x->sblob : op->blob, x->slen, w,
				tag_of(op, 1));
	}
}

void shl_coll_net_round_free(struct shl_rank *r, struct shl_netop *op)
{
	for (int p = 0; p < op->npeers; p++) {
		struct shl_net_peer *x = &op->peer[p];
		release(r, &x->rsize);
		release(r, &x->rdata);
		release(r, &x->ssize);
		release(r, &x->sdata);
		free(x->rbuf);
		x->rbuf = NULL;
		free(x->sblob);
		x->sblob = NULL;
	}
	free(op->blob);
	op->blob = NULL;
}

/* Pack this node's entries and start the exchange with every other leader: one blob for
 * all, or for collectives whose blocks each go to one member, one per node with only the
 * blocks its members read. */
static void start(struct shl_rank *r, struct shl_netop *op)
{
	struct shl_coll_net *nc = op->nc;
	enum shl_coll_kind k = shl_coll_net_kind(op->run);
	bool targeted = k == SHL_KIND_GATHER || k == SHL_KIND_SCATTER || k == SHL_KIND_ALLTOALL ||
			k == SHL_KIND_REDUCE;

	op->npeers = nc->npeers;
	op->peer = calloc((size_t)nc->npeers, sizeof(*op->peer));
	if (op->peer == NULL)
		shl_panic("collective across nodes", ENOMEM, "no memory for the network phase");
	if (k == SHL_KIND_ALLREDUCE && !op->mismatch && shl_coll_net_exact(op))
		op->blob = shl_coll_net_partial(op, &op->blen);
	if (!targeted && op->blob == NULL)
		op->blob = shl_coll_net_pack(op, k, -1, &op->blen);
	for (int p = 0; targeted && p < nc->npeers; p++)
		op->peer[p].sblob = shl_coll_net_pack(op, k, (int)net.node_of[nc->peer_world[p]],
						      &op->peer[p].slen);
	shl_coll_net_exchange(r, op);
	op->state = 1;
}

void shl_coll_net_finish(struct shl_netop *op)
{
	int n = op->sh->nmembers;

	for (int j = 0; j < n; j++) {
		struct shl_cargs *x = op->arg[j];
		if (x == NULL)
			continue;
		struct shl_req *q = x->a.req;
		bool heap = x->a.heap;
		if (heap && x->a.drop != NULL)
			x->a.drop(&x->a);
		if (x->a.err != MPI_SUCCESS)
			q->status.MPI_ERROR = x->a.err;
		shl_req_complete(q);
		if (heap)
			free(x);
	}
}

/* Whether every message of `op`'s current round is in and out, posting the receive of
 * each peer's blob once its size is in. */
static bool round_done(struct shl_rank *r, struct shl_netop *op)
{
	struct shl_coll_net *nc = op->nc;
	bool all = true;

	for (int p = 0; p < nc->npeers; p++) {
		struct shl_net_peer *x = &op->peer[p];
		if (x->rdata == NULL && done(x->rsize)) {
			if (x->rlen > (1ull << 47))
				shl_panic("collective across nodes", EPROTO, "impossible size");
			x->rbuf = malloc(x->rlen ? x->rlen : 1);
			if (x->rbuf == NULL)
				shl_panic("collective across nodes", ENOMEM,
					  "no memory for the network phase");
			x->rdata = post(r, op, SHL_REQ_RECV, x->rbuf, x->rlen, nc->peer_world[p],
					tag_of(op, 1));
		}
		all = all && done(x->rdata) && done(x->ssize) && done(x->sdata);
	}
	return all;
}

/* Advance `op`; true once it is done (its members completed). */
static bool step(struct shl_rank *r, struct shl_netop *op)
{
	if (op->state == 0)
		start(r, op);
	for (;;) {
		if (!round_done(r, op))
			return false;
		if (shl_coll_net_kind(op->run) != SHL_KIND_CREATE) {
			shl_coll_net_compute(op);
			shl_coll_net_round_free(r, op);
			break;
		}
		if (shl_coll_net_create_round(r, op))
			break;
		/* The next round started. Look at it at once: its receives may have matched
		 * messages already drained into the unexpected list, which wake no one, and a
		 * leader that left them for its next progress could sleep on them for good. */
	}
	free(op->peer);
	free(op);
	return true;
}

void shl_coll_net_progress(struct shl_rank *r)
{
	struct duty *d = &net.duty[r->world_rank];
	struct shl_netop **link, *op;

	shl_coll_neigh_progress(r);
	if (d->busy || (d->active == NULL && atomic_load_explicit(&d->queued,
								memory_order_relaxed) == 0))
		return;
	d->busy = true;
	if (atomic_load(&d->queued) != 0) {
		pthread_mutex_lock(&d->lock);
		op = d->queue;
		d->queue = NULL;
		d->tail = &d->queue;
		atomic_store(&d->queued, 0);
		pthread_mutex_unlock(&d->lock);
		for (link = &d->active; *link != NULL; link = &(*link)->next)
			;
		*link = op;
	}
	for (link = &d->active; (op = *link) != NULL;) {
		struct shl_netop *nx = op->next;
		if (step(r, op))
			*link = nx;
		else
			link = &op->next;
	}
	d->busy = false;
}

void shl_coll_net_finalize(struct shl_rank *r)
{
	struct shl_cargs x = { 0 };

	if (r->world.sh->offnode && shl_coll_net_block(r, &r->world, finalize_run, &x) != 0)
		shl_panic("MPI_Finalize", ENOMEM, "the barrier with the other nodes failed");
}
