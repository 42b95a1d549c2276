/* Communicators, groups, attributes, info and error handlers as the runtime sees them: one
 * object per rank per communicator (what differs between ranks), one shared object per
 * communicator (what its members agree on), the meeting where members run collectives and
 * create communicators, and what constructors build with. Entered by rank threads. Must
 * not touch another rank's communicator objects. What comm/ calls in the layers above it
 * is declared in comm/hooks.h. */
#ifndef SHL_RUNTIME_COMM_H
#define SHL_RUNTIME_COMM_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "runtime/core/handle.h"

#define SHL_COMM_MAGIC 0x636f6d6du
#define SHL_ERRH_MAGIC 0x65727268u
#define SHL_GROUP_MAGIC 0x67727570u
#define SHL_INFO_MAGIC 0x696e666fu

/* Context ids of the predefined communicators. Every other communicator's id comes from
 * shl_ctx_agree; ids are below SHL_CTX_MAX, so `context | SHL_CTX_INTERNAL` is free for a
 * communicator's internal point-to-point traffic (collectives that must go through
 * messages, e.g. off-node) and never matches a user's message. */
#define SHL_CTX_WORLD 0
#define SHL_CTX_SELF 1
#define SHL_CTX_INTERNAL 0x80000000u
/* Context ids live in a bitmap of this many bits (128 KiB): a million communicators alive
 * at once on a node; MPICH allows 2048–16384. */
#define SHL_CTX_MAX (1u << 20)

struct shl_rank;
struct shl_bsend_buffer;
struct shl_req;
struct shl_coll_net;
struct shl_coll_neigh;

/* ---- error handlers ---- */
enum shl_errh_kind { SHL_ERRH_FATAL, SHL_ERRH_RETURN, SHL_ERRH_ABORT, SHL_ERRH_USER };

/* The objects a handler may be set on: a user handler fits the kind it was created for
 * (MPI 4.1, 9.3), a predefined one any. */
/* The values 1 to 4 are also SHL_F_ERRH_* of runtime/fortran/callbacks.h. */
enum shl_errh_obj { SHL_ERRH_ANY, SHL_ERRH_COMM, SHL_ERRH_WIN, SHL_ERRH_SESSION, SHL_ERRH_FILE };

/* Predefined handlers are immutable; a user handler is created by one rank and lives while
 * `refs` (its handle plus each communicator or window using it) is above zero. */
struct shl_errhandler {
	uint32_t magic;
	enum shl_errh_kind kind;
	enum shl_errh_obj obj;
	bool fortran;                      /* fn is a shl_f_errhandler_function (Fortran) */
	union {                            /* SHL_ERRH_USER, by `obj` */
		MPI_Comm_errhandler_function *comm;
		MPI_Win_errhandler_function *win;
		MPI_Session_errhandler_function *session;
		MPI_File_errhandler_function *file;
	} fn;
	_Atomic int refs;                  /* SHL_ERRH_USER only */
	_Atomic int handles;               /* SHL_ERRH_USER: handles the user holds (from
					    * MPI_Comm_create_errhandler and each
					    * MPI_Comm_get_errhandler), each freed once */
};

/* An error handler written in Fortran: the object's Fortran integer and the error code,
 * both by reference. */
typedef void shl_f_errhandler_function(MPI_Fint *handle, MPI_Fint *code);

/* Exported for libmpifort (runtime/fortran/callbacks.h): a user error handler for objects
 * of kind `obj` (SHL_ERRH_COMM, _WIN, _SESSION, _FILE: 1 to 4) whose function is written in
 * Fortran; errors as MPI_Comm_create_errhandler and its twins. */
int shl_f_errhandler_create(int obj, shl_f_errhandler_function *fn, MPI_Errhandler *errhandler);

/* Any rank thread: take / drop a reference on `e` (no-ops on predefined handlers). */
void shl_errh_hold(struct shl_errhandler *e);
void shl_errh_drop(struct shl_errhandler *e);
/* Whether `e` is an error handler the user may still name: predefined, or user-defined
 * with a handle not yet freed (an object may keep a freed one alive). */
