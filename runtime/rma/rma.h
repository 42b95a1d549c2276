/* One-sided communication: windows, their targets, access epochs, and the contracts between
 * the files of runtime/rma/ (win.c: creation, memory, free; object.c: attributes, names,
 * info, error handlers; access.c: the access calls; atomic.c: element-wise atomic updates;
 * sync.c: fence, post/start/complete/wait, locks, flushes; remote.c: operations on ranks of
 * other nodes). Entered by rank threads, and by whoever reads the node's connections
 * (remote.c's arrivals: the completion thread, or a rank polling them).
 *
 * rma/ is the highest layer of the runtime (core < datatype < comm < p2p < coll < rma): a
 * window runs its collectives and messages on a communicator of its own, made at creation
 * with MPI_Comm_split (no attribute copies), through the PMPI calls of the layers below.
 *
 * On a node every access is done by the origin in the call itself: a put is a copy into the
 * target's memory, an accumulate an atomic update of each element; the target takes no
 * part. An access to a rank of another node goes as a message on the window's communicator
 * (remote.c), applied by whoever reads it on the target's node, which answers the accesses
 * that return data (and requests); a flush asks the target to confirm the rest. The origin
 * counts what it waits for per target. */
#ifndef SHL_RUNTIME_RMA_H
#define SHL_RUNTIME_RMA_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "runtime/core/rt.h"
#include "runtime/datatype/op.h"

#define SHL_WIN_MAGIC 0x77696e64u

/* A lock word's exclusive bit; below it, the number of shared holders. */
#define SHL_WIN_LOCK_EXCL (UINT64_C(1) << 63)

/* An attached region of a dynamic window, [base, base + size). */
struct shl_win_region {
	char *base;
	MPI_Aint size;
};

/* A lock request from a rank of another node, queued at its target until granted. */
struct shl_rma_lockreq {
	int32_t origin;               /* the origin's world rank */
	bool exclusive;
	struct shl_rma_lockreq *next;
};

/* What one rank exposes: allocated by that rank at creation, read by every origin of its
 * node and by arrivals from other nodes, freed by it at MPI_Win_free after the closing
 * barrier. The lock word is changed with atomics by any origin; the rest under `mu`. */
struct shl_win_target {
	alignas(64) _Atomic uint64_t lock;  /* SHL_WIN_LOCK_EXCL | shared holders */
	_Atomic int waiting;          /* origins of this node asleep on the lock, plus queued
				       * requests of other nodes: a release looks at `mu` */
	pthread_mutex_t mu;           /* guards what follows */
	int *sleepers;                /* world ranks of this node's origins waiting for it */
	int nsleepers, cap_sleepers;
	struct shl_rma_lockreq *queue;   /* requests of other nodes, in arrival order */
	struct shl_win_region *regions;  /* dynamic window: attached memory, by address */
	int nregions, cap_regions;
	char *base;                   /* the rank's memory (NULL for a dynamic window) */
	MPI_Aint size;
	MPI_Aint disp_unit;
};

/* What every member knows of member i (the creation's allgather). */
struct shl_win_peer {
	char *base;                   /* its window memory (this node's members; dynamic: NULL) */
	MPI_Aint size;
	MPI_Aint disp_unit;
	int world;                    /* its world rank */
	struct shl_win_target *t;     /* its target, when on this node; NULL otherwise */
};

/* Per-target state of the origin's epochs. */
enum shl_win_lock_state { SHL_WIN_UNLOCKED, SHL_WIN_SHARED, SHL_WIN_EXCLUSIVE };
/* A lock state's mark: taken with MPI_MODE_NOCHECK, so nothing to give back. */
#define SHL_WIN_NOCHECK 4

/* One rank's window object (the handle): what the rank knows and what its epochs are.
 * Touched by the owning rank's threads only, but for `pending`, which arrivals of answers
 * from other nodes decrement. */
