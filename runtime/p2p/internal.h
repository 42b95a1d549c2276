/* What point-to-point's files call of each other out of line, the entry points of its
 * transport to other nodes (p2p/remote.c), and the small inline policies every send and
 * receive asks. The inline halves of matching, fastboxes, sends and argument checks are in
 * match.h, fastbox.h, send.h and check.h; what core calls of p2p is in core/hooks.h.
 * Every function here runs in the owning rank's thread with the rank locked unless it says
 * otherwise. Must not be included outside p2p/ and the layers above it. */
#ifndef SHL_RUNTIME_P2P_INTERNAL_H
#define SHL_RUNTIME_P2P_INTERNAL_H

#include "runtime/core/rt.h"

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

/* ---- sends (p2p/send.c; the inline half is send.h) ---- */

/* Send (buf, count, type) to `dest` of `c`. `req` completes when the send does; with a
 * stack request the caller waits on it (shl_wait). Returns 0, -ENOBUFS (buffered
 * send without room in the attached buffer) or -ENOMEM. send_inline out of line. */
int shl_p2p_send(struct shl_rank *r, struct shl_comm *c, const void *buf, MPI_Count count,
		 struct shl_datatype *type, int dest, int tag, enum shl_send_mode mode,
		 struct shl_req *req);

/* Send `bytes` of (buf, type) to `to`, a rank of this node, in an envelope whose payload is
 * `how`; the receiver completes `cookie` (NULL: `req` completes now). Returns 0 or -ENOMEM.
 * send.h's envelope out of line, for buffered sends. */
int shl_p2p_send_envelope(struct shl_rank *r, struct shl_comm *c, struct shl_rank *to,
			  const void *buf, struct shl_datatype *type, size_t bytes, int tag,
			  enum shl_q_payload how, struct shl_req *cookie, struct shl_req *req);

/* Rank unlocked: a blocking send in `mode` (MPI_Send and its modes) with its arguments
 * checked, waiting until it completes: helping its receiver copy a large message, or, a
 * standard or ready send of up to shl_job.medium_max bytes that no receive matches soon,
 * turned eager. Returns MPI_SUCCESS or the error raised. */
int shl_p2p_send_checked(const char *fn, enum shl_send_mode mode, const void *buf,
			 MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);

/* ---- buffered sends (p2p/bsend.c) ---- */

/* A buffered send of (buf, count, type) to `dest` of `c`, `to` its rank object on this
 * node: its payload rides in the envelope (the attached buffer need only have room for
 * it), or is packed into a block of the attached buffer that an internal request frees once
 * the receiver has copied it out. `req` completes at once. Returns 0, -ENOBUFS or -ENOMEM. */
int shl_bsend_send(struct shl_rank *r, struct shl_comm *c, struct shl_rank *to, const void *buf,
		   MPI_Count count, struct shl_datatype *type, int dest, int tag,
		   struct shl_req *req);

/* Owner thread: the report of a buffered send of `bytes` on `c` that found no room in the
 * buffer `c`'s buffered sends use (MPI_ERR_BUFFER: none attached, or full; MPI_ERR_NO_MEM
 * for MPI_BUFFER_AUTOMATIC). Returns what shl_err returns. */
int shl_bsend_no_room(const char *fn, struct shl_comm *c, size_t bytes);

/* ---- matching (p2p/match.c; the inline half is match.h) ---- */

/* Receive `q` matched `env`, a message from another node of which `n` bytes fit: its
 * sender is asked for the data; `q` completes once the data is in. */
void shl_p2p_deliver_remote(struct shl_rank *r, struct shl_req *q, struct shl_envelope *env,
			    size_t n);

/* ---- fastboxes (p2p/fastbox.c; the inline half is fastbox.h) ---- */

/* The first message to world rank `w`: open our fastbox to it, or mark that it took none
 * (r->fbox_out). Returns the box, or NULL if it has none for us. */
struct shl_fbox *shl_p2p_fbox_open(struct shl_rank *r, int w);

/* The fastbox `from` (a rank of this node) writes to us, or NULL if it has none. With
 * `stored`, also how many of our boxes it found there (slots claimed but not yet stored
 * are not counted). */
struct shl_fbox *shl_p2p_fbox_from(struct shl_rank *r, const struct shl_rank *from,
				   int *stored);

