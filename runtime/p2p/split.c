/* A large message's copy shared by its receiver with its waiting sender: the receiver that
 * matches a message still in the sender's buffer (SHL_Q_DIRECT, with a cookie) and worth
 * sharing (shl_p2p_split_worth) offers the copy in chunks through the shared-copy engine
 * (datatype/share.h); a sender waiting for it (MPI_Send, MPI_Wait...) takes chunks from the
 * back while the receiver takes them from the front. The state of the shared copy lives in
 * the envelope's inline area, which a direct payload leaves unused.
 * Entered by the receiving rank's thread (shl_p2p_split_copy, rank locked) and by the
 * sending rank's thread in its waits (shl_p2p_help). Must not allocate or sleep, and must
 * not read the envelope's cache lines from the sender's side before the offer. */
#include <stdalign.h>

#include "runtime/core/rt.h"
#include "runtime/datatype/share.h"
#include "runtime/p2p/internal.h"

/* A shared copy of one message, in its envelope. */
struct split {
	struct shl_share share;
	struct shl_share_copy copy;
	size_t chunk;                /* bytes of signature per chunk (the last may be shorter) */
};

_Static_assert(sizeof(struct split) <= SHL_Q_INLINE_MAX, "a split fits the inline area");
_Static_assert(alignof(struct split) <= 16, "the inline area is 16-aligned");

static struct split *split_of(struct shl_envelope *env)
{
	return (struct split *)(void *)env->inline_data;
}

/* The chunk of a shared copy of `n` bytes with a non-contiguous side, smaller than
 * SHOAL_SPLIT_MIN: a quarter of it, in whole cache lines, within
 * [SHL_P2P_SPLIT_CHUNK_TYPED_MIN, SHOAL_SPLIT_CHUNK_TYPED]. */
static size_t typed_chunk(size_t n)
{
	size_t chunk = (n / SHL_P2P_SPLIT_PIECES_TYPED + 63) & ~(size_t)63;

	if (chunk < SHL_P2P_SPLIT_CHUNK_TYPED_MIN)
		return SHL_P2P_SPLIT_CHUNK_TYPED_MIN;
	return chunk < shl_job.split_chunk_typed ? chunk : shl_job.split_chunk_typed;
}

/* shl_share_take's maker: chunk `i` of the split copy `arg`. */
static void make(void *arg, uint32_t i)
{
	struct split *sp = arg;

	shl_share_copy_chunk(&sp->copy, sp->chunk, i);
}

void shl_p2p_split_copy(struct shl_envelope *env, void *dst, const struct shl_datatype *type,
			size_t n)
{
	struct split *sp = split_of(env);
	bool dense = shl_p2p_dense_copy(env, type);

	sp->chunk = dense || n >= shl_job.split_min ? SHL_P2P_SPLIT_CHUNK : typed_chunk(n);
	sp->copy = (struct shl_share_copy){ dst, type, env->data, env->layout, n };
	shl_share_offer(&sp->share, shl_share_chunks(n, sp->chunk));
	/* Pairs with the acquire load in shl_p2p_help: the fields above are visible. The
	 * sender polls its request's line, which it waits on anyway, not the envelope's
	 * (whose `state` stays SHL_Q_MATCHED, from the match's claim). */
	atomic_store_explicit(&((struct shl_req *)env->cookie)->shared, true, memory_order_release);
	shl_share_take(&sp->share, false, make, sp);
	shl_share_finish(&sp->share);
}

void shl_p2p_help(struct shl_req *q)
{
	if (shl_p2p_offered(q)) {
		struct split *sp = split_of(q->env);
		shl_share_take(&sp->share, true, make, sp);
	}
}
