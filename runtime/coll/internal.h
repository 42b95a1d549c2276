/* What the collectives' files share: one member's arguments as the meeting sees them, the
 * call path (coll/call.c), the collectives' entries (coll/move.c, coll/reduce.c) that their
 * bindings call, argument checks (coll/check.c) and the run functions' helpers.
 * Entered by rank threads; the run functions by the member thread that arrives last at a
 * meeting. Must not be included outside coll/. */
#ifndef SHL_RUNTIME_COLL_INTERNAL_H
#define SHL_RUNTIME_COLL_INTERNAL_H

#include "runtime/comm/hooks.h"
#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/datatype/op.h"

/* How a member's per-peer blocks are described: one count for all, counts and element
 * displacements (…v), or counts, byte displacements and a type per peer (…w). */
enum shl_coll_vec { SHL_VEC_NONE, SHL_VEC_V, SHL_VEC_W };

/* One member's arguments. It lives in the member's memory (its stack when blocking, the
 * heap for an MPI_I… call) until its request completes; the run function reads every
 * member's and writes only `a.err` and the buffers the collective defines. A heap copy
 * holds its significant types and op; its `a.drop` lets them go when the meeting ends. */
struct shl_cargs {
	struct shl_arrival a;         /* first: the meeting frees a heap arrival by its address */
	const void *sbuf;             /* MPI_IN_PLACE kept as is */
	void *rbuf;
	MPI_Count scount, rcount;
	MPI_Datatype stype, rtype;
	/* The user's arrays, read in place (shl_coll_count, shl_coll_displ): int from the
	 * int calls, MPI_Count counts and MPI_Aint displacements from the …_c calls (`wide`).
	 * Never copied: the standard keeps them unchanged until the call completes. */
	const void *scounts, *sdispls, *rcounts, *rdispls;
	const MPI_Datatype *stypes, *rtypes;
	enum shl_coll_vec svec, rvec;
	bool wide;
	int root;                     /* as passed (MPI_ROOT / MPI_PROC_NULL on intercomms) */
	struct shl_op *op;
	bool keep_s, keep_r;          /* stype(s) / rtype(s) significant: held when nonblocking */
	int nv;                       /* entries of the …w type arrays */
	const char *fn;               /* the call, for the mismatch check (shl_coll_next) */
};

/* Entry k of a counts array and of a displacements array of `x`. */
static inline MPI_Count shl_coll_count(const struct shl_cargs *x, const void *a, int k)
{
	return x->wide ? ((const MPI_Count *)a)[k] : ((const int *)a)[k];
}

static inline MPI_Aint shl_coll_displ(const struct shl_cargs *x, const void *a, int k)
{
	return x->wide ? ((const MPI_Aint *)a)[k] : ((const int *)a)[k];
}

/* Receive count of block k of `x`: its entry of rcounts in a v call, else rcount (a
 * reduce-scatter's blocks). */
static inline MPI_Count shl_coll_rcount(const struct shl_cargs *x, int k)
{
	return x->rvec == SHL_VEC_V ? shl_coll_count(x, x->rcounts, k) : x->rcount;
}

/* A block of a member's buffer: where it starts, and count elements of type t. */
struct shl_coll_blk {
	char *p;
	MPI_Count count;
	MPI_Datatype t;
};

/* Block k of one side of `x`: buffer b described by (vec, count, type) or by the arrays
 * (counts, displs, types). */
static inline struct shl_coll_blk shl_coll_block(const struct shl_cargs *x, const void *b,
						 enum shl_coll_vec vec, MPI_Count count,
						 MPI_Datatype type, const void *counts,
						 const void *displs, const MPI_Datatype *types,
						 int k)
{
	char *base = (char *)b;

	switch (vec) {
	case SHL_VEC_V:
		return (struct shl_coll_blk){ base + shl_coll_displ(x, displs, k) * type->extent,
					      shl_coll_count(x, counts, k), type };
	case SHL_VEC_W:
		return (struct shl_coll_blk){ base + shl_coll_displ(x, displs, k),
					      shl_coll_count(x, counts, k), types[k] };
	default:
		return (struct shl_coll_blk){ base + (ptrdiff_t)k * count * type->extent, count,
					      type };
	}
}

