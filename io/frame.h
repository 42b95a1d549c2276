/* The wire format of messages between node processes: the 40-byte frame header, its
 * encoding, and the checks a received header must pass before any byte of it is trusted.
 * Entered by any thread (pure functions on caller memory; no sockets, no shared state).
 * Must not allocate, block, or read past the buffer it is given. */
#ifndef SHL_IO_FRAME_H
#define SHL_IO_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHL_IO_FRAME_MAGIC 0x464c4853u  /* "SHLF" as little-endian bytes */
#define SHL_IO_FRAME_VERSION 1
#define SHL_IO_FRAME_HEADER 40          /* bytes on the wire, see docs/offnode.md */
/* Largest EAGER payload: one socket write of a header and 64 KiB costs about as much as
 * the RTS/CTS round trip it saves on loopback (docs/offnode.md). */
#define SHL_IO_EAGER_MAX (64u * 1024)
/* Largest DATA payload: bounds what one frame can make a reader expect. */
#define SHL_IO_CHUNK_MAX (4u * 1024 * 1024)
/* Largest message an RTS may announce: 2^47 bytes, the x86-64 user address space. */
#define SHL_IO_MESSAGE_MAX (UINT64_C(1) << 47)
/* The context bit of the runtime's internal traffic (collectives across nodes, tagged
 * 0..INT32_MAX), and the largest tag of a user message (MPI_TAG_UB); the runtime asserts
 * both equal its own (runtime/p2p/remote.c). */
#define SHL_IO_CONTEXT_INTERNAL 0x80000000u
#define SHL_IO_TAG_MAX 0x3fffffff

enum shl_io_frame_type {
	SHL_IO_EAGER = 1,  /* the whole message follows */
	SHL_IO_RTS = 2,    /* request to send: payload is the message size (u64) */
	SHL_IO_CTS = 3,    /* clear to send: cookie echoes the RTS, payload the receiver's id */
	SHL_IO_DATA = 4,   /* part of a rendezvous message; cookie is the receiver's id */
	SHL_IO_CANCEL = 5,     /* the sender cancels the RTS whose cookie this echoes; no payload */
	SHL_IO_CANCELLED = 6,  /* the receiver dropped that RTS unmatched (the answer to CANCEL
				* when it succeeds; a failed cancel gets no answer: a CTS comes) */
};

/* A frame header as the program sees it (host byte order). */
struct shl_io_frame {
	uint8_t type;      /* enum shl_io_frame_type */
	uint16_t flags;    /* 0: no flag is defined yet */
	int32_t src;       /* world rank of the sender */
	int32_t dst;       /* world rank of the receiver */
	uint32_t context;  /* communicator context id */
	int32_t tag;
	uint64_t length;   /* payload bytes after the header */
	uint64_t cookie;
};

/* What one connection may carry: set up once per connection, read-only afterwards. */
struct shl_io_frame_rules {
	int32_t world_size;
	const uint32_t *node_of;  /* node index of every world rank */
	uint32_t from_node;       /* the node at the other end: every src must be one of its */
	uint32_t to_node;         /* this node: every dst must be one of its */
	uint32_t eager_max;       /* EAGER payload limit, <= SHL_IO_EAGER_MAX */
};

/* Any thread: write `f` as SHL_IO_FRAME_HEADER bytes at `out` (magic and version added). */
void shl_io_frame_encode(const struct shl_io_frame *f, unsigned char *out);

/* Any thread: read the header at the start of `buf` (`len` bytes available) into `*f` and
 * check it against `rules`. Returns 0 when the header is valid, -EAGAIN when `len` is
 * shorter than a header (nothing was judged), or the reason it is rejected:
 *   -EPROTO           bad magic, unknown type, or a flag set
 *   -EPROTONOSUPPORT  another version of the protocol
 *   -EMSGSIZE         payload length impossible for the type (or an RTS announcing more
 *                     than SHL_IO_MESSAGE_MAX)
 *   -ENXIO            src not a rank of the sending node, or dst not a rank of this one
 *   -EBADMSG          a field its type cannot carry: an EAGER or RTS tag that is negative
 *                     (or, on a user context, over SHL_IO_TAG_MAX); an internal context
 *                     on a CANCEL or CANCELLED (the runtime never cancels its own sends);
 *                     an RTS, CTS, DATA, CANCEL or CANCELLED cookie of 0 (ids start at 1)
 * The RTS/CTS payload (8 bytes) is checked by shl_io_frame_decode_size once read. On error
 * `*f` holds what was read, for the report. Never reads beyond buf[len - 1]. */
int shl_io_frame_decode(const unsigned char *buf, size_t len,
			const struct shl_io_frame_rules *rules, struct shl_io_frame *f);

/* Any thread: write `value` as the 8-byte payload of an RTS (message size) or CTS
 * (receiver's id) at `out`. */
void shl_io_frame_encode_size(uint64_t value, unsigned char *out);

/* Any thread: the 8-byte payload of an RTS (message size) or CTS (receiver's id), read
 * from `payload` into `*value`. Returns 0, or -EMSGSIZE for an RTS size over
 * SHL_IO_MESSAGE_MAX. */
int shl_io_frame_decode_size(const struct shl_io_frame *f, const unsigned char *payload,
			     uint64_t *value);

/* Any thread: a short phrase for a code returned by shl_io_frame_decode ("wrong protocol
 * version"), for a report that names the connection. Static storage. */
const char *shl_io_frame_error(int err);

#endif