struct shl_win {
	uint32_t magic;
	int flavor;                   /* MPI_WIN_FLAVOR_* */
	int rank, size;               /* in the window's group */
	MPI_Comm comm;                /* the window's own communicator (MPI_Comm_split of the
				       * creator's), errors returned */
	struct shl_comm *c;           /* its object, for shl_err on a window's call */
	struct shl_win_peer *peers;   /* by rank */
	struct shl_win_target *self;  /* this rank's target */
	bool offnode;                 /* some member is on another node */
	void *alloc;                  /* what MPI_Win_allocate(_shared) allocated, to free */
	struct shl_errhandler *errh;
	const char *name;             /* NULL or name_buf */
	struct shl_attr *attrs;
	struct shl_info *info;        /* hints as given (MPI_Win_get_info), or NULL */
	/* Hints the calls act on (shl_win_hints). */
	bool no_locks;
	bool alloc_shared_noncontig;
	/* Epochs. */
	bool fence;                   /* a fence opened an epoch (no MPI_MODE_NOSUCCEED) */
	bool lock_all;                /* MPI_Win_lock_all held */
	bool lock_all_nocheck;        /* ... with MPI_MODE_NOCHECK: no lock was taken */
	int nlocked;                  /* targets locked by MPI_Win_lock */
	uint8_t *locked;              /* by rank: enum shl_win_lock_state, | SHL_WIN_NOCHECK */
	int nstart;                   /* MPI_Win_start: its group's size, -1: no epoch */
	int *start;                   /* ... its ranks in the window */
	uint8_t *in_start;            /* by rank: in the start group */
	int *rank_of_world;           /* by world rank: its rank in the window, or -1 (made
				       * by the first MPI_Win_post or MPI_Win_start) */
	int npost;                    /* MPI_Win_post: its group's size, -1: no epoch */
	int *post;                    /* ... its ranks */
	MPI_Request *post_done;       /* ... the receives of their completions */
	/* Answers awaited from other nodes, by target, and their sum: decremented (release)
	 * by the arrival of each answer, which wakes the rank. */
	_Atomic uint32_t *pending;
	_Atomic uint64_t npending;
	/* The other hints of MPI 4.1, 12.2.1, as shl_win_hints and MPI_Win_set_info set them
	 * and MPI_Win_get_info reports them. */
	uint8_t acc_ordering;         /* SHL_WIN_ORDER_* bits; 0: "none" */
	bool acc_same_op;             /* accumulate_ops: "same_op" (else "same_op_no_op") */
	bool same_size, same_disp_unit;
	MPI_Aint acc_granularity;     /* mpi_accumulate_granularity, in bytes */
	/* What MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL point
	 * to (shl_win_attrs_init); MPI_WIN_BASE is peers[rank].base itself. */
	MPI_Aint attr_size;
	int attr_disp_unit, attr_flavor, attr_model;
	char name_buf[MPI_MAX_OBJECT_NAME];
};

_Static_assert(sizeof(struct shl_win) <= SHL_HANDLE_READ_MAX,
	       "struct shl_win outgrew SHL_HANDLE_READ_MAX (core/handle.h)");

/* Windows are never predefined: a slot of the handle arena, or no window. */
static inline bool shl_win_ok(MPI_Win w)
{
	return shl_handle_in_arena(w, sizeof(*w)) && w->magic == SHL_WIN_MAGIC;
}

/* accumulate_ordering: the orderings of accumulates to one location the window keeps. */
#define SHL_WIN_ORDER_RAR 1u
#define SHL_WIN_ORDER_RAW 2u
#define SHL_WIN_ORDER_WAR 4u
#define SHL_WIN_ORDER_WAW 8u
#define SHL_WIN_ORDER_ALL 15u

/* ---- errors (object.c) ---- */

/* Report error `errclass` of MPI function `fn` on window `w` (NULL: on MPI_COMM_SELF, as
 * shl_err) through the window's error handler; the message names the function, the rank
 * and what was wrong. Returns the code to return (when the handler returns). */
