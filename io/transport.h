/* The seam between the runtime and a transport between node processes. Three parties:
 *  - the runtime (runtime/p2p/remote.c) chooses the protocol of each message from the
 *    transport's limits (eager, or rendezvous: RTS, CTS, DATA; cancel) and posts it with
 *    the shl_io_post_* calls below; it gets arrivals and completions through its hooks;
 *  - the protocol (io/proto.c, every transport's) keeps the state of rendezvous and
 *    cancels, the send descriptors' pools, the envelopes of arriving messages and the
 *    frame counts;
 *  - a transport (io/mesh.c: TCP) fills a struct shl_tp_ops: it moves frames and bytes
 *    between nodes, and calls the protocol back for each frame it writes or reads.
 * Entered by the node's main thread (start), rank threads (posts, polls) and whoever holds
 * the transport's lock (its completion thread, or a rank that got the lock): every call of
 * a transport into the protocol is made holding it, one at a time.
 * Nothing here knows a socket; nothing in a transport knows what a frame means. */
#ifndef SHL_IO_TRANSPORT_H
#define SHL_IO_TRANSPORT_H

#include <netinet/in.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/frame.h"
#include "queues/queues.h"

/* ---- the runtime's side ---- */

/* What a node process needs to join the job's transport: from the control channel's ASSIGN
 * and PEERS records (docs/offnode.md). The first four fields are every transport's; the
 * others the TCP mesh's (io/mesh.c). shl_io_start copies what it keeps. */
struct shl_io_config {
	uint32_t node;                   /* this node's index */
	uint32_t nnodes;
	int32_t world_size;
	const uint32_t *node_of;         /* node index of every world rank */
	const struct sockaddr_in *addr;  /* every node's mesh listener, by node index */
	int listen;                      /* this node's listener; the completion thread's now */
	const unsigned char *secret;     /* SHL_IO_CTL_SECRET bytes: the job secret */
	const char *host;                /* this node's host name, for reports */
	/* How long the completion thread keeps polling (epoll_wait without sleeping, yielding
	 * the core between polls) after its last event or post; 0: it sleeps in epoll_wait at
	 * once. While it polls, posters do not write its eventfd. */
	uint64_t poll_ns;
	/* Connect to a node on the first frame for it (either side may call; each sends on
	 * whichever connection proved itself first) instead of to every higher node at start. */
	bool lazy;
};

/* What a transport can do, published once by its limits op before it starts. */
struct shl_io_limits {
	/* Largest message sent eagerly (EAGER: the whole message in one frame); a larger one,
	 * and every synchronous send, goes by rendezvous. */
	uint64_t eager_max;
	/* Largest payload a send descriptor holds copied (a send that completes at once,
	 * before it is written): the space of its pool's large descriptors. At least
	 * eager_max, since a packed or buffered eager message is copied whole. */
	uint64_t inline_max;
	/* Largest payload of one DATA frame: a rendezvous message is cut in frames of this. */
	uint64_t frame_max;
	/* Whether the transport can read or write a remote node's memory (RDMA). No protocol
	 * uses them yet: every transport gets RTS, CTS, then DATA frames. */
	bool rdma_read, rdma_write;
};

/* A receive matched with a rendezvous message (an envelope with payload SHL_Q_REMOTE):
 * where its DATA goes. Part of the CTS's send descriptor (shl_io_recv_get): the runtime
 * fills the first fields and posts it (shl_io_post_cts); it is the protocol's until
 * hooks->received, and goes back to its pool after that hook returns. */
struct shl_io_recv {
	void *buf;                   /* dense bytes: the first `keep` are stored */
	uint64_t keep;               /* what fits the receive (truncation drops the rest) */
	int32_t src, dst;            /* world ranks of the sender and the receiver */
	void *req;                   /* the runtime's: its receive */
	void *owned;                 /* the runtime's: a buffer it frees in hooks->received */
	/* The protocol's. */
	uint64_t total;              /* the message's size (the RTS's) */
	uint64_t got;                /* bytes arrived */
	uint64_t id;                 /* the receiver's id, carried by CTS and DATA frames */
	struct shl_io_recv *next;    /* in the list of receives waiting for DATA */
};

