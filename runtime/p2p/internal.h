/* Point-to-point internals shared by p2p/p2p.c, core/request.c and progress.c.
 * Every function here runs in the owning rank's thread with the rank locked. */
#ifndef SHL_RUNTIME_P2P_INTERNAL_H
#define SHL_RUNTIME_P2P_INTERNAL_H

#include "runtime/core/rt.h"

/* Take every message waiting for `r` (its fastboxes, then its inbox), matching each with
 * the oldest fitting posted receive or keeping it as unexpected. Bounded by the messages
 * already sent. */
void shl_p2p_progress(struct shl_rank *r);

/* Whether a standard or ready send of (count, type), over inline_max, is packed by its
 * sender into a pooled chunk (SHL_Q_PACKED_MAX) and completes at once: a sparse layout
 * (more gap than data in its span) too small to share its copy with the sender (under
 * split_min_typed). The sender gathers, the receiver scatters, each on its own core, as
 * Open MPI's pack and unpack do; copied straight from layout to layout, the receiver
 * walked both alone. A denser layout copies directly: packing it added a copy
 * (docs/performance.md, "Small non-contiguous copies shared": 512 B, vector bandwidth
 * 1.48x, struct latency 1.34x). */
static inline bool shl_p2p_packs(MPI_Count count, const struct shl_datatype *type)
{
	size_t bytes = (size_t)count * type->size;
	ptrdiff_t extent = type->extent < 0 ? -type->extent : type->extent;

	if (type->contig || bytes >= shl_job.split_min_typed || bytes > SHL_Q_PACKED_MAX ||
	    count == 0)
		return false;
	return (size_t)((count - 1) * extent + type->true_extent) > 2 * bytes;
}

/* Whether a send of (count, type) in `mode` completes within its call, its payload
 * copied: in cells or inline in an envelope, packed (shl_p2p_packs), or into the
 * attached buffer (buffered mode). The same on the node and off it. */
static inline bool shl_p2p_sends_at_once(enum shl_send_mode mode, MPI_Count count,
					 const struct shl_datatype *type)
{
	size_t bytes = (size_t)count * type->size;

	if (mode == SHL_MODE_BUFFERED)
		return true;
	return mode != SHL_MODE_SYNC && (bytes <= shl_job.inline_max || shl_p2p_packs(count, type));
}

/* Send (buf, count, type) to `dest` of `c`, a rank of another node, through the
 * completion thread (p2p/remote.c): `req` completes at once when shl_p2p_sends_at_once
 * (copied), else once the message is written to the node's connection, or for a
 * rendezvous (synchronous, or over SHL_IO_EAGER_MAX) once the receiver has matched it and
 * the data is written. Returns 0 or -ENOMEM. */
int shl_p2p_send_remote(struct shl_rank *r, struct shl_comm *c, const void *buf,
			MPI_Count count, struct shl_datatype *type, int dest, int tag,
			enum shl_send_mode mode, struct shl_req *req);

/* Receive `q` matched `env`, a rendezvous message from another node (SHL_Q_REMOTE), of
 * which `n` bytes fit: ask its sender for the data (CTS), which also gives `env` back to
 * the completion thread; that thread completes `q` once the data is in its buffer. */
void shl_p2p_recv_remote(struct shl_rank *r, struct shl_req *q, struct shl_envelope *env,
			 size_t n);

/* Cancel send `req` (not complete, no envelope on this node) if it goes to a rank of
 * another node: its completion thread asks the receiver's node to drop the message if no
 * receive has matched it yet, and then completes `req` as cancelled; otherwise the send
 * completes as usual (MPI 4.1 §3.8.4). Returns false if `req` is not such a send. */
bool shl_p2p_cancel_remote(struct shl_rank *r, struct shl_req *req);

/* Whether receive `q` is on `r`'s list of posted receives (not matched yet). */
bool shl_p2p_is_posted(struct shl_rank *r, const struct shl_req *q);

/* Raise on `c`, for MPI function `fn`, the error of a send or receive that could not
 * start: `rc` -ENOBUFS (a buffered send of `bytes` without room in the attached buffer, or
 * with none attached) or -ENOMEM. Rank unlocked. */
int shl_p2p_start_error(const char *fn, struct shl_comm *c, int rc, size_t bytes);

/* The status of a receive from MPI_PROC_NULL, and of a request with nothing to report. */
void shl_status_empty(MPI_Status *status, int source);

#endif
