/* What the files of the TCP mesh share (io/mesh.h): a connection, what this node sends to
 * another node, the mesh's process-wide state, and the calls between io/mesh.c (the
 * completion thread's loop), io/conn.c (connections and their greeting) and io/stream.c
 * (frames written to and read from a connection). Every call here is made holding io.lock
 * unless it says otherwise. Not for anything outside those three files. */
#ifndef SHL_IO_MESH_INTERNAL_H
#define SHL_IO_MESH_INTERNAL_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "io/mesh.h"

/* Input buffer of a connection: small frames (headers, eager payloads, greetings) come out
 * of one read() of up to this many bytes, instead of a read() per part and one more to
 * learn the socket is empty. */
#define SHL_IO_IBUF (64u * 1024)

/* What a connection's next bytes are. */
enum in_state {
	IN_HELLO,                    /* the greeting (accepted connections) */
	IN_PROOF,                    /* the answer to our challenge (accepted connections) */
	IN_CHALLENGE,                /* the accepting node's challenge (connections we made) */
	IN_CONNECTING,               /* a lazy connection's connect() in progress (EPOLLOUT) */
	IN_HEADER,                   /* a frame header */
	IN_PAYLOAD,                  /* a frame's payload, into `sink` */
};

/* One TCP connection to another node. */
struct conn {
	int fd;
	bool authed;                 /* the hello proved the secret (always, for ones we made) */
	uint32_t node;               /* the other end (once authed) */
	char name[48];               /* its address, for reports */
	bool dialed;                 /* we made it: `claimed` is the node we called */
	uint32_t claimed;            /* the node its greeting claims to be */
	unsigned char nonces[2 * SHL_IO_AUTH_NONCE];  /* its nonce, then ours */
	struct shl_io_frame_rules rules;
	enum in_state in;
	size_t got;                  /* bytes of the current part read */
	unsigned char hdr[SHL_IO_CHALLENGE_BYTES];  /* greetings and frame headers */
	struct shl_io_frame f;
	struct shl_io_sink sink;     /* where the payload of `f` goes (io/proto.c) */
	struct conn *dead;           /* closed during this batch of events: freed after it */
	struct conn *next_authed;    /* io.authed */
	/* Accepted connections still to greet: a list with their deadlines. */
	struct conn *greeting;
	time_t deadline;             /* CLOCK_MONOTONIC seconds */
	/* Input: bytes read but not yet taken are ibuf[ipos, ihave). */
	bool more;                   /* the socket may hold more: the last read filled its space */
	size_t ipos, ihave;
	unsigned char ibuf[];        /* SHL_IO_IBUF bytes */
};

/* What this node sends to one other node. */
struct peer {
	struct conn *out;            /* the connection frames go on; NULL until made */
	bool lost;                   /* `out` closed: nothing more can be sent there */
	bool pollout;                /* waiting for EPOLLOUT */
	bool dialed;                 /* lazy: we have called that node */
	uint64_t owed_ns;            /* since when (as last seen) what we sent is not all
				      * acknowledged; 0: all is (io/mesh.c watch) */
	struct shl_io_send *head, **tail;
	size_t off;                  /* bytes of `head` (header + payload) already written */
};

/* The mesh's process-wide state, `io` in every file of the mesh (defined in io/mesh.c).
 * Fixed by start before the thread starts: the config copies, ep, wake. Submission queue:
 * any thread enqueues, the lock holder dequeues. Everything else: the lock holder's. */
