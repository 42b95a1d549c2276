/* Envelopes, per-rank envelope pools and per-rank inboxes: the only way bytes and
 * descriptors move between ranks of one node process. Any thread may push into any inbox
 * or return an envelope to any pool; only the owning rank (one thread at a time) pops its
 * inbox or takes from its pool. Knows no MPI types; never blocks, never allocates on a push. */
#ifndef SHL_QUEUES_H
#define SHL_QUEUES_H

#define _LGPL_SOURCE
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <urcu/wfcqueue.h>

/* ThreadSanitizer does not see the order liburcu's queue gives (inline assembly and
 * volatile accesses): under it, each user of the queue (the inboxes, io/mesh.c's posts)
 * releases a node's container before the enqueue and acquires it after the dequeue by
 * hand, the happens-before edge the queue's barriers make (tests/san/tsan.supp). */
#if defined(__SANITIZE_THREAD__)
#define SHL_Q_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHL_Q_TSAN 1
#endif
#endif
#ifdef SHL_Q_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define shl_q_tsan_release(p) __tsan_release(p)
#define shl_q_tsan_acquire(p) __tsan_acquire(p)
#else
#define shl_q_tsan_release(p) ((void)(p))
#define shl_q_tsan_acquire(p) ((void)(p))
#endif

/* Payload bytes carried inside an envelope: with the 48-byte header and 40 cold bytes this
 * makes the envelope 384 bytes, six cache lines, and a payload of up to 16 bytes shares
 * the header's line. Six lines rather than five so that a 256-byte message goes eagerly,
 * in fastbox cells (SHL_Q_FBOX_MAX), and can wait unexpected in an envelope: copied from
 * the sender's buffer instead it took half as long again (docs/performance.md, "Messages of
 * several cells"). SHOAL_INLINE_MAX tunes the switch to direct copies down from here. */
#define SHL_Q_INLINE_MAX 296
/* Payload bytes of a pooled medium buffer; tunable down by SHOAL_MEDIUM_MAX. */
#define SHL_Q_MEDIUM_MAX (16 * 1024)
/* Payload bytes of a packed buffer: a sparse layout its sender packs (runtime/p2p/internal.h,
 * shl_p2p_packs) is under SHOAL_SPLIT_MIN_TYPED, 1 KiB; a medium buffer for it would keep
 * a 16 KiB allocation, at least a page of it resident, per message waiting unexpected. */
#define SHL_Q_PACKED_MAX 1024
/* Which buffer an envelope owns, if any; each kind has its own free list in a pool. */
enum shl_q_chunk {
	SHL_Q_CHUNK_NONE,    /* a small envelope: payloads inline or in the sender's buffer */
	SHL_Q_CHUNK_MEDIUM,  /* the pool's chunk_bytes: eager copies, frames from other nodes */
	SHL_Q_CHUNK_PACKED,  /* SHL_Q_PACKED_MAX bytes */
	SHL_Q_CHUNK_KINDS
};
/* How the receiver finds the payload. */
enum shl_q_payload {
	SHL_Q_INLINE,  /* in env->inline_data, packed */
	SHL_Q_POOLED,  /* in env->chunk, packed */
	SHL_Q_DIRECT,  /* in the sender's buffer, in the sender's layout (env->layout) */
	SHL_Q_REMOTE,  /* on another node: a rendezvous (io/transport.h); the sender's id in the
			* first 8 bytes of inline_data */
};

/* Envelope state; matters only for envelopes with a cookie (the sender waits for them). */
enum shl_q_state {
	SHL_Q_PENDING = 0,
	SHL_Q_MATCHED,    /* a receive (or Mprobe) claimed it: the send can no longer be cancelled */
	SHL_Q_CANCELLED,  /* the sender cancelled it: the receiver discards it */
	SHL_Q_EAGER,      /* its blocking sender copied the payload into `chunk` and returned:
			   * the receiver takes it from there and completes nothing */
};

