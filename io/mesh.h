/* The completion thread and the TCP mesh between the node processes of a job: one
 * connection per pair of nodes, every socket owned by the completion thread (epoll), send
 * descriptors from rank threads through a wait-free queue, arriving frames handed to the
 * runtime as envelopes. Entered by the node's main thread (shl_io_start), by rank threads
 * (shl_io_post_send) and by the completion thread itself. Knows no MPI semantics: what a
 * frame means for matching is the runtime's (the hooks); never trusts a received byte for
 * memory access before io/frame.c has checked it. */
#ifndef SHL_IO_MESH_H
#define SHL_IO_MESH_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/auth.h"
#include "io/ctl.h"
#include "io/frame.h"
#include "queues/queues.h"

/* What a node process needs to join the mesh: from the control channel's ASSIGN and PEERS
 * records (docs/offnode.md). shl_io_start copies what it keeps. */
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

/* A receive matched with a rendezvous message (an envelope with payload SHL_Q_REMOTE):
 * where its DATA goes. Filled by the runtime, posted with its CTS, owned by the completion
 * thread until hooks->received. */
struct shl_io_recv {
	void *buf;                   /* dense bytes: the first `keep` are stored */
	uint64_t keep;               /* what fits the receive (truncation drops the rest) */
	uint64_t total;              /* the message's size (the RTS's) */
	int32_t src, dst;            /* world ranks of the sender and the receiver */
	/* The completion thread's. */
	uint64_t got;
	uint64_t id;                 /* the receiver's id, carried by CTS and DATA frames */
	struct shl_io_recv *next;
};

/* The runtime's side, called in the completion thread only. */
struct shl_io_hooks {
	/* An EAGER message for world rank `dst` of this node, in `env` (from the completion
	 * thread's pool; context, src, tag, bytes and payload filled, no cookie): give it to
	 * that rank (push into its inbox, wake it). Returns 0, or -EPROTO if the runtime
	 * refuses the envelope (a context no communicator spanning nodes has); `env` is still
	 * the caller's then. */
	int (*deliver)(int32_t dst, struct shl_envelope *env);
	/* The send posted with `req` has been written to its socket (called with NULL too). */
	void (*sent)(void *req);
	/* Every DATA byte of the rendezvous receive `rv` has arrived; rv is the runtime's
	 * again. */
	void (*received)(struct shl_io_recv *rv);
	/* The rendezvous send posted with `req` was cancelled (a CANCEL posted for it found
	 * its receiver had not matched it): it will never be written. */
	void (*cancelled)(void *req);
};

/* A frame from a rank to a rank of another node. Allocated with malloc by the poster and
 * freed by the completion thread once written (after hooks->sent), with `owned`.
 * An RTS arriving is an envelope with a non-NULL cookie (so that a receive claims it
 * against a cancel, as on the node) that the completion thread keeps a reference to
 * until the CTS posted for it, or a successful cancel; the runtime never frees it.
 *  - EAGER: frame.length payload bytes at `payload`; `req` is passed to hooks->sent.
 *  - RTS (a rendezvous send): `payload` is 8 bytes holding `bytes` (little-endian); the
 *    message is `bytes` dense bytes at `data`. The thread sets frame.cookie, keeps the
 *    descriptor until the CTS, then writes DATA frames from `data` and calls hooks->sent
 *    with `req` after the last.
 *  - CTS (a receive matched with an RTS): frame.cookie echoes the RTS's, `recv` says where
 *    the DATA goes; `payload` is 8 bytes the thread fills with recv->id.
 *  - CANCEL (MPI_Cancel of a rendezvous send): `req` is the send's request, frame.dst its
 *    receiver, no payload. If that RTS is written and waits for its CTS, the thread asks
 *    the receiver's node to drop it (hooks->cancelled if it could); one not written yet is
 *    dropped at once (hooks->cancelled), one half written gets its CANCEL once written;
 *    otherwise (answered) nothing happens and the send completes as usual. hooks->sent is not called for a CANCEL. */