/* Block k of a member's send (or receive) side. */
static inline struct shl_coll_blk shl_coll_sblock(const struct shl_cargs *x, int k)
{
	return shl_coll_block(x, x->sbuf, x->svec, x->scount, x->stype, x->scounts, x->sdispls,
			      x->stypes, k);
}

static inline struct shl_coll_blk shl_coll_rblock(const struct shl_cargs *x, int k)
{
	return shl_coll_block(x, x->rbuf, x->rvec, x->rcount, x->rtype, x->rcounts, x->rdispls,
			      x->rtypes, k);
}

static inline size_t shl_coll_blk_bytes(struct shl_coll_blk b)
{
	return (size_t)b.count * b.t->size;
}

/* How a collective call runs: waiting for it; MPI_I… (a request, started); MPI_…_init (a
 * persistent request, started by each MPI_Start). */
enum shl_coll_mode { SHL_COLL_BLOCKING, SHL_COLL_NONBLOCKING, SHL_COLL_PERSISTENT };

/* A member blocked in a collective: its request, and where large runs offer copies. */
struct shl_coll_blocked {
	struct shl_req *req;
	struct shl_comm_shared *sh;
};
/* Owner thread, as a shl_wait predicate on a struct shl_coll_blocked: take a share of the
 * copies a large run offers, then whether the request is done (acquire). */
bool shl_coll_blocked_done(void *arg);

/* Any rank thread: hold the types and op a heap copy `x` of a nonblocking member's
 * arguments names (the user may free them before the operation is done). */
void shl_coll_hold(struct shl_cargs *x);
/* Any thread (the last arriver's, or the network exchange's): let go of what
 * shl_coll_hold took, once the meeting has run or failed as a mismatch; an arrival's
 * `drop` hook. */
void shl_coll_drop_holds(struct shl_arrival *a);

/* Owner thread, rank unlocked: run collective `run` as this rank's next collective on `c`
 * with arguments `x`. Blocking: waits, sleeping, and returns the class of any error the run
 * reported. Nonblocking: copies `x` to the heap (holding its types and op until the
 * meeting has run or failed), returns once joined with *request set. Persistent: sets
 * *request to an inactive request holding a copy of `x` (and its types and op) until
 * freed; MPI_Start joins as the nonblocking call does (shl_coll_restart). Errors are
 * returned as classes; the caller reports them through shl_err. */
int shl_coll_start(struct shl_rank *r, struct shl_comm *c, const char *fn, shl_meet_fn *run,
		   const struct shl_cargs *x, MPI_Request *request, enum shl_coll_mode mode);

/* ---- the collectives' entries, called by their bindings (coll/move_bindings.c,
 * coll/reduce_bindings.c) ----
 * Each: owner thread, rank unlocked: check the arguments of MPI call `fn` made in `mode`
 * (`request`: MPI_I… and MPI_…_init calls only), choose the collective's path (a ring of
 * coll/ring.c, the flag barrier, or a meeting through shl_coll_start) and run it. Returns
 * MPI_SUCCESS or the error class, reported through the communicator's handler. `wide`: the
 * count and displacement arrays are MPI_Count and MPI_Aint (the …_c forms); `vec`: the v
 * forms. (coll/move.c, as are the five below) */
int shl_coll_barrier(const char *fn, MPI_Comm comm, MPI_Request *request, enum shl_coll_mode mode);
int shl_coll_bcast(const char *fn, void *buf, MPI_Count count, MPI_Datatype type, int root,
		   MPI_Comm comm, MPI_Request *request, enum shl_coll_mode mode);
/* Gather(v) (scatter false) and Scatter(v). */
int shl_coll_rooted(const char *fn, bool scatter, bool vec, bool wide, const void *sbuf,
		    MPI_Count scount, MPI_Datatype stype, const void *scounts, const void *sdispls,
		    void *rbuf, MPI_Count rcount, MPI_Datatype rtype, const void *rcounts,
		    const void *rdispls, int root, MPI_Comm comm, MPI_Request *request,
		    enum shl_coll_mode mode);
int shl_coll_allgather(const char *fn, bool vec, bool wide, const void *sbuf, MPI_Count scount,
		       MPI_Datatype stype, void *rbuf, MPI_Count rcount, const void *rcounts,
		       const void *rdispls, MPI_Datatype rtype, MPI_Comm comm,
		       MPI_Request *request, enum shl_coll_mode mode);