bool shl_errh_ok(const struct shl_errhandler *e);

/* Whether `e` may be set on an object of kind `obj` (MPI_*_set_errhandler): MPI_SUCCESS, or
 * MPI_ERR_ERRHANDLER (no valid handler) or MPI_ERR_ARG (made for the other kind), *why
 * saying so. */
int shl_errh_fit(const struct shl_errhandler *e, enum shl_errh_obj obj, const char **why);
/* The object's handler `*slot` becomes `e` (held; the old one dropped). */
void shl_errh_replace(struct shl_errhandler **slot, struct shl_errhandler *e);
/* `e` as a new handle for the user (MPI_*_get_errhandler), who frees it with
 * MPI_Errhandler_free. Returns `e`. */
struct shl_errhandler *shl_errh_give(struct shl_errhandler *e);

/* Any rank thread: raise error `errclass` of MPI function `fn` through handler `eh` of an
 * object: MPI_ERRORS_RETURN returns; a user handler gets `handle` (the address of the
 * MPI_Comm, MPI_Win, MPI_Session or MPI_File the user knows, as eh->obj says) and the code; MPI_ERRORS_ARE_FATAL
 * and MPI_ERRORS_ABORT end the job with a message naming the function, the rank, `what`
 * and `objname` (the object's name, e.g. "a communicator"). Returns `errclass`. */
int shl_err_raise(struct shl_errhandler *eh, void *handle, const char *objname, int errclass,
		  const char *fn, const char *what);

/* ---- groups (comm/group.c) ---- */
/* An ordered set of world ranks; immutable once built, owned by the rank that built it. */
struct shl_group {
	uint32_t magic;
	bool predefined;              /* MPI_GROUP_EMPTY: never freed */
	int size;
	int *world;                   /* world rank of each member (its own allocation: the
				       * object is a slot of the handle arena, core/handle.h) */
	/* A process set's group (MPI_Group_from_session_pset): its session's buffer holder,
	 * which communicators made from it use (MPI_Comm_create_from_group); else NULL. */
	struct shl_bsend_buffer *bsend_session;
};

/* A new group of `size` members (world[] to be filled by the caller), or NULL. */
struct shl_group *shl_group_new(int size);
/* Free a group made by shl_group_new (NULL: nothing). */
void shl_group_free(struct shl_group *g);
static inline bool shl_group_ok(MPI_Group g)
{
	return shl_handle_mapped(g, sizeof(*g)) && g->magic == SHL_GROUP_MAGIC;
}
/* The member index of world rank `w` in `g`, or MPI_UNDEFINED. */
int shl_group_find(const struct shl_group *g, int w);

/* ---- info (comm/info.c) ---- */
struct shl_info_entry {
	char *key;
	char *value;
};

/* A rank's info object: keys in insertion order (MPI_Info_get_nthkey is stable). */
struct shl_info {
	uint32_t magic;
	bool predefined;              /* MPI_INFO_ENV's sentinel: resolved per rank */
	int n, cap;
	struct shl_info_entry *e;
};

/* The rank's object for info handle `h` (MPI_INFO_ENV resolved), or NULL if invalid. */
struct shl_info *shl_info_get(struct shl_rank *r, MPI_Info h);
/* A copy of `src` (NULL: an empty info), or NULL when out of memory. */
struct shl_info *shl_info_dup(const struct shl_info *src);
/* Set `key` of `info` to `value` (both copied, of valid lengths). Returns 0 or -ENOMEM. */
int shl_info_set(struct shl_info *info, const char *key, const char *value);
void shl_info_free(struct shl_info *info);

/* ---- attributes (comm/attr.c) ---- */
struct shl_attr {
	struct shl_keyval *kv;
	void *val;
	struct shl_attr *next;
};

/* Communicator, datatype and window keyvals share one id space; a keyval works only on the
 * kind of object it was created for (MPI 4.1, 7.7). */
