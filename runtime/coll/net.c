/* Collectives and communicator creation (dup, split, create, create_group) on one whose
 * members live on several nodes: a node-local meeting, exchanges between node leaders over
 * the mesh, then the on-node run function (or the new communicators, with context ids the
 * leaders agreed). Entered by rank threads (arrivals) and each node leader's progress
 * engine (network phase, run, completion).
 * Never touches another node's memory; messages go through the internal context
 * (context | SHL_CTX_INTERNAL), which no user receive can match.
 *
 * Algorithm (docs/offnode.md, "Collectives across nodes"): the members of a node meet
 * (keyed by the collective's number, as on one node). When the last local member arrives,
 * the node's leader (its member of lowest index) packs, for each local member, what the
 * collective reads from it — its arguments' shape, and its input data — into a blob and
 * sends it once to every other node's leader, receiving theirs (a blob per node holding
 * only the blocks its members read, for Gather, Scatter, Alltoall and Reduce; the node's
 * folded input, for an Allreduce with an exact op). Each node then holds every input it
 * needs exactly once, and runs the collective's on-node run function
 * on a meeting where the members of other nodes are stand-ins built from the blobs (their
 * buffers are scratch, their types dense bytes, or for reductions the leader's own type):
 * every node computes the same result in the same rank order, keeps its own members'
 * part, and completes their requests. Non-commutative and user ops fold in rank order
 * because the run sees every input. The exchange is a schedule the leader advances from
 * shl_progress, so nonblocking collectives interleave with point-to-point freely. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/internal.h"
#include "runtime/coll/net.h"
#include "runtime/comm/route.h"
#include "runtime/p2p/internal.h"

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
	struct netop *queue, **tail;
	_Atomic int queued;
	struct netop *active;         /* leader's threads, rank locked */
	bool busy;                    /* a progress call is advancing `active` */
};

/* A communicator's network state: who leads each node, and the local meetings. */
struct shl_coll_net {
	pthread_mutex_t lock;         /* guards `pending` */
	int nlocal;                   /* members on this node */
	int leader;                   /* member index of this node's leader */
	int npeers;                   /* other nodes with members */
	int *peer_world;              /* world rank of each other node's leader */
	struct shl_comm icomm;        /* internal context; world ranks as ranks */
	struct netop *pending;        /* local meetings not complete yet */
	int subset_tag;               /* a create_group's stand-in: its tag; else -1 */
	struct sub *subs;             /* create_group calls in progress on this one */
};

struct peer {
	struct shl_req *ssize, *sdata, *rsize, *rdata;
	uint64_t rlen, slen;
	char *rbuf;
	char *sblob;                  /* this peer's own blob (targeted data), or NULL */
};

/* One collective as this node sees it. */
struct netop {
	uint64_t key;
	shl_meet_fn *run;
	bool mismatch;
	int arrived;
	struct shl_comm_shared *sh;
	struct shl_coll_net *nc;
	int state;                    /* 0: queued, 1: exchanging */
	int round;                    /* exchanges done so far (creation takes several) */
	struct cre *cre;              /* communicator creation: what the rounds agreed */
	uint64_t blen;
	char *blob;
	struct peer *peer;
	int npeers;                   /* nc->npeers: nc may go once the members are completed */
	struct netop *next;
	struct shl_cargs *arg[];      /* by member index; NULL for other nodes' members */
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

/* The network state of `sh`, made by its first collective. */
static struct shl_coll_net *net_of(struct shl_comm_shared *sh)
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
static void to_leader(struct netop *op)
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

/* Join this rank's next collective on `c` with `a` (its a.req set). */
static int arrive(struct shl_comm *c, shl_meet_fn *run, struct shl_cargs *a)
{
	struct shl_comm_shared *sh = c->sh;
	struct shl_coll_net *nc = net_of(sh);
	uint64_t key = ++c->seq;
	struct netop **link, *op;
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
	if ((err = arrive(c, run, &a)) != 0)
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
	if (arrive(c, run, h) != 0) {
		shl_coll_drop_holds(&h->a);
		free(h);
		return MPI_ERR_NO_MEM;
	}
	return 0;
}

/* ---- what a member ships ---- */

/* MPI_Finalize's barrier on MPI_COMM_WORLD: everyone has arrived, nothing to move. */
static void finalize_run(struct shl_meeting *m)
{
}

/* Communicator creation's mark (never run: create_round does the work). */
static void create_run(struct shl_meeting *m)
{
}

static enum shl_coll_kind kind_of(shl_meet_fn *run)
{
	enum shl_coll_kind k = run == finalize_run ? SHL_KIND_BARRIER
			       : run == create_run ? SHL_KIND_CREATE : shl_coll_kind_move(run);