/* The runtime's side, called by whoever holds the transport's lock. */
struct shl_io_hooks {
	/* An EAGER message, or an RTS (payload SHL_Q_REMOTE), for world rank `dst` of this
	 * node, in `env` (from the protocol's envelope pool; context, src (a world rank), tag,
	 * bytes and payload filled): give it to that rank (push into its inbox, wake it).
	 * Returns 0, or -EPROTO if the runtime refuses the envelope (a context no communicator
	 * spanning nodes has); `env` is still the protocol's then. */
	int (*deliver)(int32_t dst, struct shl_envelope *env);
	/* The send posted with request `req` (not NULL) has been written to its node. */
	void (*sent)(void *req);
	/* Every DATA byte of the rendezvous receive `rv` has arrived (for an empty message:
	 * its CTS is taken). */
	void (*received)(struct shl_io_recv *rv);
	/* The rendezvous send posted with `req` was cancelled (a CANCEL posted for it found
	 * its receiver had not matched it): it will never be written. */
	void (*cancelled)(void *req);
};

/* Who a message goes from and to, and what it is for matching. */
struct shl_io_msg {
	int32_t src, dst;            /* world ranks */
	uint32_t context;            /* communicator context id */
	int32_t tag;
};

/* A frame from a rank to a rank of another node. Send descriptors come from the pool of
 * the rank that posts (shl_io_send_get), or of the transport's lock holder for frames the
 * protocol makes (DATA, CANCEL, CANCELLED), and go back to their pool when done:
 *  - EAGER: frame.length payload bytes at `payload`; hooks->sent(req) once written.
 *  - RTS (a rendezvous send): the message is `bytes` dense bytes at `data`; the protocol
 *    keeps the descriptor from its posting until the CTS, then writes DATA frames from
 *    `data` (the last one reuses the descriptor) and calls hooks->sent(req) after the last
 *    (at the CTS for an empty message, which has no DATA).
 *  - CTS (a receive matched with an RTS): frame.cookie echoes the RTS's; `rv` says where
 *    the DATA goes. Back to its pool once written and every DATA byte is in.
 *  - CANCEL (MPI_Cancel of a rendezvous send): `req` is the send's request, frame.dst its
 *    receiver. If that RTS is written and waits for its CTS, the receiver's node is asked
 *    to drop it (hooks->cancelled if it could); one not written yet is dropped at once
 *    (hooks->cancelled), one half written gets its CANCEL once written; otherwise (answered)
 *    nothing happens and the send completes as usual. */
struct shl_io_send {
	/* The transport's, between tp->post or tp->write and shl_proto_written. */
	struct cds_wfcq_node link;           /* in a submission queue */
	struct shl_io_send *next;            /* in a node's output queue; in a pool's lists */
	unsigned char wire[SHL_IO_FRAME_HEADER];  /* the encoded header */
	/* The frame: set by the protocol, read by the transport. */
	struct shl_io_frame frame;
	const void *payload;                 /* frame.length bytes */
	/* The protocol's (io/proto.c). */
	void *req;                           /* passed to hooks->sent or hooks->cancelled */
	const void *data;                    /* RTS: the message */
	uint64_t bytes;                      /* RTS: its size */
	void *owned;                         /* RTS: malloc'ed by the runtime, freed once the
					      * send is done, or NULL */
	struct shl_io_send *later;           /* RTS: in its node's list of unanswered RTS */
	uint8_t state;                       /* enum in io/proto.c */
	bool counted;                        /* its writing counts for shl_io_finish */
	bool cancel;                         /* RTS cancelled: its CANCEL goes once it is
					      * out (being written), or went (a CANCELLED
					      * may answer it) */
	uint8_t kind;                        /* its pool's list: small or large */
	struct shl_io_pool *home;            /* the pool it goes back to */
	struct shl_io_recv rv;               /* CTS */
	unsigned char small[8];              /* the RTS's size, the CTS's receiver id */
	alignas(16) unsigned char space[];   /* a payload copied by the poster */
};

/* Node process, main thread, once, after the runtime's rank table exists and before any
 * rank runs: start transport `tp` (it connects to the other nodes, or does so on first use,
 * and starts its completion thread). Returns 0 or -errno (a node that cannot be reached:
 * -ECONNREFUSED, -ETIMEDOUT...). */
struct shl_tp_ops;
int shl_io_start(const struct shl_tp_ops *tp, const struct shl_io_config *cfg,
		 const struct shl_io_hooks *hooks);