enum shl_keyval_kind { SHL_KEYVAL_COMM, SHL_KEYVAL_TYPE, SHL_KEYVAL_WIN };

/* Owner thread, rank unlocked: the attribute calls on an object's list of attributes at
 * `head` (only the owner's calls change it), for keyvals of `kind`; `obj` is the handle the
 * delete callbacks get. The caller checks the object and reports. Each returns
 * MPI_SUCCESS, -EINVAL (`id` is not a live user keyval of `kind` of this rank), -ENOMEM,
 * or a delete callback's failing code (the attribute stays). shl_attr_set replaces a
 * value through the delete callback; shl_attr_get sets *flag and, if set, *val;
 * shl_attr_delete returns -ENOENT when the object has no attribute for `id`;
 * shl_attr_delete_list deletes every attribute, newest first. */
int shl_attr_set(struct shl_rank *r, enum shl_keyval_kind kind, struct shl_attr **head,
		 void *obj, int id, void *val);
int shl_attr_get(struct shl_rank *r, enum shl_keyval_kind kind, struct shl_attr **head, int id,
		 void **val, int *flag);
int shl_attr_delete(struct shl_rank *r, enum shl_keyval_kind kind, struct shl_attr **head,
		    void *obj, int id);
int shl_attr_delete_list(struct shl_rank *r, struct shl_attr **head, void *obj);

/* ---- the shared part of a communicator ---- */

/* One member's part in a meeting. It lives in the member's own memory (its stack for a
 * blocking call) until `req` completes; the meeting's compute reads `in` and writes only
 * `out` and `err`, then completes `req` (release: the member reads out/err after). */
struct shl_arrival {
	struct shl_req *req;
	const void *in;
	void *out;
	int err;                      /* MPI error class compute reports to this member, or 0 */
	bool heap;                    /* malloc'ed by a nonblocking call: the meeting frees it */
	/* Heap arrivals, or NULL: let go of what the member held for the meeting (types, op).
	 * Called by the last arriver once the meeting has run or failed as a mismatch, before
	 * `req` completes; a mismatch runs no `fn`, so no `fn` may do this itself. */
	void (*drop)(struct shl_arrival *a);
};

struct shl_meeting;
/* A meeting's work, run once by the last member to arrive, in its thread, holding no lock. */
typedef void shl_meet_fn(struct shl_meeting *m);

/* A collective operation some members have joined: created by the first, run and freed by
 * the last. Fields other than `arrival[member]` are guarded by the shared object's lock. */
struct shl_coll_share;
struct shl_meeting {
	uint64_t key;
	shl_meet_fn *fn;
	bool mismatch;                /* members arrived with different operations */
	int n, arrived;
	struct shl_comm_shared *sh;
	struct shl_coll_share *share; /* copies the run left to share (coll/share.c), or NULL */
	struct shl_meeting *next;
	struct shl_arrival *arrival[];   /* by member index */
};

/* Rings of cells for the small blocking collectives of an intracommunicator (coll/ring.c),
 * allocated by the first member that needs one; shared_free frees them. */
enum shl_ring_kind { SHL_RING_BCAST, SHL_RING_REDUCE, SHL_RING_KINDS };
struct shl_coll_ring;