struct shl_pool;

/* Fields the receiver reads for every message come first, so that the header and the
 * first 16 payload bytes share one cache line; the pool's free lists link and sort
 * envelopes by that line too. */
struct shl_envelope {
	alignas(64) union {
		struct cds_wfcq_node link;   /* in an inbox */
		struct shl_envelope *next;   /* or on a list: a pool's free lists and returned
					      * stack, a receiver's envelopes to give back, a
					      * rank's unexpected messages */
	};
	struct shl_pool *pool;       /* where the envelope goes back to */
	void *cookie;                /* sender's request, completed by the receiver, or NULL */
	size_t bytes;                /* payload size in bytes (the message's signature size) */
	uint32_t context;            /* communicator context id */
	int32_t src;                 /* sender's rank in the communicator */
	int32_t tag;
	_Atomic uint8_t state;       /* enum shl_q_state; see SHL_Q_MATCHED */
	uint8_t payload;             /* enum shl_q_payload */
	bool via_fbox;               /* in the inbox although its sender has `fbox` to us */
	uint8_t chunk_kind;          /* enum shl_q_chunk: what `chunk` is, the list it goes to */
	/* Offset 48. SHL_Q_DIRECT leaves it unused until its receiver shares the
	 * copy with the sender: then it holds that shared copy's state (runtime/p2p/split.c). */
	alignas(16) unsigned char inline_data[SHL_Q_INLINE_MAX];
	/* Cold: pooled and direct payloads, and the owner's list link. */
	const void *data;            /* SHL_Q_POOLED, SHL_Q_DIRECT: where the payload is */
	const void *layout;          /* SHL_Q_DIRECT: sender's datatype, opaque here */
	void *chunk;                 /* pooled buffer owned by this envelope, or NULL */
	/* The receiver reads `fbox` when it takes the envelope from its inbox; only later may a
	 * matched probe set `probed_on`. */
	union {
		struct shl_fbox *fbox;   /* via_fbox: the sender's fastbox to the receiver */
		void *probed_on;         /* owner's: set by a matched probe, opaque here */
	};
	uint64_t seq;                /* receiver's: its number among its unexpected messages */
};

_Static_assert(offsetof(struct shl_envelope, inline_data) == 48, "header is one 48-byte run");
_Static_assert(sizeof(struct shl_envelope) == 384, "an envelope is six cache lines");

/* A rank's envelopes. All but `returned` belong to the owner. Any thread gives envelopes
 * back by pushing a chain of them onto `returned` (one compare-and-swap), which the owner
 * takes whole, by one exchange, when its free list runs dry. A stack that is only pushed
 * and emptied whole has no ABA problem: a push succeeds only onto the current top. */
struct shl_pool {
	struct shl_envelope *free[SHL_Q_CHUNK_KINDS];  /* by the chunk they own */
	size_t chunk_bytes;          /* size of a medium chunk (SHL_Q_MEDIUM_MAX by default) */
	unsigned adopted;            /* envelopes of other pools taken in by shl_pool_keep and
				      * not handed out again: at most SHL_Q_KEEP_MAX */
	unsigned back_n;             /* envelopes in `back` */
	struct shl_envelope *back;   /* another pool's envelopes, to give back together
				      * (shl_pool_keep); linked by `next`, newest first */
	struct shl_envelope *back_last;  /* the oldest of them */
	alignas(64) struct shl_envelope *_Atomic returned;  /* linked by `next` */
};

/* Lanes of an inbox: one per carrier of ranks switched in user space (runtime/core/fiber.h), up to
 * this many. A sender pushes into the lane of the carrier it belongs to, so that the
 * lane's tail and the link in the envelope before its own stay in that core's cache while
 * the carrier's ranks push, instead of moving between cores at every push. A sender always
 * uses the same lane, so its messages keep their order (figures: docs/performance.md,
 * "Inbox lanes"). */