struct shl_io_send {
	struct cds_wfcq_node link;           /* in the submission queue, then a node's queue */
	struct shl_io_frame frame;
	const void *payload;                 /* the user's buffer, or `packed` */
	void *req;                           /* passed to hooks->sent */
	const void *data;                    /* RTS: the message */
	uint64_t bytes;                      /* RTS: its size */
	void *owned;                         /* freed with the descriptor, or NULL */
	struct shl_io_recv *recv;            /* CTS */
	bool counted;                        /* completion thread: counts for shl_io_finish */
	bool cancel;                         /* completion thread: RTS being written, cancelled:
					      * send CANCEL once it is out */
	struct shl_io_send *next;            /* completion thread: its node's output queue */
	unsigned char wire[SHL_IO_FRAME_HEADER];  /* completion thread: the encoded header */
	alignas(16) unsigned char packed[];  /* the payload when the poster packed it */
};

/* The mesh greeting (docs/offnode.md): the connecting (lower) node sends magic "SHLM",
 * version 2, its node index and a fresh nonce; the accepting node answers with "SHLM", its
 * own nonce and its HMAC answer to the first (io/auth.h); the connecting node checks it and
 * sends its answer to the second. The secret itself never crosses the network. */
#define SHL_IO_HELLO_MAGIC 0x4d4c4853u
#define SHL_IO_HELLO_VERSION 2
#define SHL_IO_HELLO_BYTES (12 + SHL_IO_AUTH_NONCE)
#define SHL_IO_CHALLENGE_BYTES (4 + SHL_IO_AUTH_NONCE + SHL_IO_AUTH_PROOF)

/* Node process, main thread, once, after the runtime's rank table exists and before any
 * rank runs: connect to every higher-numbered node (all at start: the mesh is complete
 * before the first send, at the price of n-1 connections per node whether used or not),
 * then start the completion thread, which accepts the lower-numbered nodes' connections
 * and keeps running for the life of the process. Returns 0 or -errno (a node that cannot
 * be reached: -ECONNREFUSED, -ETIMEDOUT...). */
int shl_io_start(const struct shl_io_config *cfg, const struct shl_io_hooks *hooks);

/* Any thread, after shl_io_start: queue `d` for the completion thread. Wait-free but for
 * the wake-up, one eventfd write when the queue was empty and the thread not polling. An
 * EAGER frame is instead written by the caller (one non-blocking sendmsg, hooks->sent
 * called in the caller's thread) when the thread is idle (a trylock) and nothing is queued
 * for that node: one thread hand-off less per message. */
void shl_io_post_send(struct shl_io_send *d);

/* Rank thread spinning in a wait (`joined` false at its start): if the completion thread
 * is idle (a trylock), read every connection now, as the thread would (arriving messages
 * go to their ranks' inboxes through the hooks, called in the caller's thread). From the
 * first such call that got the lock (*joined becomes true) until shl_io_poll_end, the
 * connections' arrivals no longer wake the thread: on cores shared with the thread, the
 * message waited for is read by its waiter without a thread hand-off
 * (docs/performance.md, "Off-node"). Returns whether anything was read. */
bool shl_io_poll(bool *joined);

/* The same thread, after shl_io_poll set *joined: it no longer polls (its wait is over,
 * or it goes to sleep). Once no rank polls, arrivals wake the completion thread again. */
void shl_io_poll_end(void);

/* Any thread (the deadlock watchdog): frames of this node's mesh so far. `sent` counts
 * every frame posted by a rank (when posted, so frames still queued count) or made by the
 * completion thread (DATA after a CTS, CANCELLED, CANCEL), `retired` every frame read here
 * whole and handed over, or posted here and dropped unwritten (a cancelled RTS). Both only
 * grow, and a frame is counted sent before it is retired, so over a job's nodes, read at
 * one moment, sum(sent) - sum(retired) is the number of frames still to be written, in
 * flight or being read. A frame retired after making others (a CTS its DATA) counts them
 * first, so the sums never read level while those are still to be sent. Both 0 before
 * shl_io_start. */
void shl_io_count_frames(uint64_t *sent, uint64_t *retired);

/* Node process, main thread, once every rank thread has ended: wait until every posted
 * send has been written to its socket (a send completes at once for small payloads, so a
 * node must not end with some still queued), at most `timeout_ms`. Returns 0, or
 * -ETIMEDOUT (a node not reading). */
int shl_io_finish(unsigned timeout_ms);

#endif