/* What the members of a communicator share: fixed at creation except the lock-guarded
 * meetings, the atomic counter and the rings. Members are indexed 0..nmembers-1: group 0
 * (the intracommunicator's group, or an intercommunicator's first group) then group 1;
 * member j is rank shl_job.ranks[world[j]], which is whom to shl_rank_wake.
 *
 * How a collective uses it. Every collective call on a communicator, creation included,
 * takes the next number k (shl_coll_next, which also notes the call in the member's row
 * of `hist`); MPI orders collectives per communicator, so all members agree on k even
 * with nonblocking ones outstanding. A member blocked in any path looks at the others'
 * rows now and then (shl_coll_check): calls at one number on different paths can never
 * complete.
 *  - General path (any operation, blocking or not, overlapping allowed): each member joins
 *    meeting k with shl_comm_meet (its buffers as `in`/`out`); the last arriver's `fn` does
 *    the data movement for everyone (it may read and write every member's buffers: they
 *    share the address space), then every member's request completes. Blocking calls use
 *    shl_comm_meet_wait; an MPI_I* call keeps a heap arrival and returns its request.
 *  - Flag path (blocking barrier): atomic_fetch_add(&arrived, 1); the member that brings
 *    it to m * nmembers (its m-th barrier) wakes every member; the others shl_wait for
 *    arrived >= m * nmembers. Each flag protocol keeps its own count m per rank object,
 *    since blocking and nonblocking calls may interleave on one communicator.
 *  - Ring path (small blocking Bcast, Reduce, Allreduce on an intracommunicator): the
 *    members copy through cells of ring[kind] (coll/ring.c), numbered by their own count
 *    per kind; a root does not wait for readers unless the ring is full. */
struct shl_comm_shared {
	uint32_t context;
	bool inter;
	int nmembers;
	int gsize[2];                 /* group sizes; gsize[1] is 0 on an intracommunicator */
	int *world;                   /* nmembers world ranks, group 0 then group 1 */
	/* Some member is a rank of another node: collectives go through coll/net.c
	 * (MPI_COMM_WORLD of a multi-node job, what dup/split/create(_group) make from such a
	 * communicator, intercommunicators of Intercomm_create whose groups or leaders are on
	 * different nodes, and what merge/dup/split/create make from those). */
	bool offnode;
	/* What each member called at its last SHL_COLL_HIST collectives, a row of entries
	 * per member that only it writes (shl_coll_next), read by a member blocked too long
	 * (shl_coll_check); and whether two members' calls at one number took different
	 * paths, which leaves the paths' counters out of step: then every collective on the
	 * communicator fails at entry. Set once under `lock`, after `bad` (release). */
	_Atomic uint64_t *hist;
	_Atomic bool broken;
	struct shl_coll_net *_Atomic net;  /* offnode: coll/net.c's state, made on first use */
	struct shl_coll_neigh *_Atomic neigh;  /* coll/neighbor.c's state, made on first use */
	_Atomic int refs;             /* per-rank objects still referring to this one */
	pthread_mutex_t lock;         /* guards `meetings` and each meeting's bookkeeping */
	struct shl_meeting *meetings; /* meetings not everyone has joined yet */
	/* For the collectives: the flag barrier's counter; the rings, NULL until first used. */
	alignas(64) _Atomic uint64_t arrived;
	struct shl_coll_ring *_Atomic ring[SHL_RING_KINDS];
	/* A run's copies offered to the members blocked in its meeting, and how many of them
	 * are looking at the offer (coll/share.c). */
	alignas(64) struct shl_coll_share *_Atomic share;
	_Atomic int share_users;
	/* The two calls found not to match when `broken` was set (under `lock`). */
	struct shl_coll_bad {
		uint64_t k;
		int member[2];
		const char *fn[2];    /* fn[1] NULL: member[1]'s call at k is not known */
		uint64_t their_k;     /* stray: the number member[1]'s data came with, or 0 */
	} bad;
};

/* How a collective call runs, as the mismatch check compares members' calls: paths that
 * cannot see each other's members must not meet at one collective number. */
enum shl_coll_path { SHL_COLL_MEET, SHL_COLL_FLAG, SHL_COLL_RING_BCAST, SHL_COLL_RING_REDUCE };

/* Collectives kept in each member's history: a member blocked in collective k finds what
 * the others called at k while none is this many calls ahead (a small Bcast's root runs up
 * to 64 rounds ahead of its readers: coll/ring.c). */
#define SHL_COLL_HIST 128

/* A history entry: the number's low 15 bits, the path, and the name's address (user space
 * addresses fit in 47 bits on x86-64). */
static inline uint64_t shl_coll_entry(uint64_t k, enum shl_coll_path path, const char *fn)
{
	return (k & 0x7fff) << 49 | (uint64_t)path << 47 | (uint64_t)(uintptr_t)fn;
}