	return k != SHL_KIND_UNKNOWN ? k : shl_coll_kind_reduce(run);
}

static bool reducing(enum shl_coll_kind k)
{
	return k >= SHL_KIND_REDUCE && k <= SHL_KIND_REDUCE_SCATTER;
}

/* Elements of a reduction's input vector (a reduce-scatter's is every block). */
static uint64_t red_count(enum shl_coll_kind k, const struct shl_cargs *x, int n)
{
	uint64_t total = 0;

	if (k != SHL_KIND_REDUCE_SCATTER)
		return (uint64_t)x->scount;
	for (int i = 0; i < n; i++)
		total += (uint64_t)shl_coll_rcount(x, i);
	return total;
}

enum {
	F_SIN = 1,        /* sbuf is MPI_IN_PLACE */
	F_RIN = 2,        /* rbuf is MPI_IN_PLACE */
	F_SVEC = 4,       /* send blocks are per peer (v or w) */
	F_RVEC = 8,
	F_RDATA = 16,     /* the receive blocks' contents are input, and shipped */
};

/* A member's entry: header, block sizes, then the send blocks' data and, with F_RDATA,
 * the receive blocks'. */
struct ent {
	int32_t member, root;
	uint32_t flags, ns, nr;
	int32_t aux;                  /* communicator creation: the key */
};

/* How many blocks a member's per-peer buffers hold, and (world) the world ranks of the
 * members they go to or come from: the whole communicator, or on an intercommunicator the
 * other group. */
static int peers_of(const struct shl_comm_shared *sh, int member, const int **world)
{
	int side = sh->inter && member >= sh->gsize[0];

	if (world != NULL)
		*world = sh->world + (sh->inter && !side ? sh->gsize[0] : 0);
	return sh->inter ? sh->gsize[!side] : sh->nmembers;
}

/* What entry() takes as `n` for member `member` (and its readers' world ranks): the
 * blocks of its per-peer buffers, or for a reduction the size of its own group, whose
 * counts make a Reduce_scatter's input vector (MPI 4.1, 6.10.1). */
static int blocks_of(enum shl_coll_kind k, const struct shl_comm_shared *sh, int member,
		     const int **world)
{
	int n = peers_of(sh, member, world);

	if (reducing(k) && sh->inter)
		n = sh->gsize[member >= sh->gsize[0]];
	return n;
}

/* Send and receive blocks member `x` ships (`n` blocks for a per-peer buffer), and whether
 * its receive blocks are input. */
static void shape(enum shl_coll_kind k, const struct shl_cargs *x, int member, int n,
		  uint32_t *ns, uint32_t *nr, uint32_t *flags)
{
	*flags = (x->sbuf == MPI_IN_PLACE ? F_SIN : 0) | (x->rbuf == MPI_IN_PLACE ? F_RIN : 0);
	if (k == SHL_KIND_CREATE) {
		*flags = 0;
		*ns = *nr = 0;
		return;
	}
	if (reducing(k)) {
		*ns = x->keep_s;  /* 0: an intercommunicator's Reduce root or MPI_PROC_NULL */
		/* Reduce_scatter: the sizes of the group's blocks (no data), since on an
		 * intercommunicator the groups' counts differ. */
		*nr = k == SHL_KIND_REDUCE_SCATTER ? (uint32_t)n : 0;
		return;
	}
	if (!x->keep_s || x->sbuf == MPI_IN_PLACE)
		*ns = 0;
	else if (x->svec != SHL_VEC_NONE || k == SHL_KIND_SCATTER || k == SHL_KIND_ALLTOALL)
		*ns = (uint32_t)n;
	else
		*ns = 1;
	if (!x->keep_r || x->rbuf == MPI_IN_PLACE)
		*nr = 0;
	else if (x->rvec != SHL_VEC_NONE || k == SHL_KIND_GATHER || k == SHL_KIND_ALLGATHER ||
		 k == SHL_KIND_ALLTOALL)
		*nr = (uint32_t)n;
	else
		*nr = 1;
	if (x->svec != SHL_VEC_NONE)
		*flags |= F_SVEC;
	if (x->rvec != SHL_VEC_NONE)
		*flags |= F_RVEC;
	if (*nr > 0 && ((k == SHL_KIND_BCAST && (x->root == member || x->root == MPI_ROOT)) ||
			(x->sbuf == MPI_IN_PLACE &&
			 (k == SHL_KIND_ALLGATHER || k == SHL_KIND_ALLTOALL))))
		*flags |= F_RDATA;
}

/* A block size word with this bit: the block's data is not in the entry (the node it is
 * for has no member that reads it). */
#define SKIP (1ull << 63)

/* Whether node `dest` (-1: every node) needs block b of member `member`'s entry (`world`:
 * the world ranks of the members its blocks go to, peers_of): only the node of the member
 * that reads it, for the collectives whose blocks each go to one
 * member (Gather's and Reduce's to the root, Scatter's and Alltoall's block k to rank k). */
static bool needed(enum shl_coll_kind k, const struct shl_cargs *x, const int *world,
		   uint32_t ns, uint32_t b, int dest)
{
	int reader;

	if (dest < 0)
		return true;
	if ((k == SHL_KIND_GATHER && b < ns) || k == SHL_KIND_REDUCE)
		reader = x->root;
	else if ((k == SHL_KIND_SCATTER && b < ns && ns > 1) || (k == SHL_KIND_ALLTOALL && ns > 1))
		reader = (int)(b < ns ? b : b - ns);
	else if (k == SHL_KIND_ALLTOALL && b >= ns)
		reader = (int)(b - ns);
	else
		return true;
	return reader < 0 || (int)net.node_of[world[reader]] == dest;
}

/* Bytes of member `x`'s entry for node `dest` (-1: all of it); with `out`, write it
 * there. */
static uint64_t entry(enum shl_coll_kind k, const struct shl_cargs *x, int member, int n,
		      const int *world, int dest, char *out)
{
	uint32_t ns, nr, flags;
	uint64_t len, data = 0;

	shape(k, x, member, n, &ns, &nr, &flags);
	len = sizeof(struct ent) + 8ull * (ns + nr);
	if (out != NULL) {
		struct ent e = { member, x->root, flags, ns, nr, (int32_t)x->scount };
		memcpy(out, &e, sizeof(e));
	}
	char *sizes = out ? out + sizeof(struct ent) : NULL;
	for (uint32_t b = 0; b < ns + nr; b++) {
		uint64_t bytes;
		struct shl_coll_blk s;
		bool ship = b < ns || (flags & F_RDATA);
		if (reducing(k) && b >= ns) {
			int j = (int)(b - ns);
			s = (struct shl_coll_blk){ NULL, shl_coll_rcount(x, j), x->rtype };
		} else if (reducing(k)) {
			const void *in = x->sbuf == MPI_IN_PLACE ? x->rbuf : x->sbuf;
			s = (struct shl_coll_blk){ (char *)in, (MPI_Count)red_count(k, x, n),
						   x->stype };
		} else {
			s = b < ns ? shl_coll_sblock(x, (int)b) : shl_coll_rblock(x, (int)(b - ns));
			/* One block of a non-vector call: its whole buffer (a v or w call
			 * with one peer, on an intercommunicator, keeps its block). */
			if (b < ns && ns == 1 && x->svec == SHL_VEC_NONE)
				s = (struct shl_coll_blk){ (char *)x->sbuf, x->scount, x->stype };
			if (b >= ns && nr == 1 && x->rvec == SHL_VEC_NONE)
				s = (struct shl_coll_blk){ x->rbuf, x->rcount, x->rtype };
		}
		bytes = shl_coll_blk_bytes(s);
		if (ship && !needed(k, x, world, ns, b, dest)) {
			ship = false;
			bytes |= SKIP;
		}
		if (sizes != NULL)
			memcpy(sizes + 8 * b, &bytes, 8);
		if (ship) {
			if (out != NULL && bytes > 0)
				shl_dt_copy(out + len + data, NULL, s.p, s.t, bytes);
			data += bytes;
		}
	}
	return len + data;
}

/* ---- stand-ins for other nodes' members ---- */

/* Scratch for `cnt` elements of `t` (laid out as t says), zeroed; the block to free is
 * kept in *mem. */
static char *scratch(const struct shl_datatype *t, uint64_t cnt, void **mem)
{
	size_t ext = (size_t)(t->extent < 0 ? -t->extent : t->extent);
	size_t lb = (size_t)(t->true_lb < 0 ? -t->true_lb : t->true_lb);
	size_t pad = lb + (t->extent < 0 && cnt > 0 ? (cnt - 1) * ext : 0);
	size_t bytes = pad + cnt * ext + (size_t)t->true_extent + lb + 64;
	char *p = calloc(1, bytes);

	*mem = p;
	return p ? p + pad : NULL;
}

/* A stand-in's memory: its arguments, arrays and buffers, freed together. */
struct fake {
	struct shl_cargs x;
	void *mem[4];
	struct fake *next;
};

static void fake_free(struct fake *f)
{
	while (f != NULL) {
		struct fake *nx = f->next;
		for (int i = 0; i < 4; i++)
			free(f->mem[i]);
		free(f);
		f = nx;
	}
}

/* Build the stand-in of entry `e` (at `p`, `avail` bytes) into `f`. Returns the entry's
 * length, or 0 if it is malformed. */
static uint64_t fake_make(enum shl_coll_kind k, const struct shl_cargs *tmpl,
			  const struct shl_comm_shared *sh, const char *p, uint64_t avail,
			  struct fake *f)
{
	struct ent e;
	uint64_t len, sum_s = 0, sum_r = 0, data = 0;
	const char *sizes;
	int n;

