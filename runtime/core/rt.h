/* The runtime's internal objects: ranks, communicators, datatypes, requests, error handlers,
 * and the contracts between runtime files. Entered by rank threads (and their own threads
 * under MPI_THREAD_MULTIPLE). Must not depend on the loader. */
#ifndef SHL_RUNTIME_RT_H
#define SHL_RUNTIME_RT_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "io/clock.h"
#include "queues/queues.h"
#include "runtime/job.h"
#include "runtime/datatype/datatype.h"
#include "runtime/comm/comm.h"
#include "runtime/core/hooks.h"

#define SHL_API __attribute__((visibility("default")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
/* A static helper of an MPI call's fast path that the compiler must inline: gcc kept the
 * argument checks of MPI_Isend and MPI_Irecv as calls, and their prologues and epilogues
 * were a third of the checks' instructions (callgrind on bench/msgrate). */
#define SHL_HOT_INLINE inline __attribute__((always_inline))
/* `*obj += n` on an atomic that one thread at a time changes (its owner, or whoever holds
 * its lock) while others may read it: a plain load and store. A locked add would make the
 * writer wait until all its earlier stores have reached the cache. */
#define SHL_PLAIN_ADD(obj, n)                                                                  \
	atomic_store_explicit((obj), atomic_load_explicit((obj), memory_order_relaxed) + (n),  \
			      memory_order_relaxed)