/* Take every message waiting in `fb`, oldest first, into matches or as unexpected. */
void shl_p2p_fbox_drain(struct shl_rank *r, struct shl_fbox *fb);

/* Receive `q`, which nothing unexpected matched and no posted receive precedes: complete it
 * from a matching message at the head of one of our fastboxes; whether it did. */
bool shl_p2p_fbox_take(struct shl_rank *r, struct shl_req *q);

/* How a blocking receive's watch of its sender's cell ended (shl_p2p_fbox_watch). */
enum shl_p2p_watch { SHL_P2P_WATCH_TOOK, SHL_P2P_WATCH_OTHER, SHL_P2P_WATCH_SPUN };

/* Rank unlocked, plain arguments (bindings.c, plain_args): a blocking receive of (buf,
 * count, type) from `source` with `tag` on `c` watches the head cell of its sender's box
 * and takes a matching message that fits straight into `buf` and `status`. */
enum shl_p2p_watch shl_p2p_fbox_watch(struct shl_rank *r, struct shl_comm *c, void *buf,
				      MPI_Count count, struct shl_datatype *type, int source,
				      int tag, MPI_Status *status);

/* ---- split copies (p2p/split.c) ---- */

/* Whether a copy into `type` from `env`'s sender layout is dense on both sides. */
static inline bool shl_p2p_dense_copy(const struct shl_envelope *env,
				      const struct shl_datatype *type)
{
	const struct shl_datatype *layout = env->layout;

	return type->contig && (layout == NULL || layout->contig);
}

/* Whether a copy of `n` bytes into `type` from `env` is worth sharing with its sender:
 * dense copies from SHOAL_SPLIT_MIN, copies with a non-contiguous side from the smaller
 * SHOAL_SPLIT_MIN_TYPED. */
static inline bool shl_p2p_split_worth(const struct shl_envelope *env,
				       const struct shl_datatype *type, size_t n)
{
	if (n >= shl_job.split_min)
		return true;
	return n >= shl_job.split_min_typed && !shl_p2p_dense_copy(env, type);
}

/* Whether the receiver of send `q` offers chunks of its copy (shl_p2p_split_copy) and `q`
 * is not done yet: shl_p2p_help has chunks to take. Until `done`, the envelope still
 * carries this send (the receiver completes the request before giving the envelope back).
 * Only the request's line is read until the receiver offers chunks: polling the
 * envelope's, which the receiver writes, slowed a 1-16 KiB MPI_Send that is not shared by
 * 22-41 % (bench/latency). The acquire load of `shared` pairs with shl_p2p_split_copy's
 * release store of it. Inline: a blocking sender asks at every poll of its wait. */
static inline bool shl_p2p_offered(struct shl_req *q)
{
	return q->env != NULL && atomic_load_explicit(&q->shared, memory_order_acquire) &&
	       !atomic_load_explicit(&q->done, memory_order_acquire);
}

/* A large message in the sender's buffer (`env`, SHL_Q_DIRECT with a cookie): offer its
 * copy of `n` bytes into (dst, type) in chunks, so a sender waiting for it (in MPI_Send,
 * MPI_Wait...) copies alongside the receiver, then finish what is left. Both datatypes stay
 * alive until this returns: the receive's and the send's requests hold them, and the sender
 * helps only while the receiver waits here for the last chunk. */
void shl_p2p_split_copy(struct shl_envelope *env, void *dst, const struct shl_datatype *type,
			size_t n);

/* ---- bindings (p2p/bindings.c) ---- */

/* Describe in `q` a send or receive of (buf, count, type) with `peer` and `tag` on `c`. */
static inline void shl_p2p_fill(struct shl_req *q, struct shl_comm *c, const void *buf,
				MPI_Count count, MPI_Datatype type, int peer, int tag,
				enum shl_send_mode mode)
{
	q->comm = c;
	q->buf = (void *)buf;
	q->count = count;
	q->type = type;
	q->peer = peer;
	q->tag = tag;
	q->mode = mode;
}

/* A send's `dest` that is no rank of `c`: MPI_ERR_RANK through c's handler. */
int shl_p2p_bad_dest(const char *fn, struct shl_comm *c, int dest);

/* A receive of (count, type) whose message, described in `st`, did not fit: MPI_ERR_TRUNCATE
 * through c's handler. */
int shl_p2p_truncated(const char *fn, struct shl_comm *c, const MPI_Status *st,
		      MPI_Count count, MPI_Datatype type);

#endif