int shl_win_err(struct shl_win *w, int errclass, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Owner thread: window argument `win` of call `fn`: its object in *w, or MPI_ERR_WIN
 * reported on MPI_COMM_SELF. */
int shl_win_arg(const char *fn, MPI_Win win, struct shl_win **w);

/* Owner thread, creation (`w` complete but its magic): take the hints of `info`
 * (MPI_INFO_NULL: none) that the window acts on, and keep a copy for MPI_Win_get_info.
 * Returns MPI_SUCCESS or an error class (not reported). */
int shl_win_hints(struct shl_win *w, MPI_Info info, const char *fn);

/* Owner thread, the end of a creation: the values of the predefined attributes
 * (MPI_WIN_BASE, ...), from w->flavor and w->peers[w->rank]. */
void shl_win_attrs_init(struct shl_win *w);

/* Owner thread, rank unlocked, MPI_Win_free: delete every attribute of `w` through the
 * delete callbacks. Returns MPI_SUCCESS or the failing callback's code. */
int shl_win_attrs_delete(struct shl_win *w);

/* ---- one access (access.c, remote.c) ---- */

enum shl_rma_kind { SHL_RMA_PUT, SHL_RMA_GET, SHL_RMA_ACC, SHL_RMA_GET_ACC, SHL_RMA_CAS };

/* An access call's arguments, checked. */
struct shl_rma_op {
	enum shl_rma_kind kind;
	int target;                   /* rank in the window (not MPI_PROC_NULL) */
	const void *origin;           /* PUT, ACC, GET_ACC, CAS: what is sent */
	MPI_Count ocount;
	struct shl_datatype *otype;
	void *result;                 /* GET (its origin buffer), GET_ACC, CAS */
	MPI_Count rcount;
	struct shl_datatype *rtype;
	const void *compare;          /* CAS */
	MPI_Aint disp;                /* target displacement, in the target's disp_unit (to
				       * shl_rma_remote_op: in bytes, or the address on a
				       * dynamic window) */
	MPI_Count tcount;
	struct shl_datatype *ttype;
	struct shl_op *op;            /* ACC, GET_ACC (MPI_NO_OP for a fetch only) */
	const struct shl_datatype *basic;  /* ACC, GET_ACC, CAS: the one predefined type of
					    * the target's elements */
	struct shl_req *req;          /* Rput & co: completes when the access does; or NULL */
};

/* ---- element-wise atomics (atomic.c) ---- */

/* Any thread: for `n` elements of predefined type `basic` at `dst` (`basic->extent` apart),
 * each atomically with respect to every other call here on the same element: old = dst[i];
 * dst[i] = src[i] op old (MPI_REPLACE: src[i]; MPI_NO_OP: old); fetch[i] = old when
 * `fetch` is not NULL. `src` (NULL for MPI_NO_OP) and `fetch` hold packed elements
 * (basic->size bytes each). `k`
 * is the op's kernel (shl_fold_init's), NULL for MPI_REPLACE and MPI_NO_OP. */
void shl_rma_atomic(enum shl_op_kind op, shl_kern *k, const struct shl_datatype *basic,
		    char *dst, const void *src, void *fetch, size_t n);

/* Any thread: atomically, old = *dst; if old equals *compare, *dst = *src (one element of
 * predefined type `basic`, packed). */
void shl_rma_cas(const struct shl_datatype *basic, char *dst, const void *src,
		 const void *compare, void *old);

/* ---- the target's lock (sync.c) ---- */

/* Any thread: take the lock of `t` for one holder, shared or exclusive, if free for it.
 * Returns whether it did. */
bool shl_rma_lock_try(struct shl_win_target *t, bool exclusive);

/* Any thread: give back a hold of the lock of `t` taken by shl_rma_lock_try, then wake the
 * node's origins waiting for it and grant what requests of other nodes it can now
 * (shl_rma_remote_grant). */
void shl_rma_lock_release(struct shl_win_target *t, bool exclusive);

/* ---- ranks of other nodes (remote.c) ---- */

/* Tags of sync.c's messages on a window's communicator (a post, a completion), matched like
 * any message; remote.c's frames take the tags from SHL_RMA_TAG_BASE (comm/route.h) up. */
#define SHL_RMA_TAG_POST 1
#define SHL_RMA_TAG_COMPLETE 2

/* Owner, rank unlocked: send access `op` to its target on another node. An access that
 * returns data, or has a request (`op->req`), is answered: counted in w->pending until
 * then (a GET's data is in its buffer, the request complete). A put or accumulate without
 * a request is not: shl_rma_remote_flush asks the target to confirm it. Returns
 * MPI_SUCCESS or an error class (MPI_ERR_NO_MEM). */
int shl_rma_remote_op(struct shl_rank *r, struct shl_win *w, const struct shl_rma_op *op);

/* Owner, rank unlocked: wait until every access to `target` (-1: to every target) has been
 * applied and answered (unanswered ones confirmed by one FLUSH frame per target). Returns MPI_SUCCESS or the first error class a target reported for them
 * (MPI_ERR_RMA_RANGE: outside an attached region of a dynamic window). */
int shl_rma_remote_flush(struct shl_rank *r, struct shl_win *w, int target);

/* Owner, rank unlocked: take the lock of `target`, on another node, waiting (asleep) until
 * it is granted. Returns MPI_SUCCESS or an error class. */
int shl_rma_remote_lock(struct shl_rank *r, struct shl_win *w, int target, bool exclusive);

/* Owner, rank unlocked: give the lock of `target` back (after shl_rma_remote_flush). */
int shl_rma_remote_unlock(struct shl_rank *r, struct shl_win *w, int target, bool exclusive);

/* Any thread, after the lock of `t` was released: grant the queued requests of other nodes
 * that can now have it, in order (a shared request behind an exclusive one waits). */
void shl_rma_remote_grant(struct shl_win_target *t);

/* Owner, rank unlocked, creation of a window spanning nodes, before the exchange that
 * publishes its target: make `t` reachable by arrivals for `w` (its world rank on the
 * window's communicator's context); shl_rma_remote_forget at MPI_Win_free, after the
 * closing barrier. Return 0 or -ENOMEM. */
int shl_rma_remote_expose(struct shl_win *w, struct shl_win_target *t);
void shl_rma_remote_forget(struct shl_win *w);

/* ---- checks shared by the calls (access.c) ---- */

/* Whether the rank has an access epoch open to `target` on `w` (fence, start group, lock
 * or lock_all). */
static inline bool shl_win_can_access(const struct shl_win *w, int target)
{
	return w->fence || w->lock_all || (w->nlocked > 0 && w->locked[target]) ||
	       (w->nstart >= 0 && w->in_start[target]);
}

#endif