/* Every MPI_x is the weak twin of PMPI_x, so a tool's MPI_x can wrap ours. */
#define SHL_WEAK_ALIAS(name) extern __typeof__(PMPI_##name) MPI_##name \
	__attribute__((weak, alias("PMPI_" #name), visibility("default")))

/* Magic values make stale or foreign handles an MPI error rather than a crash later. */
#define SHL_REQ_MAGIC 0x72657175u

/* A message of at least this many bytes is copied in chunks (64 KiB of its signature,
 * in any pair of layouts) that a waiting sender shares with the receiver
 * (SHOAL_SPLIT_MIN): two cores copy faster than one from 128 KiB, while below it the
 * hand-out costs more than it saves. 64 KiB chunks keep the atomic hand-out far below a
 * chunk's copy time (figures: docs/performance.md, "Split copies"). */
#define SHL_P2P_SPLIT_MIN (128 * 1024)
#define SHL_P2P_SPLIT_CHUNK (64 * 1024)

/* The same for a copy with a non-contiguous layout on either side (SHOAL_SPLIT_MIN_TYPED,
 * SHOAL_SPLIT_CHUNK_TYPED): a strided copy moves a byte several times slower than memcpy
 * (a column block touches a new page per row: 6-10 ns a row of 8 bytes on one core), so
 * sharing pays from 1 KiB. Such a copy is cut in SHL_P2P_SPLIT_PIECES_TYPED chunks of at
 * least SHL_P2P_SPLIT_CHUNK_TYPED_MIN and at most SHOAL_SPLIT_CHUNK_TYPED bytes (above
 * SHOAL_SPLIT_MIN the 64 KiB chunks stay). Figures: docs/performance.md, "Small
 * non-contiguous copies shared". */
#define SHL_P2P_SPLIT_MIN_TYPED 1024
#define SHL_P2P_SPLIT_CHUNK_TYPED (16 * 1024)
#define SHL_P2P_SPLIT_CHUNK_TYPED_MIN 512
#define SHL_P2P_SPLIT_PIECES_TYPED 4

/* How long a waiting rank polls before it sleeps on its futex, when ranks do not outnumber
 * cores. A futex wake-up costs 5-50 µs on the development VM, so a wait that sleeps
 * costs far more than one that spins; 200 µs keeps a blocked rank's CPU use to the first
 * fraction of a millisecond (the 1 % target counts after the first millisecond).
 * Oversubscribed, a spinning rank steals the core its peer needs: it polls once. */
#define SHL_WAIT_SPIN_US 200
/* A rank on a core of its own whose wait (spin and sleep) ended within this time (its
 * partner answered after it gave up: the partner had lost its core to other work beside
 * the job) doubles its spin time until the spin covers such a wait, up to this
 * (SHOAL_SPIN_MAX_US); a sleep 16 times longer than the spin time brings it back to
 * SHOAL_SPIN_US, and so does a thread that finds it lost its own core to other work (an
 * involuntary switch) after spinning SHOAL_SPIN_US: there a spin spends the rank's share
 * of the core, and a rank that sleeps instead runs first when the answer wakes it. A few
 * of the scheduler's time slices: a partner that lost its core for a slice answers within
 * it, and the spinning rank never pays a wake-up (figures: docs/performance.md,
 * "Contended"). */
#define SHL_WAIT_SPIN_MAX_US 12800

/* How many times a waiting rank yields its core (sched_yield, polling in between) before it
 * sleeps, when ranks outnumber cores. A rank woken for one message and put back to sleep
 * at once costs two context switches per message; yielding lets the senders on its core
 * run first. Many more yields slow a ring down, as idle ranks take the token holder's
 * turns (figures: docs/performance.md, "Waiting"). */
#define SHL_WAIT_YIELDS 6

/* Envelopes and requests each rank has ready from start-up, their pages written then, so
 * that a first all-pairs exchange does not take a page fault per envelope (figures:
 * docs/performance.md, "Envelopes"). */
#define SHL_RANK_PREFILL 64

/* The largest blocking Bcast, and the cap on a blocking Reduce/Allreduce, that goes through
 * a communicator's ring of cells instead of a meeting (coll/ring.c; SHOAL_COLL_SMALL_MAX).
 * See docs/performance.md, Collectives, for the measurement. */
#define SHL_COLL_SMALL_MAX 4096

/* Oversubscribed, how long a member waiting in a ring for one producer (a broadcast's root,
 * a cell's last reader) polls before it sleeps (SHOAL_COLL_SPIN_US): about one futex
 * wake-up's cost, so that readers are not woken every round (figures: docs/performance.md,
 * "Rings"). */
#define SHL_COLL_SPIN_US 20


/* ---- requests ----
 * SEND and RECV are point-to-point operations; DONE is anything a caller completes by
 * itself (collectives, one-sided requests). The kinds after DONE carry more in `ext` and
 * go through their owner's functions at the few places a request is polled, finished,
 * cancelled or released (core/request.c): GREQ a generalized request (core/grequest.c),
 * FILE a nonblocking file operation (file/async.c), PAIR an MPI_Isendrecv's two halves
 * (p2p/sendrecv.c), PSEND and PRECV partitioned communication (p2p/partition.c). */
enum shl_req_kind { SHL_REQ_SEND, SHL_REQ_RECV, SHL_REQ_DONE, SHL_REQ_GREQ, SHL_REQ_FILE,
		    SHL_REQ_PAIR, SHL_REQ_PSEND, SHL_REQ_PRECV };
enum shl_send_mode { SHL_MODE_STANDARD, SHL_MODE_SYNC, SHL_MODE_BUFFERED, SHL_MODE_READY };

struct shl_rank;
struct shl_cargs;

struct shl_req {
	uint32_t magic;
	enum shl_req_kind kind;
	_Atomic int done;             /* release-set by whoever completes; acquire-read by owner */
	bool persistent;
	bool active;                  /* persistent: started and not yet completed by Wait/Test */
	bool freed;                   /* MPI_Request_free'd while active: release when done */
	bool cancelled;
	_Atomic bool shared;          /* send with a cookie: its receiver offers chunks of the
				       * copy (shl_p2p_help), release-set after the offer */
	bool holds_comm;              /* a reference on `comm` (shl_comm_hold) to drop at release */
	enum shl_send_mode mode;
	struct shl_rank *owner;
	struct shl_comm *comm;
	void *buf;
	MPI_Count count;              /* elements; count * type->size <= PTRDIFF_MAX (checked
				       * at the MPI boundary, for int and _c callers alike) */
	struct shl_datatype *type;
	int peer;                     /* dest, or source (may be MPI_ANY_SOURCE) */
	int tag;
	MPI_Status status;            /* recv: filled at completion; send: cancelled flag */
	struct shl_envelope *env;     /* send with a cookie: the envelope in flight */
	void *bsend_block;            /* buffered send: block of the attached buffer */
	shl_meet_fn *run;             /* persistent collective: the operation (coll/move.c, ...) */
	union {
		struct shl_cargs *cargs;  /* persistent collective: its arguments, held */
		void *ext;                /* kinds after SHL_REQ_DONE: their own state */
	};                            /* NULL: neither (shl_req_release asks once) */
	struct shl_req *next;         /* posted list, detached list or free list */
	uint64_t seq;                 /* posted receive: its number among its rank's */
};

/* ---- matching ----
 * A rank's posted receives and unexpected messages wait in bins by (context, source), so
 * that a message or receive compares itself with its own source's only: with one list
 * each, an all-pairs exchange walked past every other source's (p2p/match.h). Receives
 * from MPI_ANY_SOURCE wait on a list of their own. Order across lists comes from numbers:
 * each posted receive and each unexpected message takes the next of its rank's. */
#define SHL_MATCH_BINS 64

struct shl_req_list {
	struct shl_req *head, **tail;
};

struct shl_envelope_list {
	struct shl_envelope *head, **tail;
};

struct shl_match_bin {
	struct shl_req_list posted;
	struct shl_envelope_list unexpected;
};

/* ---- ranks ---- */
struct shl_bsend_flush;
struct shl_bsend_buffer {
	char *base;                   /* user's attached buffer, or NULL */
	size_t size;
	struct shl_bsend_block *blocks;  /* blocks in use, by address (automatic: any order) */
	bool automatic;               /* MPI_BUFFER_AUTOMATIC: each block its own allocation */
	struct shl_bsend_flush *flushes;  /* MPI_*_iflush requests waiting for `blocks` to
					   * empty (p2p/bsend.c) */
};

/* Everything one rank owns. Fields up to `wake_seq` are touched only by the rank's own
 * threads (under `lock` when the rank runs MPI_THREAD_MULTIPLE); the inbox, wake word
 * and phase are written by other ranks too and sit on their own cache lines. */
/* The inbox lane the completion thread pushes frames from other nodes into: it shares the
 * lane with carrier 0's ranks (two pushers may take the same hint ticket: queues_inline.h). */
#define SHL_LANE_OFFNODE 0

struct shl_rank {
	int world_rank;
	bool mt;                      /* MPI_THREAD_MULTIPLE: own threads take `lock` */
	/* Raised by MPI_Session_init while the rank may be in MPI, read by the watchdog. */
	_Atomic int thread_level;
	pthread_t main_thread;
	pthread_mutex_t lock;
	struct shl_comm world;
	struct shl_comm self;
	int self_world[1];            /* self.world */
	struct shl_pool pool;
	struct shl_match_bin bins[SHL_MATCH_BINS];
	struct shl_req_list wild;     /* posted receives from MPI_ANY_SOURCE */
	uint64_t unexpected_bins;     /* bit b: bins[b] holds unexpected messages */
	unsigned nposted;             /* posted receives, in the bins and `wild` */
	uint64_t posted_seq, unexpected_seq;  /* numbers taken so far */
	struct shl_req *detached;     /* freed or internal requests still in flight */
	struct shl_envelope *matched; /* messages taken by MPI_Mprobe/MPI_Improbe and not yet
				       * received, linked by `next`: the valid MPI_Message
				       * handles (p2p/probe.c) */
	struct shl_req *free_reqs;
	struct shl_req sent;          /* the request of every nonblocking send that completed in
				       * the call that started it: no allocation per message;
				       * Wait, Test and Request_free never release it */
	struct shl_bsend_buffer bsend;
	/* The two ways into MPI (core/init.c), under its lock: the world model (enum
	 * shl_model) and the sessions open (`ever_session`: one was). `phase` is
	 * SHL_PHASE_IN_MPI while either is; `ended`: the rank has joined the end barrier with
	 * the other nodes (core/init.c rank_end, shl_job_rank_exit). */
	int world_model;
	int sessions;
	bool ever_session;
	bool ended;
	struct shl_rank_objs *objs;   /* keyvals, user error codes, MPI_INFO_ENV (comm/comm.h) */
	/* MPI_FILE_NULL's error handler (file/errors.c): MPI_File_open's and MPI_File_delete's,
	 * inherited by each file opened; NULL is MPI_ERRORS_RETURN, the default of MPI 4.1,
	 * 9.3.3. Held when set. */
	struct shl_errhandler *file_errh;
	struct shl_fbox **fbox_out;   /* by world rank: our fastbox to it, a mark that it took
				       * none from us, or NULL (not tried yet); p2p/fastbox.c */
	struct shl_inbox inbox;
	int lane;                     /* ours in every local rank's inbox (queues.h SHL_Q_LANES):
				       * our carrier's, 0 without fibers (core/fiber.c) */
	struct shl_fbox_set fbox_in;  /* senders' boxes to us */
	struct shl_fiber *fiber;      /* the rank switched in user space (core/fiber.h), or NULL */
	alignas(64) _Atomic uint32_t wake_seq;   /* futex word; bumped by every waker */
	_Atomic int sleepers;                    /* threads of this rank in shl_wait's sleep */
	_Atomic int futex_sleepers;              /* ... of which asleep on the futex, not parked */
	alignas(64) _Atomic int phase;           /* enum shl_phase; release-stored by the rank */
	_Atomic int threads;          /* threads the rank created that have not ended (threads.c) */
	_Atomic uint64_t spin_ns;     /* the rank's threads (relaxed): its spin time, from
				       * shl_job.spin_ns up to shl_job.spin_max_ns (shl_spin_ns) */
};

/* Process-wide job state; written once by shl_job_create (or the singleton MPI_Init)
 * before any rank runs, read-only afterwards. */
struct shl_job {
	int size;
	struct shl_rank **ranks;
	double wtime_base;
	size_t inline_max;    /* SHOAL_INLINE_MAX: largest payload carried in the envelope */
	size_t medium_max;    /* SHOAL_MEDIUM_MAX: largest payload copied through a pooled buffer */
	size_t split_min;     /* SHOAL_SPLIT_MIN: smallest copy shared with a waiting sender */
	size_t split_min_typed;   /* SHOAL_SPLIT_MIN_TYPED: the same, non-contiguous layouts */
	size_t split_chunk_typed; /* SHOAL_SPLIT_CHUNK_TYPED: their chunk size */
	uint64_t spin_ns;     /* SHOAL_SPIN_US: how long a waiting rank polls before sleeping */
	uint64_t spin_max_ns; /* SHOAL_SPIN_MAX_US: the longest a rank's spin time grows to */
	unsigned yields;      /* SHOAL_YIELDS: with spin_ns 0, sched_yields before sleeping */
	int cores;            /* cores this process may use (its affinity) */
	bool free_threads;    /* threads a rank creates run on `cpus`, not on the core its
			       * own thread is bound to by default (shl_job_free_threads) */
	cpu_set_t cpus;
	bool spin_yield;      /* a spinning rank yields the core between polls: the node's
			       * completion thread needs one too (p2p/remote.c) */
	bool poll_net;        /* a spinning rank reads the node's connections itself
			       * (SHOAL_RANK_POLL; p2p/remote.c) */
	int fbox_peers;       /* SHOAL_FBOX_PEERS: fastboxes a rank accepts (0: none) */
	bool sleeper_fences;  /* a rank about to sleep fences every running thread (membarrier),
			       * so fastbox senders publish without a full barrier (core/progress.c) */

	size_t coll_small_max;  /* SHOAL_COLL_SMALL_MAX: largest Bcast (reduction) in a ring cell */
	uint64_t coll_spin_ns;  /* SHOAL_COLL_SPIN_US: oversubscribed poll before a ring sleep */
};

extern struct shl_job shl_job;

/* The rank the calling thread belongs to, or NULL before binding / singleton init. */
extern __thread struct shl_rank *shl_self __attribute__((tls_model("initial-exec")));

/* ---- locking and waiting (core/progress.c) ---- */
/* shl_rank_wake's work when some thread of `r` sleeps. */
void shl_rank_wake_sleepers(struct shl_rank *r);

/* Any thread: wake every thread of `r` sleeping in shl_wait. Call right after publishing
 * the event with a seq_cst read-modify-write (the inbox push, shl_req_complete), which
 * keeps this load of `sleepers` after it, or with a release store where sleepers fence
 * for it (shl_job.sleeper_fences: a fastbox cell). A sleeper increments `sleepers` before
 * its last look for events (Dekker): either it sees our event, or we see it and bump
 * wake_seq past the value it sleeps on. Inline: every message's sender asks, and for
 * most messages nobody sleeps. */
static inline void shl_rank_wake(struct shl_rank *r)
{
	if (atomic_load(&r->sleepers) > 0)
		shl_rank_wake_sleepers(r);
}

static inline void shl_rank_lock(struct shl_rank *r)
{
	if (r->mt)
		pthread_mutex_lock(&r->lock);
}

static inline void shl_rank_unlock(struct shl_rank *r)
{
	if (r->mt)
		pthread_mutex_unlock(&r->lock);
}

/* Node process, before ranks run: let sleepers fence for fastbox senders (membarrier).
 * Returns 0 or a negative errno (then senders must keep their barrier). */
int shl_wait_register_fences(void);

/* Owner, rank locked: drain the inbox, matching against posted receives. */
void shl_progress(struct shl_rank *r);

/* How long a waiting rank of `r` (NULL: the singleton before it has one) polls before it
 * sleeps: shl_job.spin_ns, longer after sleeps that ended soon (core/progress.c). */
static inline uint64_t shl_spin_ns(const struct shl_rank *r)
{
	return r != NULL ? atomic_load_explicit(&r->spin_ns, memory_order_relaxed) :
			   shl_job.spin_ns;
}

/* Owner thread, a spin longer than shl_job.spin_ns past that time, at `now`: the even
 * deadline of the rest of the rank's spin time, or 0 (the spin ends and the rank's spin
 * time goes back to shl_job.spin_ns) if the thread lost its core to other work since it
 * last asked (core/progress.c). */
uint64_t shl_spin_longer(uint64_t now);

/* A spinning wait's clock, zeroed to start: shl_spin_on counts a poll and says whether
 * the spin time (the rank's shl_spin_ns) has room for another, reading the clock every
 * SHL_SPIN_CLOCK_EVERY polls (about 1 µs of polls with pauses between them). A spin
 * longer than shl_job.spin_ns first ends at that time with an odd `deadline`, where
 * shl_spin_longer decides whether it goes on. */
struct shl_spin {
	unsigned polls;
	uint64_t deadline;
};
#define SHL_SPIN_CLOCK_EVERY 64

static inline bool shl_spin_on(struct shl_spin *s)
{
	if (++s->polls % SHL_SPIN_CLOCK_EVERY == 0) {
		uint64_t t = shl_mono_ns();
		if (s->deadline == 0) {
			uint64_t spin = shl_spin_ns(shl_self);

			s->deadline = spin > shl_job.spin_ns ? (t + shl_job.spin_ns) | 1 : t + spin;
		} else if (t >= s->deadline) {
			if ((s->deadline & 1) == 0)
				return false;
			s->deadline = shl_spin_longer(t);
			return s->deadline != 0;
		}
	}
	return true;
}

/* Polls a spinning wait makes back to back before it pauses between polls (about 1-2 µs
 * of polling). `pause` takes tens of cycles, so a message that lands during one is seen
 * late by half of that on average, a visible part of a hop (figures: docs/performance.md,
 * "Waiting", Pause). Beyond them, a long wait pauses each poll, to spare power and an SMT
 * sibling. */
#define SHL_SPIN_TIGHT_POLLS 512

/* Between two polls of a spinning wait. */
static inline void shl_spin_relax(const struct shl_spin *s)
{
	if (s->polls >= SHL_SPIN_TIGHT_POLLS)
		__builtin_ia32_pause();
}

/* Owner, rank locked: progress until `done(arg)` is true or the spin time (shl_job.spin_ns)
 * ends, or, when it is 0, shl_job.yields turns at yielding the core have passed; returns
 * whether it is. Never sleeps. */
bool shl_poll(struct shl_rank *r, bool (*done)(void *arg), void *arg);

/* Owner, rank locked: progress until `done(arg)` is true, spinning briefly, then sleeping
 * on the rank's futex, or parking if the caller is the rank's fiber (core/fiber.h); the lock is
 * released while asleep. */
void shl_wait(struct shl_rank *r, bool (*done)(void *arg), void *arg);

/* Owner, rank locked: like shl_wait, but return after sleeping once, woken or after
 * `ns` nanoseconds; returns whether `done(arg)` is true. For waits that look at something
 * else now and then (shl_coll_check). With `poll` false it sleeps at once: a rank that
 * keeps sleeping stays counted as asleep for the deadlock watchdog. */
bool shl_wait_once(struct shl_rank *r, bool (*done)(void *arg), void *arg, uint64_t ns,
		   bool poll);

/* The program's thread, rank unlocked, after a test or probe found nothing: a rank switched
 * in user space keeps its core until it waits, so a program polling in a loop lets the
 * node's other runnable ranks go first (core/fiber.h). */
void shl_poll_missed(void);

/* Any thread: whether request `arg` (a struct shl_req) is complete; acquire, pairing with
 * the release that completes it. The `done` of waits on one request (shl_wait). */
static inline bool shl_req_done(void *arg)
{
	return atomic_load_explicit(&((struct shl_req *)arg)->done, memory_order_acquire);
}

/* Any thread: mark `req` complete and wake its owner if it sleeps. */
void shl_req_complete(struct shl_req *req);
/* Owner `r`, rank locked: the same for a request of the caller's own rank; cheaper when
 * the rank has a single MPI thread. */
static inline void shl_req_complete_own(struct shl_rank *r, struct shl_req *req)
{
	if (r->mt) {
		shl_req_complete(req);
		return;
	}
	/* The only thread of `r` that calls MPI is the caller: nobody sleeps on it. */
	atomic_store_explicit(&req->done, 1, memory_order_release);
}

/* ---- requests (core/request.c) ---- */

/* The status of a receive from MPI_PROC_NULL, and of a request with nothing to report. */
static inline void shl_status_empty(MPI_Status *status, int source)
{
	status->MPI_SOURCE = source;
	status->MPI_TAG = MPI_ANY_TAG;
	status->MPI_ERROR = MPI_SUCCESS;
	status->shl_cancelled = 0;
	status->shl_bytes = 0;
	status->shl_sent_bytes = 0;
}

/* Single completion (MPI_Wait, MPI_Recv, ...): the user's `status`, unless
 * MPI_STATUS_IGNORE, gets everything of `st` but MPI_ERROR (MPI 4.1, 3.2.5). */
static inline void shl_status_out(MPI_Status *status, const MPI_Status *st)
{
	if (status == MPI_STATUS_IGNORE)
		return;
	int error = status->MPI_ERROR;
	*status = *st;
	status->MPI_ERROR = error;
}

/* Owner: set every field of request `q` (a stack request of a blocking call, or one of
 * shl_req_new) to zero but its identity (`r`, `kind`) and an empty status
 * (shl_status_empty(MPI_ANY_SOURCE)). Field by field: `= { ... }` and memset compiled to
 * `rep stos`, which perf showed as half of MPI_Irecv's time on bench/msgrate. The callers'
 * own stores then replace most of these. */
static inline void shl_req_init(struct shl_req *q, struct shl_rank *r, enum shl_req_kind kind)
{
	q->magic = SHL_REQ_MAGIC;
	q->kind = kind;
	atomic_init(&q->done, 0);
	q->persistent = false;
	q->active = false;
	q->freed = false;
	q->cancelled = false;
	q->mode = SHL_MODE_STANDARD;
	q->owner = r;
	q->comm = NULL;
	q->holds_comm = false;
	q->buf = NULL;
	q->count = 0;
	q->type = NULL;
	q->peer = 0;
	q->tag = 0;
	q->status = (MPI_Status){ .MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG,
				  .MPI_ERROR = MPI_SUCCESS };
	q->env = NULL;
	q->bsend_block = NULL;
	q->run = NULL;
	q->cargs = NULL;
	q->next = NULL;
	q->seq = 0;
}

/* A reminder for whoever adds a field to struct shl_req: shl_req_init must set it. */
_Static_assert(sizeof(struct shl_req) == 152, "struct shl_req changed: update shl_req_init");

/* shl_req_new's slow path: a request from malloc, when the rank's free list is empty. */
struct shl_req *shl_req_alloc(void);
/* Node process, before rank `r` runs: `n` requests on its free list, their memory written
 * now (SHL_RANK_PREFILL). Returns 0 or -1 (no memory). */
int shl_req_prefill(struct shl_rank *r, int n);

/* Owner, rank locked: a fresh request (shl_req_init), or NULL when memory is exhausted.
 * Inline, so that the initialisation merges with the caller's stores. */
static inline struct shl_req *shl_req_new(struct shl_rank *r, enum shl_req_kind kind)
{
	struct shl_req *q = r->free_reqs;

	if (likely(q != NULL))
		r->free_reqs = q->next;
	else if ((q = shl_req_alloc()) == NULL)
		return NULL;
	shl_req_init(q, r, kind);
	return q;
}
/* Owner, rank locked: release detached requests that have completed. */
void shl_req_reap(struct shl_rank *r);

/* Owner, rank locked: drop what `cargs` (a persistent collective's arguments) or `ext` (the
 * state of a kind after SHL_REQ_DONE) holds: shl_req_release's rare case (core/request.c). */
void shl_req_drop_ext(struct shl_rank *r, struct shl_req *q);

/* Owner, rank locked: give request `q` back to the rank's free list, dropping what it
 * holds (a no-op on the shared `sent` request). Inline: every Wait of a receive and of a
 * send releases one (callgrind on bench/msgrate: the call was 13 instructions). */
static inline void shl_req_release(struct shl_rank *r, struct shl_req *q)
{
	if (q == &r->sent)
		return;  /* shared by every send that completed at once */
	q->magic = 0;  /* a stale handle now fails validation */
	if (q->cargs != NULL)  /* or ext */
		shl_req_drop_ext(r, q);
	if (q->holds_comm)
		shl_comm_drop(q->comm);  /* may free a communicator MPI_Comm_free let go of */
	q->holds_comm = false;
	shl_dt_release(q->type);  /* held by make_request; NULL for internal requests */
	q->type = NULL;
	q->next = r->free_reqs;
	r->free_reqs = q;
}

/* ---- the ways into MPI (core/init.c) ---- */
enum shl_model { SHL_MODEL_NEVER, SHL_MODEL_IN, SHL_MODEL_ENDED };

/* A rank's thread, at MPI_Session_init (`fn`): the calling rank (the singleton's job made
 * first when mpiexec did not start the process), with one more session open at thread
 * level at least `level` (the rank's level is the highest asked for while it is in MPI):
 * MPI's calls work from here. Returns NULL only if `fn` cannot bring the rank up. */
struct shl_rank *shl_rank_session_start(const char *fn, int level);
/* The rank's thread, at MPI_Session_finalize: one session fewer. Messages the rank
 * buffered or freed in flight complete first; when nothing holds the rank in MPI any more
 * it leaves (the end barrier with the other nodes, if the world model ended too). */
void shl_rank_session_end(struct shl_rank *r);

/* ---- generalized requests (core/grequest.c) ----
 * Owner, rank locked (it is dropped around the user's callbacks and taken again): the
 * parts of the Wait/Test family, MPI_Request_get_status, MPI_Request_free and MPI_Cancel
 * that call a generalized request's callbacks (MPI 4.1, 13.2). shl_greq_finish: `q` is
 * complete; query_fn fills its status, then free_fn runs; returns the error of the last
 * callback that failed, also left in q->status.MPI_ERROR (the caller releases `q`).
 * shl_greq_query: query_fn into `*st` for MPI_Request_get_status; returns its error.
 * shl_greq_free: MPI_Request_free of `q`: free_fn now and `q` released if complete, else
 * at MPI_Grequest_complete; returns free_fn's error. shl_greq_cancel: cancel_fn with
 * whether MPI_Grequest_complete was called; returns its error. shl_greq_drop: free what
 * `ext` holds, when `q` is released (shl_req_drop_ext). */
int shl_greq_finish(struct shl_rank *r, struct shl_req *q);
int shl_greq_query(struct shl_rank *r, struct shl_req *q, MPI_Status *st);
int shl_greq_free(struct shl_rank *r, struct shl_req *q);
int shl_greq_cancel(struct shl_rank *r, struct shl_req *q);
void shl_greq_drop(struct shl_req *q);

/* ---- errors (core/errors.c) ---- */
/* Report error `errclass` raised in MPI function `fn` on communicator `comm` (NULL:
 * MPI_COMM_SELF) through that communicator's error handler. The message names the
 * function, the rank, and what was wrong. Returns the error code to return to the user
 * (only when the handler returns). */
int shl_err(struct shl_comm *comm, int errclass, const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* shl_rank_or_die's report: `fn` was called outside MPI_Init..MPI_Finalize. */
_Noreturn void shl_rank_not_in_mpi(struct shl_rank *r, const char *fn);

/* The calling rank, or an error raised (and the process ended) if MPI is not initialized.
 * Inline: every MPI call starts here (a call was 8 instructions of each MPI_Isend). */
static inline struct shl_rank *shl_rank_or_die(const char *fn)
{
	struct shl_rank *r = shl_self;

	if (unlikely(r == NULL || atomic_load_explicit(&r->phase, memory_order_relaxed) !=
					  SHL_PHASE_IN_MPI))
		shl_rank_not_in_mpi(r, fn);
	return r;
}

/* The calling rank, in or out of MPI_Init..MPI_Finalize, for the calls MPI 4.1 allows
 * there too (its Table 11.1: info objects, MPI_Add_error_class/code/string,
 * MPI_Errhandler_free). A rank's objects exist before its main runs and stay after
 * MPI_Finalize; only a thread that is no rank's is refused. */
static inline struct shl_rank *shl_rank_any_phase(const char *fn)
{
	struct shl_rank *r = shl_self;

	if (unlikely(r == NULL))
		shl_rank_not_in_mpi(r, fn);
	return r;
}

/* A handle check may read this much of any object before its magic says what it is. */
_Static_assert(sizeof(struct shl_comm) <= SHL_HANDLE_READ_MAX &&
	       sizeof(struct shl_datatype) <= SHL_HANDLE_READ_MAX &&
	       sizeof(struct shl_req) <= SHL_HANDLE_READ_MAX &&
	       sizeof(struct shl_errhandler) <= SHL_HANDLE_READ_MAX &&
	       sizeof(struct shl_group) <= SHL_HANDLE_READ_MAX &&
	       sizeof(struct shl_info) <= SHL_HANDLE_READ_MAX,
	       "a handle object outgrew SHL_HANDLE_READ_MAX (core/handle.h)");

/* The rank's object for handle `h`, or NULL if `h` is not a valid communicator. */
static inline struct shl_comm *shl_comm_get(struct shl_rank *r, MPI_Comm h)
{
	if (likely(h == MPI_COMM_WORLD))
		return &r->world;  /* most calls name it: no load */
	if (!shl_handle_mapped(h, sizeof(*h)) || h->magic != SHL_COMM_MAGIC)
		return NULL;
	if (h->predef == SHL_COMM_IS_WORLD)
		return &r->world;
	if (h->predef == SHL_COMM_IS_SELF)
		return &r->self;
	return h;
}

/* A panic: a broken internal invariant. Prints rank, function and errno, aborts the job. */
_Noreturn void shl_panic(const char *fn, int err, const char *what);

/* Read a size tunable from the environment variable `name`, or `dflt`. */
size_t shl_env_size(const char *name, size_t dflt, size_t max);

#endif