/* Any thread, after shl_io_start: the transport's limits. */
const struct shl_io_limits *shl_io_limits(void);

/* Rank thread of world rank `src`, rank locked: a send descriptor from its rank's pool with
 * `space` payload bytes (at most shl_io_limits()->inline_max; 0 for a payload sent from
 * where it is), to post with shl_io_post_eager or shl_io_post_rts. NULL when memory is
 * exhausted. */
struct shl_io_send *shl_io_send_get(int32_t src, uint64_t space);

/* The rank thread that got `d`, rank locked: give it back unposted. */
void shl_io_send_put(struct shl_io_send *d);

/* Rank thread, rank locked: send `bytes` bytes at `payload` (the user's buffer, or d->space)
 * as one EAGER frame (bytes <= eager_max). hooks->sent(req) once written, when `req` is not
 * NULL. */
void shl_io_post_eager(struct shl_io_send *d, const struct shl_io_msg *m, const void *payload,
		       uint64_t bytes, void *req);

/* Rank thread, rank locked: send `bytes` dense bytes at `data` by rendezvous; `owned` (or
 * NULL) is freed once the send is done. hooks->sent(req) once every DATA frame is written
 * (req NULL: nothing is called), hooks->cancelled(req) if cancelled. */
void shl_io_post_rts(struct shl_io_send *d, const struct shl_io_msg *m, const void *data,
		     uint64_t bytes, void *owned, void *req);

/* Whoever holds the transport's lock, inside hooks->deliver (an arrival answered at once,
 * by a node's reader rather than a rank: one-sided communication): a descriptor of the
 * protocol's own pool with `space` payload bytes (at most shl_io_limits()->inline_max), to
 * fill and post with shl_io_post_answer. Never NULL (out of memory ends the node). */
struct shl_io_send *shl_io_answer_get(uint64_t space);

/* The same thread: send the first `bytes` of d->space as one EAGER frame (bytes <=
 * eager_max), written now (tp->write) and counted as a frame this node made, before the
 * frame being delivered is retired (shl_io_count_frames). */
void shl_io_post_answer(struct shl_io_send *d, const struct shl_io_msg *m, uint64_t bytes);

/* Any thread that does not hold the transport's lock and may not own a rank's pool (a
 * release of a lock waking a request of another node): send a copy of `bytes` bytes at
 * `payload` (bytes <= eager_max) as one EAGER frame, from a pool shared under a mutex.
 * Returns false when memory is exhausted (nothing is sent). */
bool shl_io_post_copy(const struct shl_io_msg *m, const void *payload, uint64_t bytes);

/* Rank thread of world rank `dst`, rank locked: a rendezvous receive's record, in a send
 * descriptor of its rank's pool; NULL when memory is exhausted. */
struct shl_io_recv *shl_io_recv_get(int32_t dst);

/* Rank thread, rank locked: receive `rv` (buf, keep, src, dst, req, owned filled) matched
 * `env`, a rendezvous envelope delivered by hooks->deliver: ask its sender for the data
 * (CTS). `env` stays the protocol's: it is given back when the CTS is taken. */
void shl_io_post_cts(struct shl_io_recv *rv, const struct shl_envelope *env);

/* Rank thread of world rank `src`, rank locked: cancel the rendezvous send of `req` to `dst`
 * on `context`. Returns false when memory is exhausted (nothing is asked: the send
 * completes as usual). */
bool shl_io_post_cancel(int32_t src, int32_t dst, uint32_t context, void *req);

/* Rank thread spinning in a wait (`joined` false at its start): if the transport is idle
 * (a trylock), read every connection now, as its completion thread would (arriving messages
 * go to their ranks' inboxes through the hooks, called in the caller's thread). From the
 * first such call that got the lock (*joined becomes true) until shl_io_poll_end, arrivals
 * no longer wake the completion thread: on cores shared with it, the message waited for is
 * read by its waiter without a thread hand-off (docs/performance.md, "Off-node"). Returns
 * whether anything was read. */
bool shl_io_poll(bool *joined);

/* The same thread, after shl_io_poll set *joined: it no longer polls (its wait is over,
 * or it goes to sleep). Once no rank polls, arrivals wake the completion thread again. */
void shl_io_poll_end(void);