	if (avail < sizeof(e))
		return 0;
	memcpy(&e, p, sizeof(e));
	if (e.member < 0 || e.member >= sh->nmembers)
		return 0;
	n = blocks_of(k, sh, e.member, NULL);
	if ((e.ns != 0 && e.ns != 1 && e.ns != (uint32_t)n) ||
	    (e.nr != 0 && e.nr != 1 && e.nr != (uint32_t)n))
		return 0;
	len = sizeof(e) + 8ull * (e.ns + e.nr);
	if (avail < len)
		return 0;
	sizes = p + sizeof(e);
	for (uint32_t b = 0; b < e.ns + e.nr; b++) {
		uint64_t v;
		memcpy(&v, sizes + 8 * b, 8);
		if ((v & ~SKIP) > (1ull << 47))  /* no buffer is larger; sums cannot wrap */
			return 0;
		*(b < e.ns ? &sum_s : &sum_r) += v & ~SKIP;
		if (!(v & SKIP) && (b < e.ns || (e.flags & F_RDATA)))
			data += v;
	}
	if (avail - len < data)
		return 0;
	const char *at = p + len;
	struct shl_cargs *x = &f->x;

	if (reducing(k)) {
		/* The leader's own arguments, with this member's input unpacked into its
		 * layout and a scratch result. */
		const struct shl_datatype *t = tmpl->stype;
		uint64_t cnt = t->size ? sum_s / t->size : 0;
		*x = *tmpl;
		x->a = (struct shl_arrival){ 0 };
		x->root = e.root;
		if (e.ns == 0)
			x->op = NULL;  /* contributes nothing (an intercommunicator's root side) */
		char *in = scratch(t, cnt, &f->mem[0]);
		char *out = scratch(t, cnt, &f->mem[1]);
		if (in == NULL || out == NULL)
			return 0;
		if (sum_s > 0 && data == sum_s)  /* not skipped: a Reduce's root is here */
			shl_dt_copy(in, t, at, NULL, sum_s);
		if (e.nr > 0) {
			/* Reduce_scatter: the member's group's counts, as its own. */
			MPI_Count *rc = malloc(e.nr * sizeof(*rc));
			if ((f->mem[2] = rc) == NULL || t->size == 0)
				return 0;
			for (uint32_t b = 0; b < e.nr; b++) {
				uint64_t v;
				memcpy(&v, sizes + 8 * (e.ns + b), 8);
				rc[b] = (MPI_Count)((v & ~SKIP) / t->size);
			}
			x->rvec = SHL_VEC_V;
			x->rcounts = rc;
			x->wide = true;
		}
		x->sbuf = in;
		x->rbuf = out;
		x->rtype = tmpl->stype;
		return len + data;
	}
	*x = (struct shl_cargs){ .root = e.root, .wide = true, .nv = n };
	/* Per-peer arrays: counts (bytes), byte displacements and MPI_BYTE types. */
	size_t arr = (size_t)n * (sizeof(MPI_Count) * 2 + sizeof(MPI_Aint) * 2 +
				  sizeof(MPI_Datatype));
	char *a = calloc(1, arr ? arr : 1);
	if ((f->mem[0] = a) == NULL)
		return 0;
	MPI_Count *sc = (MPI_Count *)a, *rc = sc + n;
	MPI_Aint *sd = (MPI_Aint *)(rc + n), *rd = sd + n;
	MPI_Datatype *bt = (MPI_Datatype *)(rd + n);
	for (int i = 0; i < n; i++)
		bt[i] = MPI_BYTE;
	x->stypes = x->rtypes = bt;
	x->stype = x->rtype = MPI_BYTE;
	/* Send and receive blocks dense, in order; a skipped block stays zero. */
	char *sb = e.ns ? calloc(1, sum_s ? sum_s : 1) : NULL;
	char *rb = e.nr && !(e.flags & F_RIN) ? calloc(1, sum_r ? sum_r : 1) : NULL;
	f->mem[1] = rb;
	f->mem[2] = sb;
	if ((e.ns && sb == NULL) || (e.nr && !(e.flags & F_RIN) && rb == NULL))
		return 0;
	uint64_t off = 0;
	for (uint32_t b = 0; b < e.ns + e.nr; b++) {
		uint64_t v;
		bool r = b >= e.ns;
		memcpy(&v, sizes + 8 * b, 8);
		if (b == e.ns)
			off = 0;
		if (!r) {
			sc[b] = (MPI_Count)(v & ~SKIP);
			sd[b] = (MPI_Aint)off;
		} else {
			rc[b - e.ns] = (MPI_Count)(v & ~SKIP);
			rd[b - e.ns] = (MPI_Aint)off;
		}
		if (!(v & SKIP) && (!r || (e.flags & F_RDATA))) {
			if (v > 0 && (r ? rb : sb) != NULL)
				memcpy((r ? rb : sb) + off, at, v);
			at += v;
		}
		off += v & ~SKIP;
	}
	x->sbuf = (e.flags & F_SIN) ? MPI_IN_PLACE : sb;
	if (e.ns > 0) {
		x->scount = sc[0];
		if (e.flags & F_SVEC) {
			x->svec = SHL_VEC_W;
			x->scounts = sc;
			x->sdispls = sd;
		}
	}
	if (e.flags & F_RIN) {
		x->rbuf = MPI_IN_PLACE;
	} else if (e.nr > 0) {
		x->rbuf = rb;
		x->rcount = rc[0];
		if (e.flags & F_RVEC) {
			x->rvec = SHL_VEC_W;
			x->rcounts = rc;
			x->rdispls = rd;
		}
	}
	return len + data;
}

/* ---- the leader's schedule ---- */

struct blob_head {
	int64_t fn;                   /* the run function, relative to shl_coll_start */
	uint64_t key;
	uint32_t nent;
	uint32_t lo;                  /* creation, round 0: the node's lowest free context id */
	uint32_t partial;             /* Allreduce: the body is the node's folded input */
	uint32_t pad;
};

static int64_t fn_id(shl_meet_fn *run)
{
	return (int64_t)((uintptr_t)run - (uintptr_t)&shl_coll_start);
}

/* ---- Allreduce pre-reduced per node ---- */

/* Whether this node may fold its members' inputs before the exchange: an op whose result
 * does not depend on the order (a predefined one on integers or bytes: exact), every local
 * member with the same predefined type and count. Any other case folds every member's
 * input in rank order on every node. */
static bool exact(struct netop *op)
{
	const struct shl_cargs *l = op->arg[op->nc->leader];
	const struct shl_datatype *t = l->stype;

	/* An intercommunicator's groups are folded apart: no node folds both. */
	if (op->sh->inter || l->op == NULL || l->op->kind > SHL_OP_BXOR || !t->predefined ||
	    (t->kind != SHL_DT_SIGNED && t->kind != SHL_DT_UNSIGNED && t->kind != SHL_DT_BYTES))
		return false;
	for (int j = 0; j < op->sh->nmembers; j++) {
		const struct shl_cargs *x = op->arg[j];
		if (x != NULL && (x->op == NULL || x->op->kind != l->op->kind || x->stype != t ||
				  x->scount != l->scount))
			return false;
	}
	return true;
}

static const void *input_of(const struct shl_cargs *x)
{
	return x->sbuf == MPI_IN_PLACE ? x->rbuf : x->sbuf;
}

/* Fold this node's members' inputs of `op`, in rank order, into *acc (*tmp: the step's
 * scratch, swapped with *acc as shl_fold_step does). */
static void fold_local(const struct netop *op, struct shl_fold *f, void **acc, void **tmp)
{
	bool first = true;

	for (int j = 0; j < op->sh->nmembers; j++) {
		const struct shl_cargs *x = op->arg[j];
		if (x == NULL)
			continue;
		if (first)
			shl_fold_load(f, *acc, input_of(x), x->stype);
		else
			shl_fold_step(f, acc, tmp, input_of(x), x->stype);
		first = false;
	}
}

/* The fold of this node's members' inputs (packed basic elements), for the blob. */
static char *partial_blob(struct netop *op, uint64_t *len)
{
	const struct shl_cargs *l = op->arg[op->nc->leader];
	struct blob_head h = { .fn = fn_id(op->run), .key = op->key, .partial = 1 };
	struct shl_fold f;
	char why[SHL_OP_WHY], *b;
	void *acc, *tmp;

	if (shl_fold_init(&f, l->op, l->stype, l->scount, false, why) != 0 || f.k == NULL)
		return NULL;
	acc = shl_fold_buf(&f);
	tmp = shl_fold_buf(&f);
	*len = sizeof(h) + f.bytes;
	b = malloc(*len);
	if (acc == NULL || tmp == NULL || b == NULL)
		shl_panic("collective across nodes", ENOMEM, "no memory for the network phase");
	fold_local(op, &f, &acc, &tmp);
	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), acc, f.bytes);
	shl_fold_free(&f, acc);
	shl_fold_free(&f, tmp);
	return b;
}