/* Owner thread: what error `err` of a collective (or creation call) on `c` means for the
 * user, in `buf` (shl_coll_describe's text for MPI_ERR_NOT_SAME). Returns `buf`. Used for
 * the call's own report, and by shl_coll_why_status (core/hooks.h) for the wait that
 * completes a nonblocking one. (coll/call.c) */
struct shl_comm;
const char *shl_coll_why(struct shl_comm *c, int err, char *buf, size_t len);

/* ---- the meeting (comm/meet.c) ---- */

/* Any rank thread: join the meeting `key` of `sh` as member `member` of `n`, running `fn`
 * when everyone has joined (in the last arriver's thread). Keys 1..2^63-1 are collective
 * operations numbered by each member's c->seq (all members number them alike: MPI orders
 * collectives per communicator); keys with bit 63 set are rendezvous of a subset
 * (MPI_Comm_create_group). Never blocks; `a` must stay valid until a->req completes.
 * Returns 0 or -ENOMEM. Members arriving with different `fn` all get MPI_ERR_NOT_SAME,
 * and so does a numbered meeting on a broken communicator, at once. */
int shl_comm_meet(struct shl_comm_shared *sh, uint64_t key, int n, int member, shl_meet_fn *fn,
		  struct shl_arrival *a);

/* Owner thread, rank unlocked: join like shl_comm_meet and wait (sleeping) until the
 * meeting has run. Returns the arrival's error class, or MPI_ERR_NO_MEM. */
int shl_comm_meet_wait(struct shl_rank *r, struct shl_comm_shared *sh, uint64_t key, int n,
		       int member, shl_meet_fn *fn, const void *in, void *out);

/* Owner thread, rank unlocked: join the next collective of `c` (all members), called
 * `name`, with `in` and `out` as the arrival's, and wait for it, checking now and then
 * that every member called something that meets (shl_coll_check). Returns the arrival's
 * error class, or MPI_ERR_NO_MEM. */
int shl_comm_meet_all(struct shl_rank *r, struct shl_comm *c, const char *name, shl_meet_fn *fn,
		      const void *in, void *out);

/* ---- context ids (comm/context.c) ---- */

/* Last arriver of a meeting: agree on a fresh context id for a new communicator of the
 * node's ranks. Returns 0 and *ctx, or -ENOSPC. Ids of communicators spanning nodes are
 * agreed by the node leaders instead (coll/net_create.c, with shl_ctx_reserve below). */
int shl_ctx_agree(uint32_t *ctx);

/* For communicator creation across nodes (coll/net_create.c), process-wide, any rank thread:
 * the lowest context id not in use on this node; mark in use every id of
 * [base, base + 256) that is free, setting its bit in mask (4 words); mark id `id` free;
 * a shared object of `n` members (world[] unfilled) with context `ctx` and `refs`
 * references, or NULL. */
uint32_t shl_ctx_lowest_free(void);
/* Whether context id `id` is marked in use (a hint: read without the lock). */
bool shl_ctx_in_use(uint32_t id);
void shl_ctx_reserve(uint32_t base, uint64_t mask[4]);
void shl_ctx_unmark(uint32_t id);
struct shl_comm_shared *shl_comm_shared_for(int n, uint32_t ctx, int refs);

/* ---- building communicators (comm/object.c) ---- */

/* Any rank thread (a creation's last arriver, or a leader): a shared object with a fresh
 * context id (shl_ctx_agree) for groups of n0 and n1 members (n1 > 0 only for an
 * intercommunicator), world[] unfilled, one reference per member; or NULL, *err saying
 * why (MPI_ERR_NO_MEM, or MPI_ERR_OTHER: every context id is in use). */
struct shl_comm_shared *shl_comm_shared_make(int n0, int n1, bool inter, int *err);

/* What the last arriver of a creation hands a member: its place in a new shared object,
 * or none. */
struct shl_comm_made {
	struct shl_comm_shared *sh;   /* NULL: the member gets MPI_COMM_NULL */
	int member;
};