#define SHL_Q_LANES 8
/* A lane is a linked list, so the owner reading it waits for each envelope's first line
 * before it learns where the next one is: on the 32-rank exchange that read took half of
 * shl_p2p_progress's samples, three quarters in the machine's slow minutes. So pushers
 * also note each envelope's address in a ring of this many hints, by ticket, and the owner,
 * finding several envelopes queued, prefetches them all before it walks the list. A hint
 * is only a prefetch: one stale, overwritten or out of list order costs a wasted prefetch,
 * never a wrong message (figures: docs/performance.md, "Inbox lanes"). */
#define SHL_Q_LANE_HINTS 16

struct shl_inbox_lane {
	alignas(64) struct __cds_wfcq_head head;  /* owner only */
	uint64_t popped;                          /* owner only: envelopes taken */
	alignas(64) struct cds_wfcq_tail tail;    /* every pusher */
	_Atomic uint64_t pushed;                  /* every pusher: tickets for `hint` */
	alignas(64) struct shl_envelope *_Atomic hint[SHL_Q_LANE_HINTS];  /* by ticket */
};

struct shl_inbox {
	int lanes;                   /* in use, 1..SHL_Q_LANES: written before any push */
	struct shl_inbox_lane lane[SHL_Q_LANES];
};

/* ---- fastboxes ----
 * A fastbox is a ring of cells that one sending rank writes and one receiving rank reads:
 * a message costs the receiver one or two cache lines and no shared queue tail, where the
 * inbox costs about five lines moving between cores (tail, previous node, head, pool
 * return). A receiver polls at most SHL_Q_FBOX_PEERS boxes; other senders use its inbox.
 *
 * Order: a sender whose box is full sends through the inbox, flagging the envelope
 * `via_fbox`, and keeps using the inbox until the receiver has taken every such envelope
 * (`inbox_done` catches up with `inbox_sent`). The receiver drains a flagged envelope's box
 * before taking the envelope. So each sender's messages are taken in the order sent.
 *
 * Laps: cell number n (cells are numbered as written, from 0) sits in slot (n - lap) % 64,
 * where `lap` is the number of a cell written to slot 0. A sender that knows the receiver
 * has taken every cell it wrote (its `acked` equals `head`: each cell the receiver writes
 * back says how far it has taken, in `ack`) starts a new lap: its next cell goes to slot 0.
 * A receiver that has taken everything looks for the next cell in its slot and in slot 0.
 * So a ping-pong writes the same line back and forth instead of walking the ring, which
 * cost ~6-9 ns a message here (docs/performance.md, "Laps"). Numbers are 64 bits wide: a
 * slot a lap skipped may keep an old cell for any length of time. */

/* Cells per box: the OSU message-rate window of 64 nonblocking sends fits. */
#define SHL_Q_FBOX_CELLS 64
/* Payload bytes inside a message's first cell: a 32-byte header and 96 bytes make two
 * cache lines; up to 32 bytes the whole message is the first line. */
#define SHL_Q_FBOX_HEAD 96
/* Payload bytes in each further cell of a longer message: all but the cell's `seq`. */
#define SHL_Q_FBOX_MORE 120
/* The largest payload carried in cells: three (96 + 120 + 80 bytes of a third), which an
 * envelope's inline area also holds, for when it waits unexpected. Up to here a message
 * moves as lines the receiver reads at once after its first, rather than an envelope read
 * only once the cell has given its address (bench/latency 128 B: docs/performance.md,
 * "Messages of several cells"). */
#define SHL_Q_FBOX_MAX SHL_Q_INLINE_MAX
/* Boxes one receiver polls: 8 keep a poll of all of them within a few nanoseconds and cost
 * at most 8 x 8 KiB per rank. SHOAL_FBOX_PEERS tunes it down (0: no fastboxes, the default
 * when ranks outnumber cores). */