/* Alltoall, Alltoallv (vec SHL_VEC_V), Alltoallw (SHL_VEC_W: the type arrays). */
int shl_coll_alltoall(const char *fn, enum shl_coll_vec vec, bool wide, const void *sbuf,
		      MPI_Count scount, const void *scounts, const void *sdispls,
		      MPI_Datatype stype, const MPI_Datatype *stypes, void *rbuf, MPI_Count rcount,
		      const void *rcounts, const void *rdispls, MPI_Datatype rtype,
		      const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request,
		      enum shl_coll_mode mode);
/* MPI_Reduce. (coll/reduce.c, as are the three below) */
int shl_coll_reduce(const char *fn, const void *sbuf, void *rbuf, MPI_Count count,
		    MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request,
		    enum shl_coll_mode mode);
/* Allreduce, Scan and Exscan: `run` is the collective's run function, below; `intra_only`
 * refuses an intercommunicator. */
int shl_coll_symmetric(const char *fn, shl_meet_fn *run, bool intra_only, const void *sbuf,
		       void *rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
		       MPI_Request *request, enum shl_coll_mode mode);
void shl_coll_allreduce_run(struct shl_meeting *m);
void shl_coll_scan_run(struct shl_meeting *m);
void shl_coll_exscan_run(struct shl_meeting *m);
/* Reduce_scatter (`rcounts`, int or with `wide` MPI_Count) and Reduce_scatter_block
 * (`rcounts` NULL, `rcount` for every member). */
int shl_coll_reduce_scatter(const char *fn, bool wide, const void *sbuf, void *rbuf,
			    MPI_Count rcount, const void *rcounts, MPI_Datatype type, MPI_Op op,
			    MPI_Comm comm, MPI_Request *request, enum shl_coll_mode mode);

/* What a collective's run function does, as far as the network phase must know to ship a
 * member's arguments to the other nodes (coll/net.c). */
enum shl_coll_kind {
	SHL_KIND_UNKNOWN = 0,
	SHL_KIND_BARRIER, SHL_KIND_BCAST, SHL_KIND_GATHER, SHL_KIND_SCATTER, SHL_KIND_ALLGATHER,
	SHL_KIND_ALLTOALL,
	/* Reductions: every member contributes one input vector. */
	SHL_KIND_REDUCE, SHL_KIND_ALLREDUCE, SHL_KIND_SCAN, SHL_KIND_EXSCAN,
	SHL_KIND_REDUCE_SCATTER,
	SHL_KIND_CREATE,              /* communicator creation (comm split, dup) */
};

/* Which collective `run` is: coll/move.c answers for those that move data, coll/reduce.c for
 * those that combine it; SHL_KIND_UNKNOWN for any other function. */
enum shl_coll_kind shl_coll_kind_move(shl_meet_fn *run);
enum shl_coll_kind shl_coll_kind_reduce(shl_meet_fn *run);

/* ---- collectives on a communicator spanning nodes (coll/net.c) ---- */

/* Owner thread, rank unlocked, c->sh->offnode: run collective `run` with arguments `x` as
 * this rank's next collective on `c` and wait (sleeping) for it. Returns the class of the
 * error its run reported for this rank, or 0. */
int shl_coll_net_block(struct shl_rank *r, struct shl_comm *c, shl_meet_fn *run,
		       const struct shl_cargs *x);

/* Owner thread, rank unlocked, c->sh->offnode: join the next collective of `c` with a heap
 * copy of `x` (types and op held until it is done) that completes request `q`, as
 * shl_coll_start's nonblocking join does on one node. Returns 0 or MPI_ERR_NO_MEM. */
int shl_coll_net_join(struct shl_comm *c, shl_meet_fn *run, const struct shl_cargs *x,
		      struct shl_req *q);

/* Any rank thread, when `sh` is freed (shl_coll_shared_free): free its network state and
 * forget its context for arriving frames. */
void shl_coll_net_free(struct shl_comm_shared *sh);

/* ---- neighborhood collectives (coll/neighbor.c) ---- */

/* Owner thread, rank unlocked: Neighbor_allgather(v) (`allgather`: one send block for
 * every destination) or Neighbor_alltoall(v/w) (`vec`) of MPI call `fn` in `mode`, on
 * the process topology of `comm`; arguments as shl_coll_alltoall's, with one entry per
 * destination (send) and per source (receive). Returns MPI_SUCCESS or the error class,
 * reported through the communicator's handler. */