struct shl_mesh {
	uint32_t node, nnodes;
	int32_t world_size;
	uint32_t *node_of;
	bool lazy;                   /* connections on first use (SHOAL_CONNECT=lazy) */
	struct sockaddr_in *addr;    /* every node's listener, for lazy connections */
	unsigned char secret[SHL_IO_CTL_SECRET];
	char host[64];
	int ep, wake, listen;
	struct peer *peers;
	struct conn *dead;
	struct conn *greeting;       /* connections that have not greeted yet, newest first */
	int unproved;                /* accepted connections on `greeting` */
	int spare;                   /* a descriptor held back for accept when out of them */
	bool has_spare;
	uint64_t shed;               /* accepted connections dropped for newer ones, unreported */
	time_t shed_said;            /* when the last of those was reported */
	struct conn *authed;         /* connections that proved the secret, open */
	/* Rank threads spinning in a wait that read the connections themselves
	 * (shl_io_poll); while there are any, the authed connections' arrivals do not wake
	 * the thread (`disarmed`: no EPOLLIN). */
	int pollers;
	bool disarmed;
	uint64_t reads;              /* read() calls that returned bytes */
	unsigned char scratch[SHL_IO_EAGER_MAX];  /* DATA bytes beyond a truncated receive */
	uint64_t poll_ns;            /* fixed at start (shl_io_config) */
	long peer_s;                 /* SHOAL_PEER_TIMEOUT, fixed at start (0: no bound) */
	uint64_t watched_ns;         /* when io/mesh.c watch last looked */
	/* Held by the thread whenever it is not waiting in epoll_wait or yielding; a rank
	 * that gets it with trylock may take the posts itself (post) or read the connections
	 * (poll). It guards everything the thread owns, and io/proto.c's state. */
	pthread_mutex_t lock;
	/* The thread polls (is not asleep in epoll_wait): posters need not write `wake`.
	 * Written by the thread, read by posters; seq_cst both ways (post). */
	alignas(64) _Atomic bool polling;
	alignas(64) struct __cds_wfcq_head sub_head;
	alignas(64) struct cds_wfcq_tail sub_tail;
};

extern struct shl_mesh io;

/* ---- io/mesh.c ---- */

/* Any thread: a line on stderr about connection `c` (dropped, rejected). */
void shl_mesh_report(const struct conn *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Any thread: the mesh cannot go on: end the node process (mpiexec then ends the job). */
_Noreturn void shl_mesh_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same, for a connection a peer node closed while we still needed it: after a grace
 * period for mpiexec to end the job for that node's own error. */
_Noreturn void shl_mesh_die_peer_gone(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Authed connection `c`'s node has not answered for SHOAL_PEER_TIMEOUT: nothing we sent
 * acknowledged (io/mesh.c watch), or no answer to keepalive probes (io/ctl.h,
 * shl_io_ctl_keepalive: the socket failed). End the node process naming that node and
 * this one. */
_Noreturn void shl_mesh_die_silent(const struct conn *c);

/* Whether errno `err`, from a read or write of an authed connection, says its node stopped
 * answering (keepalive gave up: ETIMEDOUT, or the network's error it met meanwhile). */
bool shl_mesh_silent_errno(int err);

/* Set the events epoll reports for authed connection `c`: none while ranks read and write
 * the connections themselves (io.disarmed), else EPOLLIN, and EPOLLOUT while frames wait
 * for room in it. Errors and hang-ups are always reported. */
void shl_mesh_arm(struct conn *c);

/* ---- io/conn.c ---- */

/* Main thread, in start, before the thread exists: all at start, connect to every
 * higher-numbered node and greet it (a node that has ended already is marked lost, to be
 * missed quietly). Returns 0 or -errno, reported. */
int shl_mesh_connect_all(const struct shl_io_config *cfg);

/* Lazily, the first frame for node `n`: call it (a non-blocking connect, finished by
 * shl_mesh_connected on EPOLLOUT). A node that cannot be called ends this one. */
void shl_mesh_call(uint32_t n);

/* The connect() of lazy connection `c` reported `events`: greet, or give up on that node. */
void shl_mesh_connected(struct conn *c, uint32_t events);

/* The listener is readable: take every connection waiting, to greet within a deadline;
 * past a bound on the accepted connections still to greet, drop the oldest. */
void shl_mesh_accept(void);

/* Drop the connections that have not greeted in time; report the ones dropped for newer
 * ones. */
void shl_mesh_expire(void);

/* The greeting part c->in names (IN_HELLO, IN_PROOF, IN_CHALLENGE) is read whole into
 * c->hdr: check it and answer. Returns 0, or -errno after reporting (close `c`). */
int shl_mesh_greet(struct conn *c);

/* Close `c` (freed after the current batch of events). Sends still queued for its node
 * can never be written: that ends the job. */
void shl_mesh_close(struct conn *c);

/* ---- io/stream.c ---- */

/* Read what `c` has: the greeting, frames' headers and payloads, until the socket is empty.
 * Closes `c` at EOF or on anything it rejects. */
void shl_mesh_drain(struct conn *c);

/* Write what node `n` has queued, as far as its socket takes it. */
void shl_mesh_flush(uint32_t n);

/* tp->write and tp->unwrite (io/transport.h). */
void shl_mesh_write(struct shl_io_send *d);
bool shl_mesh_unwrite(struct shl_io_send *d);

#endif