/* Allreduce where some node sent its folded input (so the op is exact): fold this node's
 * inputs, every other node's part (a fold, or its members' packed inputs), store. */
static int combine(struct netop *op)
{
	const struct shl_cargs *l = op->arg[op->nc->leader];
	struct shl_fold f;
	char why[SHL_OP_WHY];
	void *acc, *tmp;
	int err = 0;

	if ((err = shl_fold_init(&f, l->op, l->stype, l->scount, false, why)) != 0)
		return err;
	if (f.k == NULL)
		return MPI_ERR_OP;  /* a user op here, a predefined one on another node */
	acc = shl_fold_buf(&f);
	tmp = shl_fold_buf(&f);
	if (acc == NULL || tmp == NULL) {
		err = MPI_ERR_NO_MEM;
		goto out;
	}
	fold_local(op, &f, &acc, &tmp);
	for (int p = 0; p < op->nc->npeers && err == 0; p++) {
		const struct peer *x = &op->peer[p];
		struct blob_head h;
		memcpy(&h, x->rbuf, sizeof(h));
		if (h.partial) {
			if (x->rlen != sizeof(h) + f.bytes)
				err = MPI_ERR_COUNT;
			else
				f.k(x->rbuf + sizeof(h), acc, f.nbasic);
			continue;
		}
		/* Entries: each a reduction's one input block, packed. */
		uint64_t at = sizeof(h);
		for (uint32_t i = 0; i < h.nent && err == 0; i++) {
			struct ent e;
			uint64_t v;
			if (x->rlen - at < sizeof(e) + 8) {
				err = MPI_ERR_INTERN;
				break;
			}
			memcpy(&e, x->rbuf + at, sizeof(e));
			memcpy(&v, x->rbuf + at + sizeof(e), 8);
			at += sizeof(e) + 8ull * (e.ns + e.nr);
			if (e.ns != 1 || e.nr != 0 || v != f.bytes || x->rlen - at < v) {
				err = MPI_ERR_COUNT;
				break;
			}
			f.k(x->rbuf + at, acc, f.nbasic);
			at += v;
		}
	}
	for (int j = 0; j < op->sh->nmembers && err == 0; j++)
		if (op->arg[j] != NULL)
			shl_fold_store(&f, op->arg[j]->rbuf, op->arg[j]->rtype, acc);
out:
	shl_fold_free(&f, acc);
	shl_fold_free(&f, tmp);
	return err;
}