int shl_coll_neighbor(const char *fn, bool allgather, enum shl_coll_vec vec, bool wide,
		      const void *sbuf, MPI_Count scount, const void *scounts,
		      const void *sdispls, MPI_Datatype stype, const MPI_Datatype *stypes,
		      void *rbuf, MPI_Count rcount, const void *rcounts, const void *rdispls,
		      MPI_Datatype rtype, const MPI_Datatype *rtypes, MPI_Comm comm,
		      MPI_Request *request, enum shl_coll_mode mode);
/* The `run` of a persistent neighbourhood request (never called as a meeting's run):
 * shl_coll_restart hands such a request to shl_coll_neigh_restart. */
void shl_coll_neigh_run(struct shl_meeting *m);
/* Owner thread, rank unlocked (MPI_Start): start persistent neighbourhood request `q`.
 * Returns 0 or MPI_ERR_NO_MEM (left inactive). */
int shl_coll_neigh_restart(struct shl_rank *r, struct shl_req *q);
/* Owner, rank locked, from shl_coll_net_progress: complete the rank's neighbourhood
 * calls on communicators spanning nodes whose sends and receives are all done. */
void shl_coll_neigh_progress(struct shl_rank *r);
/* Any rank thread, when `sh` is freed (shl_coll_shared_free): free its neighbourhood
 * state. */
void shl_coll_neigh_free(struct shl_comm_shared *sh);

/* ---- the ring paths of small blocking collectives (coll/ring.c) ---- */

/* Any rank thread, when the shared object goes (shl_coll_shared_free): free ring `g`
 * (NULL: none was made). */
void shl_coll_ring_free(struct shl_coll_ring *g);

/* Whether a blocking MPI_Bcast of `bytes` bytes on `c` takes the ring path. Every member
 * of a correct call gets the same answer. */
bool shl_coll_small_bcast_ok(const struct shl_comm *c, size_t bytes);

/* Whether a blocking MPI_Reduce (`rooted`) or MPI_Allreduce of `bytes` bytes per member
 * on `c` takes the ring path. Every member of a correct call gets the same answer. */
bool shl_coll_small_reduce_ok(const struct shl_comm *c, size_t bytes, bool rooted);

/* Owner thread, rank unlocked, arguments checked, shl_coll_small_bcast_ok true: MPI_Bcast
 * of (buf, count, type) from rank `root`, called as `fn`. The root returns once its data
 * is in the ring, or, read from its buffer (2 members), once the reader has copied it.
 * Returns 0 or an error class (MPI_ERR_ROOT / MPI_ERR_TRUNCATE /
 * MPI_ERR_COUNT on the members that see the mismatch, MPI_ERR_NOT_SAME when another
 * member's call took another path (shl_coll_check), MPI_ERR_NO_MEM). */
int shl_coll_small_bcast(struct shl_rank *r, struct shl_comm *c, const char *fn, void *buf,
			 int count, MPI_Datatype type, int root);

/* Owner thread, rank unlocked, arguments checked, shl_coll_small_reduce_ok true:
 * MPI_Reduce to rank `root` (root >= 0) or MPI_Allreduce (root < 0) of `f`'s count
 * elements of its type with its op (shl_fold_init'ed by the caller, count at most
 * INT_MAX). A non-root of Reduce returns once its input is in the ring, or once the root
 * has read it where it is; a mismatch (roots, ops, counts) is reported to the members that
 * read the result. */
int shl_coll_small_reduce(struct shl_rank *r, struct shl_comm *c, const char *fn,
			  const void *sbuf, void *rbuf, const struct shl_fold *f, int root);

/* Whether a blocking MPI_Allgather (MPI_Alltoall, `all2all`) with receive blocks of
 * `block` bytes on `c`, in place or not, takes the ring path: intracommunicators of up to
 * 4 members. Every member of a correct call gets the same answer. */
bool shl_coll_small_move_ok(const struct shl_comm *c, bool all2all, bool in_place, size_t block);

/* Owner thread, rank unlocked, arguments checked, shl_coll_small_move_ok true:
 * MPI_Allgather (all2all false) or MPI_Alltoall of (sbuf, scount, stype) into (rbuf,
 * rcount, rtype), sbuf possibly MPI_IN_PLACE, called as `fn`. Each member publishes its
 * block(s) in its segment of the reduction ring, packed or as where they are, and copies
 * the others' out. Returns 0 or an error class
 * (MPI_ERR_TRUNCATE: a block larger than the receive block; MPI_ERR_NOT_SAME: another
 * collective at the same number on another member; MPI_ERR_NO_MEM). */