/* Last arriver of a meeting of a group's members (MPI_Comm_create_group,
 * MPI_Comm_create_from_group) that found their arguments agree (err MPI_SUCCESS) or not
 * (err, e.g. MPI_ERR_NOT_SAME): hand each member its place in one new shared object of
 * group `g`'s ranks with a fresh context id, or `err`. Each arrival's `out` is a struct
 * shl_comm_made. (comm/create.c) */
void shl_comm_made_of_group(struct shl_meeting *m, const struct shl_group *g, int err);

/* ---- communicators ---- */
struct shl_comm;

/* Owner thread: make `c` the rank's view of member `member` of `sh` (creation). */
void shl_comm_view(struct shl_comm *c, struct shl_comm_shared *sh, int member);

/* Owner thread: turn `md` into the rank's new communicator *newcomm (or MPI_COMM_NULL),
 * inheriting `parent`'s error handler. MPI_SUCCESS, or MPI_ERR_NO_MEM reported on parent
 * for `fn` (md's reference dropped). */
int shl_comm_adopt(struct shl_comm *parent, const struct shl_comm_made *md, MPI_Comm *newcomm,
		   const char *fn);

/* Owner thread: the rank's object *c for the communicator argument `comm` of MPI call `fn`,
 * or MPI_ERR_COMM reported (on no communicator); _intra also refuses an
 * intercommunicator (reported on it). */
int shl_comm_arg(const char *fn, struct shl_rank *r, MPI_Comm comm, struct shl_comm **c);
int shl_comm_arg_intra(const char *fn, struct shl_rank *r, MPI_Comm comm, struct shl_comm **c);

enum shl_predef_comm { SHL_COMM_NOT_PREDEF = 0, SHL_COMM_IS_WORLD, SHL_COMM_IS_SELF };

/* One rank's view of a communicator: what differs between ranks (rank, error handler,
 * attributes, name) is here, so each rank has its own object; `sh` is what members share.
 * The predefined handles are sentinels that shl_comm_get maps to the rank's own object.
 * Touched only by the owning rank's threads (attributes and name under the rank lock). */
struct shl_comm {
	uint32_t magic;
	enum shl_predef_comm predef;
	uint32_t context;
	int rank;
	int size;
	const int *world;             /* local group: comm rank -> world rank; NULL: identity */
	bool inter;
	int remote_size;              /* intercommunicator: size of the remote group */
	const int *remote_world;      /* intercommunicator: remote rank -> world rank */
	struct shl_errhandler *errh;
	const char *name;             /* NULL, a literal, or name_buf */
	struct shl_comm_shared *sh;
	int member;                   /* this rank's index in sh */
	uint64_t seq;                 /* collective operations this rank started on it */
	/* The user's handle (until MPI_Comm_free) plus each request that uses the object
	 * (shl_comm_hold): the object outlives MPI_Comm_free while operations are pending
	 * (MPI 4.1, 7.4.3). Not counted on the predefined communicators. */
	_Atomic int refs;
	uint64_t barriers;            /* flag-path barriers this rank entered on it (coll/move.c) */
	uint64_t rounds[SHL_RING_KINDS];  /* ring-path collectives it entered, by ring */
	uint64_t ring_free[SHL_RING_KINDS];  /* rounds every member was seen through with */
	struct shl_attr *attrs;
	struct shl_info *info;        /* hints set by the user, or NULL */
	/* The process topology (comm/topo.c), or NULL: held by every communicator that shares
	 * it (MPI_Comm_dup and idup keep it; split and create do not). */
	struct shl_topo *topo;
	/* Buffered sends on `c` take their blocks from the buffer attached to it (bsend_own,
	 * MPI_Comm_attach_buffer), else from the buffer of the session it derives from
	 * (bsend_session, when one is attached there; inherited by every communicator made
	 * from it), else from the rank's (MPI_Buffer_attach). */
	struct shl_bsend_buffer *bsend_own;
	struct shl_bsend_buffer *bsend_session;
	char name_buf[MPI_MAX_OBJECT_NAME];
};