/* A node is never more than one round ahead of another, so rounds modulo 4 suffice. */
static int tag_of(const struct netop *op, int which)
{
	if (op->nc->subset_tag >= 0)  /* MPI_Comm_create_group: its tag, bit 30 */
		return 1 << 30 | (op->nc->subset_tag & 0x7ffffff) << 3 | (op->round & 3) << 1 |
		       which;
	return (int)((op->key & 0x3ffffffu) << 3) | ((op->round & 3) << 1) | which;
}

static struct shl_req *post(struct shl_rank *r, struct netop *op, enum shl_req_kind kind,
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

/* Send op->blob to every other leader and post the receives of theirs, for this round. */
static void exchange(struct shl_rank *r, struct netop *op)
{
	struct shl_coll_net *nc = op->nc;

	for (int p = 0; p < nc->npeers; p++) {
		struct peer *x = &op->peer[p];
		int w = nc->peer_world[p];
		if (x->sblob == NULL)
			x->slen = op->blen;
		x->rsize = post(r, op, SHL_REQ_RECV, &x->rlen, 8, w, tag_of(op, 0));
		x->ssize = post(r, op, SHL_REQ_SEND, &x->slen, 8, w, tag_of(op, 0));
		x->sdata = post(r, op, SHL_REQ_SEND, x->sblob ? x->sblob : op->blob, x->slen, w,
				tag_of(op, 1));
	}
}

/* Let go of this round's requests and received blobs. */
static void round_free(struct shl_rank *r, struct netop *op)
{
	for (int p = 0; p < op->npeers; p++) {
		struct peer *x = &op->peer[p];
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

static bool create_round(struct shl_rank *r, struct netop *op);

/* Pack this node's entries and start the exchange with every other leader. */
/* This node's blob for node `dest` (-1: for every node); its length in *len. */
static char *pack(struct netop *op, enum shl_coll_kind k, int dest, uint64_t *len)
{
	int n = op->sh->nmembers;
	struct blob_head h = { .fn = fn_id(op->run), .key = op->key,
				.nent = (uint32_t)op->nc->nlocal };
	uint64_t at = sizeof(h);
	char *b;

	*len = sizeof(h);
	for (int j = 0; j < n; j++) {
		const int *pw;
		int nb = blocks_of(k, op->sh, j, &pw);
		if (op->arg[j] != NULL)
			*len += entry(k, op->arg[j], j, nb, pw, dest, NULL);
	}
	if ((b = malloc(*len)) == NULL)
		shl_panic("collective across nodes", ENOMEM, "no memory for the network phase");
	if (k == SHL_KIND_CREATE)
		h.lo = shl_ctx_lowest_free();
	memcpy(b, &h, sizeof(h));
	for (int j = 0; j < n; j++) {
		const int *pw;
		int nb = blocks_of(k, op->sh, j, &pw);
		if (op->arg[j] != NULL)
			at += entry(k, op->arg[j], j, nb, pw, dest, b + at);
	}
	return b;
}

/* Pack this node's entries and start the exchange with every other leader: one blob for
 * all, or for collectives whose blocks each go to one member, one per node with only the
 * blocks its members read. */
static void start(struct shl_rank *r, struct netop *op)
{
	struct shl_coll_net *nc = op->nc;
	enum shl_coll_kind k = kind_of(op->run);
	bool targeted = k == SHL_KIND_GATHER || k == SHL_KIND_SCATTER || k == SHL_KIND_ALLTOALL ||
			k == SHL_KIND_REDUCE;

	op->npeers = nc->npeers;
	op->peer = calloc((size_t)nc->npeers, sizeof(*op->peer));
	if (op->peer == NULL)
		shl_panic("collective across nodes", ENOMEM, "no memory for the network phase");
	if (k == SHL_KIND_ALLREDUCE && !op->mismatch && exact(op))
		op->blob = partial_blob(op, &op->blen);
	if (!targeted && op->blob == NULL)
		op->blob = pack(op, k, -1, &op->blen);
	for (int p = 0; targeted && p < nc->npeers; p++)
		op->peer[p].sblob = pack(op, k, (int)net.node_of[nc->peer_world[p]],
					 &op->peer[p].slen);
	exchange(r, op);
	op->state = 1;
}

/* Complete every local member of `op`, as shl_comm_meet does. The last one may free the
 * communicator (op->sh, op->nc) at once: nothing of it is read after. */
static void finish_members(struct netop *op)
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

/* Every blob is in: run the collective on every member's data. */
static void compute(struct netop *op)
{
	struct shl_coll_net *nc = op->nc;
	enum shl_coll_kind k = kind_of(op->run);
	int n = op->sh->nmembers;
	struct shl_meeting *m = calloc(1, sizeof(*m) + (size_t)n * sizeof(m->arrival[0]));
	struct fake *fakes = NULL;
	int err = op->mismatch ? MPI_ERR_NOT_SAME : 0;

	if (m == NULL)
		err = MPI_ERR_NO_MEM;
	if (err == 0 && k == SHL_KIND_UNKNOWN)
		err = MPI_ERR_INTERN;
	/* Some node pre-reduced (an exact op): combine folds instead of running. */
	bool folded = false;
	for (int p = 0; err == 0 && k == SHL_KIND_ALLREDUCE && p < nc->npeers; p++) {
		struct blob_head h;
		if (op->peer[p].rlen < sizeof(h)) {
			err = MPI_ERR_INTERN;
			break;
		}
		memcpy(&h, op->peer[p].rbuf, sizeof(h));
		if (h.fn != fn_id(op->run) || h.key != op->key)
			err = MPI_ERR_NOT_SAME;
		folded = folded || h.partial;
	}
	if (err == 0 && (folded || (op->blen >= sizeof(struct blob_head) &&
				    ((struct blob_head *)op->blob)->partial))) {
		err = combine(op);
		for (int j = 0; err != 0 && j < n; j++)
			if (op->arg[j] != NULL)
				op->arg[j]->a.err = err;
		finish_members(op);
		free(m);
		return;
	}
	for (int j = 0; err == 0 && j < n; j++)
		if (op->arg[j] != NULL)
			m->arrival[j] = &op->arg[j]->a;
	/* A reduction's stand-ins take the datatype and op of a local member that passed one:
	 * the leader, or on an intercommunicator (whose Reduce's MPI_PROC_NULL members pass
	 * none) another. None: every local member is such a one, and gets nothing. */
	const struct shl_cargs *tmpl = op->arg[nc->leader];
	bool idle = false;
	if (reducing(k) && tmpl->op == NULL) {
		tmpl = NULL;
		for (int j = 0; j < n && tmpl == NULL; j++)
			if (op->arg[j] != NULL && op->arg[j]->op != NULL)
				tmpl = op->arg[j];
		idle = tmpl == NULL;
	}
	for (int p = 0; err == 0 && !idle && p < nc->npeers; p++) {
		struct peer *x = &op->peer[p];
		struct blob_head h;
		uint64_t at = sizeof(h);
		if (x->rlen < sizeof(h)) {
			err = MPI_ERR_INTERN;
			break;
		}
		memcpy(&h, x->rbuf, sizeof(h));
		if (h.fn != fn_id(op->run) || h.key != op->key) {
			err = MPI_ERR_NOT_SAME;
			break;
		}
		for (uint32_t i = 0; err == 0 && i < h.nent; i++) {
			struct fake *f = calloc(1, sizeof(*f));
			struct ent e;
			uint64_t used = 0;
			if (f != NULL) {
				f->next = fakes;
				fakes = f;
				used = fake_make(k, tmpl, op->sh, x->rbuf + at,
						 x->rlen - at, f);
			}
			if (used == 0) {
				err = f ? MPI_ERR_INTERN : MPI_ERR_NO_MEM;
				break;
			}
			memcpy(&e, x->rbuf + at, sizeof(e));
			if (e.member < 0 || e.member >= n || m->arrival[e.member] != NULL) {
				err = MPI_ERR_INTERN;
				break;
			}
			f->x.a.heap = true;  /* never waits in a blocking call here */
			m->arrival[e.member] = &f->x.a;
			at += used;
		}
	}
	for (int j = 0; err == 0 && !idle && j < n; j++)
		if (m->arrival[j] == NULL)
			err = MPI_ERR_INTERN;
	/* A Reduce whose root is on another node: the inputs were not sent here (only the
	 * roots are checked); the root's node folds them. On an intercommunicator the root
	 * is the member that passed MPI_ROOT. */
	int root = k == SHL_KIND_REDUCE && err == 0 ? op->arg[nc->leader]->root : -1;
	if (k == SHL_KIND_REDUCE && op->sh->inter) {
		root = -1;
		for (int j = 0; j < n && !idle; j++)
			if (op->arg[j] != NULL && op->arg[j]->root == MPI_ROOT)
				root = j;
		idle = idle || root < 0;
	}
	if (idle && err == 0) {
		;  /* nothing for this node's members; the root's node checks the roots */
	} else if (root >= 0 && root < n && op->arg[root] == NULL) {
		for (int j = 0; j < n; j++)
			if (((struct shl_cargs *)m->arrival[j])->root != root)
				err = MPI_ERR_ROOT;
		if (err != 0)
			for (int j = 0; j < n; j++)
				if (op->arg[j] != NULL)
					op->arg[j]->a.err = err;
	} else if (err == 0) {
		*m = (struct shl_meeting){ .key = op->key, .fn = op->run, .n = n, .sh = op->sh };
		op->run(m);
		shl_coll_share_run(m);
	} else {
		for (int j = 0; j < n; j++)
			if (op->arg[j] != NULL)
				op->arg[j]->a.err = err;
	}
	finish_members(op);
	fake_free(fakes);
	free(m);
}

/* Whether every message of `op`'s current round is in and out, posting the receive of
 * each peer's blob once its size is in. */
static bool round_done(struct shl_rank *r, struct netop *op)
{
	struct shl_coll_net *nc = op->nc;
	bool all = true;

	for (int p = 0; p < nc->npeers; p++) {
		struct peer *x = &op->peer[p];
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
static bool step(struct shl_rank *r, struct netop *op)
{
	if (op->state == 0)
		start(r, op);
	for (;;) {
		if (!round_done(r, op))
			return false;
		if (kind_of(op->run) != SHL_KIND_CREATE) {
			compute(op);
			round_free(r, op);
			break;
		}
		if (create_round(r, op))
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
	struct netop **link, *op;

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
		struct netop *nx = op->next;
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

/* ---- communicator creation ---- */

/* What the rounds of one creation agreed. */
struct cre {
	int *color, *key;             /* by member */
	int need;                     /* new communicators (distinct colors) */
	int g0;                       /* splitting an intercommunicator: its group 0's size */
	uint32_t base;                /* the window of context ids being tried */
	uint64_t mine[4];             /* ids of the window reserved on this node */
	uint64_t both[4];             /* ... and free on every node */
};

struct cre_arg {
	struct shl_cargs x;           /* first: finish_members frees it by this address */
	struct shl_net_made md;
};

static int cre_cmp(const void *a, const void *b, void *arg)
{
	const struct cre *c = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (c->color[x] != c->color[y])
		return c->color[x] < c->color[y] ? -1 : 1;
	if (c->g0 > 0 && (x >= c->g0) != (y >= c->g0))
		return x >= c->g0 ? 1 : -1;
	if (c->key[x] != c->key[y])
		return c->key[x] < c->key[y] ? -1 : 1;
	return x - y;
}

/* The ids are agreed: build this node's part of each new communicator. */
static void create_build(struct netop *op, const uint32_t *ids)
{
	struct cre *c = op->cre;
	struct shl_comm_shared *p = op->sh;
	int n = p->nmembers, nm = 0, *order = malloc((size_t)n * sizeof(int));

	if (order == NULL)
		shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator across nodes");
	for (int j = 0; j < n; j++) {
		const struct cre_arg *a = (const struct cre_arg *)op->arg[j];
		if (a != NULL && a->md.gsize0 < 0)
			c->g0 = p->gsize[0];  /* MPI_Comm_split of an intercommunicator */
		if (c->color[j] != MPI_UNDEFINED)
			order[nm++] = j;
	}
	qsort_r(order, (size_t)nm, sizeof(int), cre_cmp, c);
	for (int i = 0, e, ci = 0; i < nm; i = e, ci++) {
		int nloc = 0;
		bool off = false;
		for (e = i; e < nm && c->color[order[e]] == c->color[order[i]]; e++) {
			bool here = op->arg[order[e]] != NULL;
			nloc += here;
			off = off || !here;
		}
		/* Of an intercommunicator, a color on one side only gives MPI_COMM_NULL. */
		int k0 = 0;
		for (int j = i; c->g0 > 0 && j < e; j++)
			k0 += order[j] < c->g0;
		if (nloc == 0 || (c->g0 > 0 && (k0 == 0 || k0 == e - i))) {
			shl_ctx_unmark(ids[ci]);  /* in use only on other nodes, or not at all */
			continue;
		}
		struct shl_comm_shared *sh = shl_comm_shared_for(e - i, ids[ci], nloc);
		if (sh == NULL)
			shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
		for (int j = i; j < e; j++)
			sh->world[j - i] = p->world[order[j]];
		sh->offnode = off;
		if (c->g0 > 0) {
			sh->inter = true;
			sh->gsize[0] = k0;
			sh->gsize[1] = e - i - k0;
		}
		/* Intercomm_create, or dup of an intercommunicator: one color, in order. */
		for (int j = i; j < e; j++) {
			const struct cre_arg *a = (const struct cre_arg *)op->arg[order[j]];
			if (a == NULL || a->md.gsize0 <= 0 || a->md.gsize0 >= e - i)
				continue;
			sh->inter = true;
			sh->gsize[0] = a->md.gsize0;
			sh->gsize[1] = e - i - a->md.gsize0;
			break;
		}
		if (off)
			shl_route_add(sh);
		for (int j = i; j < e; j++) {
			struct cre_arg *a = (struct cre_arg *)op->arg[order[j]];
			if (a == NULL)
				continue;
			a->md.sh = sh;
			a->md.member = j - i;
			if (a->md.view != NULL)
				shl_comm_view(a->md.view, sh, j - i);
		}
	}
	free(order);
}

static void create_fail(struct netop *op, int err)
{
	for (int j = 0; j < op->sh->nmembers; j++)
		if (op->arg[j] != NULL)
			op->arg[j]->a.err = err;
}

/* A creation's round is complete: read it, then either start the next round (false) or
 * build the communicators and complete the members (true). Round 0 exchanged the members'
 * colors and keys and each node's lowest free id; each later round, each node's free ids
 * of the window [base, base + 256), reserved meanwhile. */
static bool create_round(struct shl_rank *r, struct netop *op)
{
	struct shl_coll_net *nc = op->nc;
	int n = op->sh->nmembers, err = 0;
	struct cre *c = op->cre;

	if (op->round == 0) {
		c = op->cre = calloc(1, sizeof(*c));
		if (c != NULL) {
			c->color = malloc((size_t)n * sizeof(int));
			c->key = malloc((size_t)n * sizeof(int));
		}
		if (c == NULL || c->color == NULL || c->key == NULL)
			shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
		for (int j = 0; j < n; j++)
			c->color[j] = INT32_MIN;
		for (int p = -1; p < nc->npeers && err == 0; p++) {
			const char *b = p < 0 ? op->blob : op->peer[p].rbuf;
			uint64_t len = p < 0 ? op->blen : op->peer[p].rlen, at = sizeof(struct blob_head);
			struct blob_head h;
			if (len < sizeof(h)) {
				err = MPI_ERR_INTERN;
				break;
			}
			memcpy(&h, b, sizeof(h));
			if (h.fn != fn_id(op->run) || h.key != op->key) {
				err = MPI_ERR_NOT_SAME;
				break;
			}
			if (h.lo > c->base)
				c->base = h.lo;
			for (uint32_t i = 0; i < h.nent; i++, at += sizeof(struct ent)) {
				struct ent e;
				if (len - at < sizeof(e)) {
					err = MPI_ERR_INTERN;
					break;
				}
				memcpy(&e, b + at, sizeof(e));
				if (e.member < 0 || e.member >= n || c->color[e.member] != INT32_MIN) {
					err = MPI_ERR_INTERN;
					break;
				}
				c->color[e.member] = e.root;
				c->key[e.member] = e.aux;
			}
		}
		for (int j = 0; j < n && err == 0; j++)
			if (c->color[j] == INT32_MIN)
				err = MPI_ERR_INTERN;
		if (err == 0 && op->mismatch)
			err = MPI_ERR_NOT_SAME;
		/* Distinct colors: sort a copy. */
		if (err == 0) {
			int *s = malloc((size_t)n * sizeof(int)), k = 0;
			if (s == NULL)
				shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
			for (int j = 0; j < n; j++)
				if (c->color[j] != MPI_UNDEFINED)
					s[k++] = c->color[j];
			for (int i = 1; i < k; i++)
				for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
					int t = s[j];
					s[j] = s[j - 1];
					s[j - 1] = t;
				}
			for (int i = 0; i < k; i++)
				c->need += i == 0 || s[i] != s[i - 1];
			free(s);
		}
	} else {
		/* Ids free on every node: the AND of every node's reserved window. */
		memcpy(c->both, c->mine, sizeof(c->both));
		for (int p = 0; p < nc->npeers; p++) {
			uint64_t m[4];
			if (op->peer[p].rlen != sizeof(struct blob_head) + sizeof(m)) {
				err = MPI_ERR_INTERN;
				break;
			}
			memcpy(m, op->peer[p].rbuf + sizeof(struct blob_head), sizeof(m));
			for (int w = 0; w < 4; w++)
				c->both[w] &= m[w];
		}
		int have = 0;
		for (int w = 0; w < 4; w++)
			have += __builtin_popcountll(c->both[w]);
		uint32_t *ids = malloc(((size_t)c->need + 1) * sizeof(*ids));
		if (ids == NULL)
			shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
		int got = 0;
		/* Keep the lowest `need` common ids; give back the rest of the window. */
		for (uint32_t i = 0; i < 256; i++) {
			bool mine = c->mine[i / 64] & (1ull << (i % 64));
			bool common = c->both[i / 64] & (1ull << (i % 64));
			if (err == 0 && have >= c->need && common && got < c->need)
				ids[got++] = c->base + i;
			else if (mine)
				shl_ctx_unmark(c->base + i);
		}
		memset(c->mine, 0, sizeof(c->mine));
		if (err == 0 && got == c->need) {
			create_build(op, ids);
			free(ids);
			goto done;
		}
		free(ids);
		c->base += 256;
	}
	round_free(r, op);
	if (err == 0 && c->need == 0)
		goto done;
	if (err == 0 && c->base + 256 > SHL_CTX_MAX)
		err = MPI_ERR_OTHER;  /* no context id is free on every node */
	if (err != 0) {
		create_fail(op, err);
		goto done;
	}
	/* Next round: reserve the window, send which of its ids are free here. */
	shl_ctx_reserve(c->base, c->mine);
	struct blob_head h = { .fn = fn_id(op->run), .key = op->key };
	op->blen = sizeof(h) + sizeof(c->mine);
	op->blob = malloc(op->blen);
	if (op->blob == NULL)
		shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator");
	memcpy(op->blob, &h, sizeof(h));
	memcpy(op->blob + sizeof(h), c->mine, sizeof(c->mine));
	op->round++;
	exchange(r, op);
	return false;
done:
	round_free(r, op);
	finish_members(op);
	if (c != NULL) {
		free(c->color);
		free(c->key);
		free(c);
	}
	return true;
}

int shl_comm_net_split(struct shl_rank *r, struct shl_comm *p, int color, int key,
		       struct shl_net_made *md, struct shl_req *q)
{
	if (q == NULL) {
		struct shl_req sq = { .magic = SHL_REQ_MAGIC, .kind = SHL_REQ_DONE, .owner = r };
		struct cre_arg a = { .x = { .root = color, .scount = key }, .md = *md };
		struct shl_coll_blocked w = { &sq, p->sh };
		int err;
		a.x.a = (struct shl_arrival){ .req = &sq };
		if ((err = arrive(p, create_run, &a.x)) != 0)
			return err;
		shl_rank_lock(r);
		shl_wait(r, shl_coll_blocked_done, &w);
		shl_rank_unlock(r);
		*md = a.md;
		return a.x.a.err;
	}
	struct cre_arg *h = calloc(1, sizeof(*h));
	if (h == NULL)
		return MPI_ERR_NO_MEM;
	h->x = (struct shl_cargs){ .root = color, .scount = key };
	h->x.a = (struct shl_arrival){ .req = q, .heap = true };
	h->md = *md;
	if (arrive(p, create_run, &h->x) != 0) {
		free(h);
		return MPI_ERR_NO_MEM;
	}
	return 0;
}

/* ---- MPI_Comm_create_group across nodes ---- */

/* One create_group call in progress on a parent: a stand-in shared object of the group's
 * members (the parent's context, so its internal messages go on the parent's internal
 * context, tagged apart), shared by the local members making the same call. */
struct sub {
	int tag;
	struct shl_comm_shared *gsh;
	int users;                    /* local members inside the call */
	bool done;                    /* completed: a new call with the same group is another */
	struct sub *next;
};

static struct sub *sub_join(struct shl_coll_net *pn, struct shl_comm_shared *p,
			    const struct shl_group *g, int tag)
{
	struct sub *u;

	pthread_mutex_lock(&pn->lock);
	for (u = pn->subs; u != NULL; u = u->next)
		if (!u->done && u->tag == tag && u->gsh->nmembers == g->size &&
		    memcmp(u->gsh->world, g->world, (size_t)g->size * sizeof(int)) == 0)
			break;
	if (u == NULL && (u = calloc(1, sizeof(*u))) != NULL) {
		size_t bytes = (sizeof(struct shl_comm_shared) + 63) / 64 * 64;
		struct shl_comm_shared *gsh = aligned_alloc(64, bytes);
		int *world = malloc((size_t)g->size * sizeof(int));
		if (gsh == NULL || world == NULL) {
			free(gsh);
			free(world);
			free(u);
			u = NULL;
			goto out;
		}
		memset(gsh, 0, bytes);
		memcpy(world, g->world, (size_t)g->size * sizeof(int));
		gsh->context = p->context;
		gsh->nmembers = gsh->gsize[0] = g->size;
		gsh->world = world;
		gsh->offnode = true;  /* its leaders send to other nodes */
		pthread_mutex_init(&gsh->lock, NULL);
		struct shl_coll_net *gn = net_of(gsh);
		if (gn == NULL) {
			free(gsh);
			free(world);
			free(u);
			u = NULL;
			goto out;
		}
		gn->subset_tag = tag;  /* before any member can arrive */
		u->tag = tag;
		u->gsh = gsh;
		u->next = pn->subs;
		pn->subs = u;
	}
	if (u != NULL)
		u->users++;
out:
	pthread_mutex_unlock(&pn->lock);
	return u;
}

static void sub_leave(struct shl_coll_net *pn, struct sub *u)
{
	bool last;

	pthread_mutex_lock(&pn->lock);
	u->done = true;
	last = --u->users == 0;
	if (last) {
		struct sub **link = &pn->subs;
		while (*link != u)
			link = &(*link)->next;
		*link = u->next;
	}
	pthread_mutex_unlock(&pn->lock);
	if (!last)
		return;
	shl_coll_net_free(u->gsh);  /* a stand-in: the parent's context stays */
	pthread_mutex_destroy(&u->gsh->lock);
	free(u->gsh->world);
	free(u->gsh);
	free(u);
}

int shl_comm_net_create_group(struct shl_rank *r, struct shl_comm *p, const struct shl_group *g,
			      int tag, int at, struct shl_net_made *md)
{
	struct shl_coll_net *pn = net_of(p->sh);
	struct sub *u = pn ? sub_join(pn, p->sh, g, tag) : NULL;
	int err;

	if (u == NULL)
		return MPI_ERR_NO_MEM;
	struct shl_comm v = { .magic = SHL_COMM_MAGIC, .context = p->context, .rank = at,
			      .size = g->size, .sh = u->gsh, .member = at };
	err = shl_comm_net_split(r, &v, 0, at, md, NULL);
	sub_leave(pn, u);
	return err;
}