/* Any thread (the deadlock watchdog): frames of this node so far. `sent` counts every
 * frame posted by a rank or shl_io_post_copy (when posted, so frames still queued count)
 * or made by the protocol (DATA after a CTS, CANCELLED, CANCEL, shl_io_post_answer), `retired` every frame read here whole
 * and handed over, or posted here and dropped unwritten (a cancelled RTS). Both only grow,
 * and a frame is counted sent before it is retired, so over a job's nodes, read at one
 * moment, sum(sent) - sum(retired) is the number of frames still to be written, in flight
 * or being read. A frame retired after making others (a CTS its DATA) counts them first,
 * so the sums never read level while those are still to be sent. Both 0 before
 * shl_io_start. */
void shl_io_count_frames(uint64_t *sent, uint64_t *retired);

/* Node process, main thread, once every rank thread has ended: wait until every posted
 * send has been written (a send completes at once for small payloads, so a node must not
 * end with some still queued), at most `timeout_ms`. Returns 0, or -ETIMEDOUT (a node not
 * reading). */
int shl_io_finish(unsigned timeout_ms);

/* ---- a transport's side ---- */

/* Where the payload of a frame being read goes: the first `keep` bytes to `buf`, the rest
 * read and dropped (a DATA frame beyond a truncated receive). Filled by shl_proto_header,
 * kept by the transport with the frame until shl_proto_frame or shl_proto_abort. */
struct shl_io_sink {
	unsigned char *buf;
	uint64_t keep;
	struct shl_envelope *env;    /* the protocol's: an EAGER frame's envelope */
	struct shl_io_recv *rv;      /* the protocol's: a DATA frame's receive */
	unsigned char small[8];      /* an RTS's or a CTS's payload */
	char why[96];                /* why the protocol refused the frame, for a report */
};

/* A transport: its operations, called by the protocol. */
struct shl_tp_ops {
	const char *name;
	/* Main thread, once, first: what this transport can do. */
	void (*limits)(struct shl_io_limits *out);
	/* Main thread, once: join the job as `cfg` says and start the completion thread.
	 * Returns 0 or -errno. */
	int (*start)(const struct shl_io_config *cfg);
	/* Any thread: take posted descriptor `d`; the transport calls shl_proto_take(d)
	 * holding its lock, in posting order for each poster. */
	void (*post)(struct shl_io_send *d);
	/* Holding the lock: queue `d` for the node of world rank d->frame.dst, after every
	 * frame queued there, and write what can be written; shl_proto_written(d) once it is
	 * written whole (perhaps before this returns). */
	void (*write)(struct shl_io_send *d);
	/* Holding the lock: take back `d`, given to write and not yet written whole. Returns
	 * true if none of it was written (it never will be), false if it will be written whole
	 * (part of it is out). */
	bool (*unwrite)(struct shl_io_send *d);
	/* shl_io_poll and shl_io_poll_end, for this transport. */
	bool (*poll)(bool *joined);
	void (*poll_end)(void);
	/* The node cannot go on (out of memory, a frame that breaks the protocol's state): end
	 * the node process with this message, as the transport ends it. */
	void (*fail)(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
};

/* The protocol's calls for a transport (io/proto.c), each made holding the transport's
 * lock. */

/* A descriptor posted through tp->post: act on it (an RTS gets its cookie, a CTS registers
 * its receive, a CANCEL finds its RTS) and give what is to be written to tp->write. */
void shl_proto_take(struct shl_io_send *d);

/* Descriptor `d` given to tp->write is written whole. */
void shl_proto_written(struct shl_io_send *d);

/* The header `f` of a frame from node `from` passed shl_io_frame_decode: fill `*s` with
 * where its frame.length payload bytes go. Returns 0, or -EPROTO (s->why says why) for a
 * frame the protocol refuses: the transport drops the connection. */
int shl_proto_header(uint32_t from, const struct shl_io_frame *f, struct shl_io_sink *s);

/* Every payload byte of frame `f` (given to shl_proto_header with `s`) has been read:
 * hand the frame over. Returns 0, or -EPROTO (s->why) as shl_proto_header. */
int shl_proto_frame(uint32_t from, const struct shl_io_frame *f, struct shl_io_sink *s);

/* The connection of frame `f` is gone before its payload was read whole: give back what
 * shl_proto_header took for it. */
void shl_proto_abort(const struct shl_io_frame *f, struct shl_io_sink *s);

#endif