int shl_coll_small_move(struct shl_rank *r, struct shl_comm *c, const char *fn, bool all2all,
			const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
			MPI_Datatype rtype);

/* Owner thread, in ring call `k` on `c`: the data of member `other` in this round came
 * from its collective number `their` (low 32 bits), not `k`: the members' collectives are
 * out of step since some earlier call (a Bcast root, say, whose next call completed the
 * others' Barrier). Mark `c` broken as shl_coll_check does; returns MPI_ERR_NOT_SAME. */
int shl_coll_stray(struct shl_comm *c, uint64_t k, int other, uint32_t their);

/* ---- copies shared with blocked members (coll/share.c) ---- */

/* A block copy, or a fold, of at least SHL_COLL_SHARE_MIN bytes in a run is shared with
 * the members blocked in its meeting: copies in chunks of SHL_COLL_SHARE_CHUNK (the split
 * copies of point-to-point, runtime/core/rt.h), folds in one chunk per core of at least
 * SHL_COLL_SHARE_MIN and at most SHL_COLL_SHARE_CHUNK. Measured in docs/performance.md,
 * "Thresholds and constants". */
#define SHL_COLL_SHARE_MIN (32 * 1024)
#define SHL_COLL_SHARE_CHUNK SHL_P2P_SPLIT_CHUNK

/* Last arriver, in a run: record the copy of `bytes` from (src, stype) into (dst, dtype)
 * for shl_coll_share_run instead of making it. Returns 0, or -EINVAL (too small, or no
 * member waits in a blocking call to help) or -ENOMEM: then the caller copies itself. */
int shl_coll_share_add(struct shl_meeting *m, void *dst, const struct shl_datatype *dtype,
		       const void *src, const struct shl_datatype *stype, size_t bytes);

/* Last arriver, in a run: record a fold of `nin` dense inputs of `bytes` bytes (basic
 * elements of `esize` bytes) by predefined kernel `k`, in the order given, whose result
 * goes to the `nout` dense outputs; the arrays are copied. Each output may be an input
 * (MPI_IN_PLACE). Returns 0, -EINVAL (too small, nobody blocked to help, a fold already
 * recorded) or -ENOMEM: then the caller folds itself. */
int shl_coll_share_fold(struct shl_meeting *m, shl_kern *k, size_t esize, size_t bytes,
			const void *const *in, int nin, void *const *out, int nout);

/* shl_coll_share_run (comm/hooks.h) makes the recorded copies once the run returns; a run that
 * frees memory its copies read calls it first itself. */

/* A member blocked in a collective on `sh`, from its wait: copy chunks of whatever run is
 * offered on `sh`. Returns at once when none is. */
void shl_coll_share_help(struct shl_comm_shared *sh);

/* ---- calls that do not match (coll/mismatch.c) ---- */

/* How long a member blocked in a collective sleeps before it runs shl_coll_check: a
 * mismatch is reported within about this long; a blocked rank wakes 10 times a second
 * (with its poll of SHOAL_SPIN_US, 200 us: 0.2 % of a core). */
#define SHL_COLL_CHECK_NS 100000000u

/* Owner thread, blocked in its collective `k` on `c` for a while (or woken): whether that
 * call cannot complete because some member's call `k` took another path, or `c` is broken
 * already. The first member to find it marks `c` broken, fails the meetings still waiting
 * for members and wakes every member. Returns 0 or MPI_ERR_NOT_SAME. */
int shl_coll_check(struct shl_comm *c, uint64_t k);

/* Owner thread: write into `buf` which calls did not match, when `c` is broken or its
 * history shows the rank's last collective differed from another member's. Returns
 * whether it could. */
bool shl_coll_describe(struct shl_comm *c, char *buf, size_t len);

/* Report `err` from shl_coll_start through c's error handler, explaining it. */
int shl_coll_fail(struct shl_comm *c, const char *fn, int err);

static inline struct shl_cargs *shl_coll_arg(struct shl_meeting *m, int i)
{
	return (struct shl_cargs *)m->arrival[i];
}