/* ---- process topologies (comm/topo.c) ---- */

/* A communicator's topology as one rank sees it: immutable once built, shared by the
 * communicators that keep it (refs). `kind` is MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH.
 * The neighbourhood is what the neighborhood collectives (MPI 4.1, 8.6) read: the ranks
 * this rank receives from (`sources`, in the order of the receive buffer's blocks) and
 * sends to (`destinations`, in the order of the send buffer's blocks), as ranks of the
 * communicator; MPI_PROC_NULL where a Cartesian neighbour is off a non-periodic edge.
 *   - Cartesian: indegree = outdegree = 2 * ndims; for each dimension d in order, the
 *     neighbour at -1 then at +1 (MPI_Cart_shift(d, 1)'s source then destination).
 *   - graph: indegree = outdegree = the rank's neighbours, as MPI_Graph_neighbors lists.
 *   - distributed graph: the lists of MPI_Dist_graph_neighbors, weights included. */
struct shl_topo {
	int kind;
	_Atomic int refs;
	int ndims;                    /* Cartesian: dims[ndims], periods[ndims] */
	int *dims;
	int *periods;
	int nnodes;                   /* graph: index[nnodes], edges[index[nnodes - 1]] */
	int *index;
	int *edges;
	bool weighted;                /* distributed graph: weights given (not MPI_UNWEIGHTED) */
	int indegree, outdegree;
	int *sources, *destinations;
	int *sourceweights, *destweights;  /* distributed graph and weighted, else NULL */
};

/* Any thread of the owning rank: take / drop a reference on `t` (NULL: nothing); the last
 * drop frees it. */
struct shl_topo *shl_topo_hold(struct shl_topo *t);
void shl_topo_drop(struct shl_topo *t);

static inline int shl_comm_world_rank(const struct shl_comm *c, int rank)
{
	return c->world ? c->world[rank] : rank;
}

/* Ranks a send may name as `dest` and a receive as `source`: the remote group on an
 * intercommunicator, the group itself otherwise. */
static inline int shl_comm_remote_size(const struct shl_comm *c)
{
	return c->inter ? c->remote_size : c->size;
}

/* The handle the user knows for the rank's object `c` (the sentinel for WORLD and SELF). */
static inline MPI_Comm shl_comm_handle(struct shl_comm *c)
{
	if (c->predef == SHL_COMM_IS_WORLD)
		return MPI_COMM_WORLD;
	if (c->predef == SHL_COMM_IS_SELF)
		return MPI_COMM_SELF;
	return c;
}

/* Owner thread: take the number of the rank's next collective on `c` (MPI orders them per
 * communicator, so every member numbers a call alike) and note it as `fn` on `path` in the
 * rank's own row of the history: one store to a line no other member writes. */
static inline uint64_t shl_coll_next(struct shl_comm *c, const char *fn, enum shl_coll_path path)
{
	uint64_t k = ++c->seq;
	_Atomic uint64_t *row = c->sh->hist + (size_t)c->member * SHL_COLL_HIST;

	/* Relaxed: a checker reads it long after, and looks again if it missed it. */
	atomic_store_explicit(&row[k % SHL_COLL_HIST], shl_coll_entry(k, path, fn),
			      memory_order_relaxed);
	return k;
}

/* Any thread of the owning rank: take a reference on `c` for a request that uses it, and
 * return `c`; drop it when the request is released. The last drop after MPI_Comm_free
 * frees the object. No-ops on MPI_COMM_WORLD and MPI_COMM_SELF. */
static inline struct shl_comm *shl_comm_hold(struct shl_comm *c)
{
	if (c->predef == SHL_COMM_NOT_PREDEF)
		atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
	return c;
}

/* The last drop's work, out of line (shl_comm_drop). */
void shl_comm_free_dropped(struct shl_comm *c);

/* Inline: every request of a nonblocking receive holds and drops its communicator
 * (measured with callgrind on bench/msgrate: two calls were ~15 instructions a message). */