#define SHL_Q_FBOX_PEERS 8
/* cell->bytes of a cell that carries an envelope instead of a payload. */
#define SHL_Q_FBOX_ENVELOPE UINT32_MAX

/* A message's first cell. A longer message goes on in the cells after it (modulo the ring),
 * each carrying SHL_Q_FBOX_MORE payload bytes after its own `seq`, which a sender stamps
 * so that no later look for a first cell there can take it for one (shl_fbox_fill). */
struct shl_fbox_cell {
	_Atomic uint64_t seq;        /* cell number + 1 once written (see shl_fbox_publish) */
	uint64_t ack;                /* the sender's `next` in the box back to it, or
				      * UINT64_MAX (see "Laps") */
	uint32_t bytes;              /* payload size, or SHL_Q_FBOX_ENVELOPE */
	uint32_t context;
	int32_t src;
	int32_t tag;
	union {
		struct shl_envelope *env;
		unsigned char data[SHL_Q_FBOX_HEAD];
	};
};

_Static_assert(sizeof(struct shl_fbox_cell) == 128, "a cell is two cache lines");
_Static_assert(SHL_Q_FBOX_MORE == sizeof(struct shl_fbox_cell) - sizeof(uint64_t),
	       "a further cell is its seq and payload");
_Static_assert(SHL_Q_FBOX_MAX <= SHL_Q_FBOX_HEAD + 2 * SHL_Q_FBOX_MORE,
	       "a message in cells takes at most three");

struct shl_fbox {
	/* The sender's, touched by the sending rank only (rank locked). */
	uint64_t head;               /* cells written */
	uint64_t lap;                /* the number of a cell written to slot 0 ("Laps") */
	uint64_t acked;              /* cells taken, as the receiver's last `ack` said */
	uint64_t tail_seen;          /* `tail` when the sender last read it */
	uint64_t inbox_sent;         /* envelopes sent through the inbox while this box existed */
	uint64_t inbox_seen;         /* `inbox_done` when the sender last read it */
	struct shl_fbox *back_in;    /* the box back from the receiver, whose `next` each
				      * cell's `ack` carries; NULL until found (runtime's) */
	int back_looked;             /* boxes the sender had when it last looked for it */
	/* The receiver's: `next` is private, `tail` and `inbox_done` are read by the sender
	 * when it thinks the box is full or it is still in inbox mode. */
	alignas(64) uint64_t next;   /* number of the next message's first cell */
	uint64_t next_lap;           /* `lap` as the receiver knows it */
	struct shl_fbox *back_out;   /* the box back to the sender, whose `acked` each cell's
				      * `ack` sets; NULL until found (runtime's) */
	int sender;                  /* the sender's world rank: written once, by shl_fbox_open */
	_Atomic uint64_t tail;       /* cells taken; release-stored after they are read */
	_Atomic uint64_t inbox_done; /* flagged inbox envelopes taken */
	alignas(128) struct shl_fbox_cell cells[SHL_Q_FBOX_CELLS];
};

/* The boxes a receiver polls. Senders claim slots; the receiver reads `box` in order. */
struct shl_fbox_set {
	alignas(64) _Atomic int claimed;             /* slots claimed, may exceed the limit */
	struct shl_fbox *_Atomic box[SHL_Q_FBOX_PEERS];  /* NULL until the claimer stores it */
	struct shl_fbox *mem;        /* the boxes of the slots, zeroed (shl_fbox_set_init) */
};

/* Before any sender: the memory of `set`'s `limit` boxes, written once so that its pages
 * are in now: 66 KiB per rank at the default 8 boxes. Faulting a page in costs ~2 µs
 * here; left to the first messages, a 32-rank all-pairs exchange's first round took 620
 * faults and 1.25 ms, against 0.11 ms for later rounds. Returns 0 or -1 (no memory). */
int shl_fbox_set_init(struct shl_fbox_set *set, int limit);