/* Member i's group (0, or 1 for the second group of an intercommunicator) and its rank
 * in that group; the member index of rank k of group g. */
static inline int shl_coll_side(const struct shl_comm_shared *sh, int i)
{
	return sh->inter && i >= sh->gsize[0];
}

static inline int shl_coll_lrank(const struct shl_comm_shared *sh, int i)
{
	return i - (shl_coll_side(sh, i) ? sh->gsize[0] : 0);
}

static inline int shl_coll_member(const struct shl_comm_shared *sh, int g, int k)
{
	return (g ? sh->gsize[0] : 0) + k;
}

/* Record error class `err` for member i unless it already has one. */
static inline void shl_coll_bad(struct shl_meeting *m, int i, int err)
{
	if (m->arrival[i]->err == MPI_SUCCESS)
		m->arrival[i]->err = err;
}

static inline void shl_coll_bad_all(struct shl_meeting *m, int err)
{
	for (int i = 0; i < m->n; i++)
		shl_coll_bad(m, i, err);
}

/* The root's member index and the group that receives from it (or sends to it): on an
 * intracommunicator every member passes the same rank; on an intercommunicator one member
 * passes MPI_ROOT, its group's others MPI_PROC_NULL, the other group the root's rank.
 * Returns 0 or MPI_ERR_ROOT. */
int shl_coll_root(struct shl_meeting *m, int *root, int *side);

/* ---- argument checks at the MPI boundary (coll/check.c; each reports through shl_err) ---- */
/* The communicator (*c), and with `nb` (an MPI_I… or MPI_…_init call) the request pointer. */
int shl_coll_comm(const char *fn, struct shl_rank *r, MPI_Comm comm, bool nb,
		  MPI_Request *request, struct shl_comm **c);
int shl_coll_rootarg(struct shl_comm *c, const char *fn, int root);
/* A v or w array argument of `n` entries, `what` "send" or "recv": counts non-negative and
 * within bytes, types usable (`types`, or `type` for every entry); `x` says whether the
 * arrays are int or MPI_Count/MPI_Aint. */
int shl_coll_check_vec(struct shl_comm *c, const char *fn, const char *what, int n,
		       const struct shl_cargs *x, const void *counts, const void *displs,
		       const MPI_Datatype *types, MPI_Datatype type);
/* Check the info argument of an MPI_…_init call (MPI_INFO_NULL or valid; no hint is
 * used), reporting through comm's handler. */
int shl_coll_info(struct shl_rank *r, MPI_Comm comm, const char *fn, MPI_Info info);
/* Buffer argument `what` ("buffer", "sendbuf", "recvbuf") of `count` elements of `type`
 * (both checked already; 0 where a v or w call's counts are an array): MPI_ERR_BUFFER if
 * it is MPI_IN_PLACE, where the caller does not take it, or else as shl_check_buf. Inline:
 * every entry's check of its buffers. */
static inline int shl_coll_check_buf(struct shl_comm *c, const char *fn, const char *what,
				     const void *buf, MPI_Count count, MPI_Datatype type)
{
	if (buf == MPI_IN_PLACE)
		return shl_err(c, MPI_ERR_BUFFER, fn, "%s is MPI_IN_PLACE, which this call does "
			       "not take there", what);
	return shl_check_buf(c, fn, what, buf, count, type);
}
/* Owner thread, at argument validation: the receive buffer of x, its blocks 0..n-1
 * (shl_coll_rblock) with x's rbuf, counts (checked), displs and types (valid and usable), must not
 * write any location twice (coll/layout.c). A block that overlaps itself: MPI_ERR_TYPE
 * (as a point-to-point receive); two blocks whose counts and displacements overlap:
 * MPI_ERR_ARG. Exact for predefined and dense types and for blocks sharing a whole element;
 * elements of a type that interleave (extent below the true extent) are compared only
 * within one block, by shl_dt_recv_overlaps' bound. Cost: one branch for a non-v predefined
 * type; O(n) without allocation for blocks in address order (a sort otherwise). */
int shl_coll_check_rlayout(struct shl_comm *c, const char *fn, const struct shl_cargs *x, int n);

/* Whether this rank is the root at `root`: the one that receives (gather) or sends
 * (scatter). */
static inline bool shl_coll_is_root(const struct shl_comm *c, int root)
{
	return c->inter ? root == MPI_ROOT : root == c->rank;
}

#endif