static inline void shl_comm_drop(struct shl_comm *c)
{
	if (c->predef != SHL_COMM_NOT_PREDEF)
		return;
	/* acq_rel: the last drop sees every use by the requests dropped before. */
	if (atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) == 1)
		shl_comm_free_dropped(c);
}

/* ---- per-rank object tables (comm/object.c, comm/attr.c, core/errors.c) ---- */
struct shl_user_error {
	int cls;                      /* the code's class (itself for a class) */
	char *str;                    /* MPI_Add_error_string, or NULL */
};

/* The attributes this rank set on one predefined datatype: the type itself is shared by
 * every rank and immutable. */
struct shl_type_attrs {
	const struct shl_datatype *type;
	struct shl_attr *attrs;
};

/* What MPI makes local to a process: keyvals, user error codes, MPI_INFO_ENV. Touched by
 * the rank's own threads under its rank lock. */
struct shl_rank_objs {
	struct shl_keyval **keyvals;  /* by keyval - SHL_KEYVAL_FIRST */
	int nkeyvals;
	struct shl_user_error *errors;   /* by code - (MPI_ERR_LASTCODE + 1) */
	int nerrors;
	int last_used_code;           /* MPI_LASTUSEDCODE's value */
	int universe_size;            /* MPI_UNIVERSE_SIZE's value */
	struct shl_info *env;         /* MPI_INFO_ENV, built on first use */
	struct shl_type_attrs *type_attrs;  /* attributes of predefined datatypes, as used */
	int ntype_attrs;
};

/* Node process, main thread, before ranks run (shl_job_create): the shared objects of
 * MPI_COMM_WORLD and each local rank's MPI_COMM_SELF and object tables (ranks of other
 * nodes have no entry in shl_job.ranks).
 * Returns 0 or -ENOMEM. */
int shl_comm_job_init(int size);

/* Owner thread, rank unlocked, at MPI_Finalize: delete MPI_COMM_SELF's attributes (MPI 4.1,
 * 11.2.3: their delete callbacks run first), then MPI_COMM_WORLD's, then the rank's
 * attributes on predefined datatypes. */
void shl_comm_finalize(struct shl_rank *r);

/* Owner thread, rank unlocked: copy `from`'s attributes onto `to` through the copy
 * callbacks (MPI_Comm_dup). Returns MPI_SUCCESS or the failing callback's code. */
int shl_attr_copy(struct shl_rank *r, struct shl_comm *from, struct shl_comm *to);
/* Owner thread, rank unlocked: delete every attribute of `c` through the delete callbacks.
 * Returns MPI_SUCCESS or the failing callback's code (the rest stay attached). */
int shl_attr_delete_all(struct shl_rank *r, struct shl_comm *c);

/* Owner thread, rank unlocked (MPI_Type_dup): copy `from`'s attributes onto the new derived
 * type `to` through the copy callbacks. Returns MPI_SUCCESS or the failing callback's code
 * (attributes copied so far stay on `to`). */
int shl_attr_copy_type(MPI_Datatype from, MPI_Datatype to);
/* Owner thread, rank unlocked (the last MPI_Type_free of a derived type): delete every
 * attribute of `t` through the delete callbacks. Returns MPI_SUCCESS or the failing
 * callback's code (the rest stay attached). */
int shl_attr_delete_type(MPI_Datatype t);
/* Owner thread, rank unlocked (MPI_Finalize, after the communicators'): delete the rank's
 * attributes on predefined datatypes through the delete callbacks, then free their table.
 * A failing callback leaves its type's remaining attributes unreported (finalize goes on). */
void shl_attr_finalize_types(struct shl_rank *r);

/* Owner thread: the class of error code `code`, or -1 if it is not a valid code. */
int shl_err_class_of(struct shl_rank *r, int code);

/* shl_comm_remote_world: the sender's rank translation, with the arrivals' (comm/route.c). */
#include "runtime/comm/route.h"

#endif