/* Any thread (a sender, for a receiver it has no box to yet): a new box from the rank of
 * world rank `sender`, registered in `set`, or NULL if `set` already has `limit` boxes or
 * none at all. The box stays for the life of the process. */
struct shl_fbox *shl_fbox_open(struct shl_fbox_set *set, int limit, int sender);

/* Owner, once. */
void shl_pool_init(struct shl_pool *pool);
/* Owner, once: a pool whose medium chunks are `chunk_bytes` (the completion thread's,
 * which carry whole eager frames from other nodes). */
void shl_pool_init_sized(struct shl_pool *pool, size_t chunk_bytes);
/* Owner, before any push: an empty inbox with `lanes` lanes in use (1..SHL_Q_LANES). */
void shl_inbox_init(struct shl_inbox *inbox, int lanes);
/* Owner, before any message: at least `n` small envelopes in `pool`, their memory written
 * now, so that the page faults (~2 µs each here) come at start-up rather than in the first
 * messages. Returns 0 or -1 (no memory). */
int shl_pool_prefill(struct shl_pool *pool, unsigned n);

/* Owner: an envelope that owns a chunk of `kind`; NULL only when memory is exhausted. The
 * envelope's fields other than pool/chunk/chunk_kind are garbage. Inline
 * (queues_inline.h), like shl_pool_keep: one of each per message through an inbox. */
static inline struct shl_envelope *shl_pool_get(struct shl_pool *pool, enum shl_q_chunk kind);
/* shl_pool_get's slow path, for an empty list: the envelopes given back, or new ones. */
struct shl_envelope *shl_pool_refill(struct shl_pool *pool, enum shl_q_chunk kind);

/* Any thread: give `env` back to its pool. Lock-free. */
void shl_pool_put(struct shl_envelope *env);

/* Owner of `pool`, whose `back` holds some (callers test it inline): give them back to
 * their pool. Progress does at the end of every pass, so none waits longer than the
 * owner's next MPI call that waits or tests; one that never comes leaves at most
 * SHL_Q_BACK_MAX envelopes unused, which their pool replaces by growing. */
void shl_pool_flush(struct shl_pool *pool);

/* Owner: make `env`, one of `pool`'s small envelopes, a medium one that goes back to the
 * medium list: it takes the chunk of an envelope on that list (which becomes small), or a
 * new one only when the list is empty, so chunks are reused rather than piling up on it.
 * Returns 0 or -1 (no memory). Of `env`, writes only `chunk` and `chunk_kind`. */
int shl_pool_give_chunk(struct shl_pool *pool, struct shl_envelope *env);

/* Envelopes a pool takes in from other pools (shl_pool_keep) before it gives them back
 * instead: 64 × 384 B = 24 KiB per rank. */
#define SHL_Q_KEEP_MAX 64

/* Envelopes of one other pool that shl_pool_keep gathers before it gives them back with
 * one compare-and-swap: a locked instruction waits for the giver's earlier stores, too
 * costly once per message (docs/performance.md, "Envelopes given back in chains"). */
#define SHL_Q_BACK_MAX 64

/* Owner of `pool`, done with `env` from any pool: an envelope that no sender's request
 * points to (no cookie) goes straight to `pool`'s free lists if it is `pool`'s own (an
 * unexpected message copied out of a fastbox cell), or if it is a small one of another
 * pool, up to SHL_Q_KEEP_MAX of those; beyond that it waits in `back` to go back to its
 * pool with the others of that pool received in a row (shl_pool_flush). An envelope a
 * sender's request points to goes back at once (shl_pool_put). A rank that receives as
 * much as it sends then never returns an envelope across cores: each return cost a
 * compare-and-swap on the sender's pool and two cache lines moving between cores. */
static inline void shl_pool_keep(struct shl_pool *pool, struct shl_envelope *env);

#include "queues/queues_inline.h"
#endif
