/* The control channel between mpiexec and node processes (docs/offnode.md, "Control
 * channel"): record framing, the record types, a blocking send of one record, and the
 * bound on a silent peer (SHOAL_PEER_TIMEOUT) with the socket options that enforce it.
 * Entered by mpiexec's thread and by the node proxy's thread (a process each; no shared
 * state). Must not interpret record bodies beyond their framing: callers own the meaning. */
#ifndef SHL_IO_CTL_H
#define SHL_IO_CTL_H

#include <stddef.h>
#include <stdint.h>

#define SHL_IO_CTL_MAGIC 0x434c4853u   /* "SHLC" as little-endian bytes, first in HELLO */
/* 2: HELLO carries a nonce, not the secret; 3: a node sends PID (an older mpiexec would
 * take it for a malformed record); 4: PING and PONG */
#define SHL_IO_CTL_VERSION 4
#define SHL_IO_CTL_SECRET 32           /* bytes of the job secret (256 bits from getrandom) */
/* Largest record body: an ASSIGN of a million ranks is 4 MB; 16 MiB leaves room and still
 * bounds what a peer can make us allocate. */
#define SHL_IO_CTL_MAX (16u << 20)
#define SHL_IO_CTL_HEADER 5            /* u32 length of type + body, u8 type */

enum shl_io_ctl_type {
	SHL_IO_CTL_HELLO = 1,   /* node: u32 magic, u32 version, u32 node, nonce (io/auth.h) */
	SHL_IO_CTL_ASSIGN = 2,  /* mpiexec: u32 world size, u32 nodes, u32 node_of[world] */
	SHL_IO_CTL_ADDR = 3,    /* node: u32 IPv4 (network order bytes), u32 port */
	SHL_IO_CTL_PEERS = 4,   /* mpiexec: every node's ADDR in node order; means "go" */
	SHL_IO_CTL_OUT = 5,     /* node: u32 stream (1, 2), i32 rank (-1), bytes of one line */
	SHL_IO_CTL_EXIT = 6,    /* node: u32 how (0 exited, 1 signal), u32 code or signal */
	SHL_IO_CTL_END = 7,     /* mpiexec: u32 signal for the node process */
	SHL_IO_CTL_ENV = 8,     /* mpiexec, right after ASSIGN: NAME=VALUE strings, each ended
				 * by a NUL byte, for the node process's environment */
	SHL_IO_CTL_STDIN = 9,   /* mpiexec, to rank 0's node: bytes of mpiexec's stdin; an empty
				 * body is end-of-file */
	SHL_IO_CTL_STDIN_ACK = 10, /* node: u32 bytes of STDIN given to the node process (or
				    * dropped); mpiexec keeps at most SHL_IO_CTL_STDIN_WINDOW
				    * bytes unacknowledged */
	SHL_IO_CTL_REPORT = 11, /* mpiexec: u32 what (SHL_IO_CTL_REPORT_*): run the hang report
				 * on the node's host and send it as OUT records, then REPORTED */
	SHL_IO_CTL_REPORTED = 12, /* node: (empty) the REPORT asked for is all sent */
	SHL_IO_CTL_STATE = 13,  /* node: u32 blocked (every rank blocked in MPI or ended),
				 * u64 frames sent, u64 frames retired (io/transport.h,
				 * shl_io_count_frames); sent whenever any of them or a blocked
				 * rank's wake count changes */
	SHL_IO_CTL_PID = 14,    /* node: u32 pid of the node process on its host, once, right
				 * after it is forked (after PEERS): mpiexec's MPIR table */
	SHL_IO_CTL_PING = 15,   /* mpiexec: (empty) every quarter of SHOAL_PEER_TIMEOUT: it
				 * runs; the proxy answers PONG */
	SHL_IO_CTL_PONG = 16,   /* node: (empty) the answer to PING: the proxy runs */
	/* The proof of the secret that follows HELLO (numbered apart from the job's records). */
	SHL_IO_CTL_CHALLENGE = 20,  /* mpiexec: its nonce, its answer to HELLO's nonce */
	SHL_IO_CTL_PROOF = 21,      /* node: its answer to CHALLENGE's nonce */
};

/* What a REPORT asks for: the gdb hang report; the same after each rank's own account of
 * what it waits for (a likely deadlock: only then are the ranks known to be blocked). */
#define SHL_IO_CTL_REPORT_HANG 0
#define SHL_IO_CTL_REPORT_DEADLOCK 1

/* Bytes of stdin in flight to rank 0's node at once: bounds what the proxy buffers when
 * rank 0 reads slowly or never. Four 64 KiB records: the 64 KiB pipe into the node stays
 * full while acknowledgements make their round trip. */
#define SHL_IO_CTL_STDIN_WINDOW (256u << 10)

/* Seconds a peer may stay silent before it is taken for gone (SHOAL_PEER_TIMEOUT): a host
 * whose link is down, whose machine is gone, or whose process is stopped. Long enough for
 * a loaded machine (every answer comes from a thread that does nothing else: mpiexec's
 * loop, the proxy's, the kernel's TCP); short enough that a hang is not mistaken for a
 * slow job for long. */
#define SHL_IO_PEER_TIMEOUT_S 30

/* Any thread: `v` as 4 little-endian bytes at `p` (record bodies are little-endian). */
static inline void shl_io_ctl_put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Any thread: the little-endian 32-bit integer at `p`. */
static inline uint32_t shl_io_ctl_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Any thread: find the first whole record in buf[0, len). Returns the bytes it takes
 * (header and body) and sets *type, *body, *body_len; 0 if the record is not all there
 * yet; -EMSGSIZE if its length is 0 or over SHL_IO_CTL_MAX (the connection is then
 * unusable: there is no boundary to resume at). */
long shl_io_ctl_take(const unsigned char *buf, size_t len, uint8_t *type,
		     const unsigned char **body, size_t *body_len);

/* The thread owning `fd` (blocking socket): send one record whole, retrying on EINTR and
 * short writes. Returns 0 or -errno (-EPIPE once the other side is gone; SIGPIPE is not
 * raised). Bounded by the socket's SO_SNDTIMEO, if any (-EAGAIN then). */
int shl_io_ctl_send(int fd, uint8_t type, const void *body, size_t len);

/* Any thread: SHOAL_PEER_TIMEOUT in seconds as mpiexec passes it on to every host (whole
 * seconds, 0 to 86400; 0: no bound), SHL_IO_PEER_TIMEOUT_S when unset or malformed
 * (mpiexec reports a malformed value; it passes on a valid one). */
long shl_io_peer_timeout_s(void);

/* The thread owning TCP socket `fd`: probe the peer at its other end once the connection
 * has been idle for `timeout_s` seconds (keepalive), so that a connection to a machine gone
 * or cut off fails (ETIMEDOUT, or the network's error) about `timeout_s` later. Not
 * TCP_USER_TIMEOUT: on a link that drops packets now and then, data keeps moving while its
 * retransmission episode outlasts any bound, and that is no silence. 0: nothing is set. */
void shl_io_ctl_keepalive(int fd, long timeout_s);

#endif
