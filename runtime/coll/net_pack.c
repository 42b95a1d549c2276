/* What crosses between nodes for a collective, and how a node runs it on what arrives:
 * the blob a node's leader packs from its members' arguments (each member's entry: the
 * shape of its arguments and the input data the collective reads from it; for the
 * collectives whose blocks each go to one member, only the blocks a node's members read),
 * and, from the blobs of the other nodes, stand-ins of their members (scratch buffers,
 * dense byte types, or for reductions the leader's own type and op) with which the
 * collective's on-node run function runs for every member (shl_coll_net_compute).
 * Entered by the node leader's progress engine, inside its exchange (coll/net.c). Must not
 * send or wait: the schedule does; a malformed blob is an error, never a crash. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/net_internal.h"

/* ---- what a member ships ---- */

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
	return reader < 0 || shl_coll_net_node_of(world[reader]) == dest;
}

/* Bytes of member `x`'s entry for node `dest` (-1: all of it); with `out`, write it
 * there. */
static uint64_t entry(enum shl_coll_kind k, const struct shl_cargs *x, int member, int n,
		      const int *world, int dest, char *out)
{
	uint32_t ns, nr, flags;
	uint64_t len, data = 0;

	shape(k, x, member, n, &ns, &nr, &flags);
	len = sizeof(struct shl_net_ent) + 8ull * (ns + nr);
	if (out != NULL) {
		struct shl_net_ent e = { member, x->root, flags, ns, nr, (int32_t)x->scount };
		memcpy(out, &e, sizeof(e));
	}
	char *sizes = out ? out + sizeof(struct shl_net_ent) : NULL;
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
	struct shl_net_ent e;
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

/* ---- a node's blob ---- */

char *shl_coll_net_pack(struct shl_netop *op, enum shl_coll_kind k, int dest, uint64_t *len)
{
	int n = op->sh->nmembers;
	struct shl_net_head h = { .fn = shl_coll_net_fn_id(op->run), .key = op->key,
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

/* ---- the run on every member's data ---- */

void shl_coll_net_compute(struct shl_netop *op)
{
	struct shl_coll_net *nc = op->nc;
	enum shl_coll_kind k = shl_coll_net_kind(op->run);
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
		struct shl_net_head h;
		if (op->peer[p].rlen < sizeof(h)) {
			err = MPI_ERR_INTERN;
			break;
		}
		memcpy(&h, op->peer[p].rbuf, sizeof(h));
		if (h.fn != shl_coll_net_fn_id(op->run) || h.key != op->key)
			err = MPI_ERR_NOT_SAME;
		folded = folded || h.partial;
	}
	if (err == 0 && (folded || (op->blen >= sizeof(struct shl_net_head) &&
				    ((struct shl_net_head *)op->blob)->partial))) {
		err = shl_coll_net_combine(op);
		for (int j = 0; err != 0 && j < n; j++)
			if (op->arg[j] != NULL)
				op->arg[j]->a.err = err;
		shl_coll_net_finish(op);
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
		struct shl_net_peer *x = &op->peer[p];
		struct shl_net_head h;
		uint64_t at = sizeof(h);
		if (x->rlen < sizeof(h)) {
			err = MPI_ERR_INTERN;
			break;
		}
		memcpy(&h, x->rbuf, sizeof(h));
		if (h.fn != shl_coll_net_fn_id(op->run) || h.key != op->key) {
			err = MPI_ERR_NOT_SAME;
			break;
		}
		for (uint32_t i = 0; err == 0 && i < h.nent; i++) {
			struct fake *f = calloc(1, sizeof(*f));
			struct shl_net_ent e;
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
	shl_coll_net_finish(op);
	fake_free(fakes);
	free(m);
}
