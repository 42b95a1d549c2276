/* Buffered sends: the buffer of MPI_Buffer_attach, the blocks buffered sends take from it,
 * and the send of a buffered message to a rank of this node (shl_bsend_send, out of the
 * send fast path). Entered by the owning rank's threads with the rank locked (the bindings
 * take it). Each rank has its own attached buffer, as each process has in a process-based
 * MPI. Must not give a block back before its receiver has copied it out. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>

#include "runtime/core/rt.h"
#include "runtime/p2p/internal.h"

/* A block's header sits in the attached buffer just before its data; its size is part of
 * MPI_BSEND_OVERHEAD, as the standard intends. */
struct shl_bsend_block {
	struct shl_bsend_block *next;  /* next block in use, by address */
	size_t len;                    /* header and data, rounded to the alignment */
};

#define ALIGN 16
_Static_assert(sizeof(struct shl_bsend_block) <= MPI_BSEND_OVERHEAD,
	       "a block header must fit the advertised overhead");

static size_t round_up(size_t n)
{
	return (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

/* The first gap of the attached buffer that holds a block of `need` bytes (header
 * included), or NULL; *at is then where the block would be linked. */
static char *find_gap(struct shl_bsend_buffer *b, size_t need, struct shl_bsend_block ***at)
{
	struct shl_bsend_block **link = &b->blocks;
	char *gap = (char *)round_up((uintptr_t)b->base);
	char *end = b->base + b->size;

	if (b->base == NULL)
		return NULL;
	/* First fit: walk the gaps between blocks in use, in address order. */
	for (;;) {
		struct shl_bsend_block *next = *link;
		char *gap_end = next ? (char *)next : end;

		if (gap_end >= gap && (size_t)(gap_end - gap) >= need) {
			*at = link;
			return gap;
		}
		if (next == NULL)
			return NULL;
		gap = (char *)next + next->len;
		link = &next->next;
	}
}

/* A block of `bytes` from the attached buffer, or NULL if it has no room. */
static void *alloc(struct shl_rank *r, size_t bytes)
{
	size_t need = round_up(sizeof(struct shl_bsend_block) + bytes);
	struct shl_bsend_block **link;
	struct shl_bsend_block *blk = (struct shl_bsend_block *)find_gap(&r->bsend, need, &link);

	if (blk == NULL)
		return NULL;
	blk->next = *link;
	blk->len = need;
	*link = blk;
	return blk + 1;
}

/* Whether alloc(r, bytes) would find room now; nothing is taken. */
static bool room(struct shl_rank *r, size_t bytes)
{
	struct shl_bsend_block **link;

	return find_gap(&r->bsend, round_up(sizeof(struct shl_bsend_block) + bytes), &link) != NULL;
}

void shl_bsend_free(struct shl_rank *r, void *data)
{
	struct shl_bsend_block *blk = (struct shl_bsend_block *)data - 1;
	struct shl_bsend_block **link = &r->bsend.blocks;

	while (*link != blk)
		link = &(*link)->next;
	*link = blk->next;
}

int shl_bsend_send(struct shl_rank *r, struct shl_comm *c, struct shl_rank *to, const void *buf,
		   MPI_Count count, struct shl_datatype *type, int dest, int tag,
		   struct shl_req *req)
{
	size_t bytes = (size_t)count * type->size;
	struct shl_req *cookie;
	void *block;

	if (bytes <= shl_job.inline_max) {
		/* The payload rides in the envelope: it needs the attached buffer's room
		 * only, and MPI_Buffer_detach has nothing to wait for (as with Open MPI and
		 * MPICH, which send small buffered messages at once too). */
		if (!room(r, bytes))
			return -ENOBUFS;
		return shl_p2p_send_envelope(r, c, to, buf, type, bytes, tag, SHL_Q_INLINE, NULL,
					     req);
	}
	/* Pack into the attached buffer and send from there; an internal request frees the
	 * block once the receiver has copied it out (shl_req_reap). */
	block = alloc(r, bytes);
	if (block == NULL)
		return -ENOBUFS;
	shl_dt_copy(block, NULL, buf, type, bytes);
	cookie = shl_req_new(r, SHL_REQ_SEND);
	if (cookie == NULL) {
		shl_bsend_free(r, block);
		return -ENOMEM;
	}
	cookie->bsend_block = block;
	/* What the hang report and gdb's `mpi queues` show of it (no hold on c). */
	cookie->comm = c;
	cookie->peer = dest;
	cookie->tag = tag;
	cookie->buf = block;
	cookie->count = (MPI_Count)bytes;
	cookie->freed = true;
	cookie->next = r->detached;
	r->detached = cookie;
	return shl_p2p_send_envelope(r, c, to, block, NULL, bytes, tag, SHL_Q_DIRECT, cookie, req);
}

/* Attach `size` bytes at `buffer` as the rank's buffer for buffered sends: the int and _c
 * bindings. */
static int attach(const char *fn, void *buffer, MPI_Count size)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	int err = MPI_SUCCESS;

	if (size < 0)
		return shl_err(NULL, MPI_ERR_SIZE, fn, "size %lld is negative", size);
	if (buffer == NULL && size > 0)
		return shl_err(NULL, MPI_ERR_BUFFER, fn, "buffer is NULL");
	shl_rank_lock(r);
	if (r->bsend.base != NULL)
		err = MPI_ERR_BUFFER;
	else
		r->bsend = (struct shl_bsend_buffer){ buffer, (size_t)size, NULL };
	shl_rank_unlock(r);
	if (err != MPI_SUCCESS)
		return shl_err(NULL, err, fn, "a buffer is already attached (detach it first)");
	return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
	return attach("MPI_Buffer_attach", buffer, size);
}
SHL_WEAK_ALIAS(Buffer_attach);

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
	return attach("MPI_Buffer_attach_c", buffer, size);
}
SHL_WEAK_ALIAS(Buffer_attach_c);

static bool no_blocks(void *arg)
{
	return ((struct shl_rank *)arg)->bsend.blocks == NULL;
}

/* Detach the rank's buffer once every buffered message in it has been received, storing
 * its size in *size: an int, or an MPI_Count if `large` (the _c binding). A buffer whose
 * size an int cannot hold stays attached (MPI_ERR_VALUE_TOO_LARGE), so that the caller can
 * still detach it with MPI_Buffer_detach_c. */
static int detach(const char *fn, void *buffer_addr, void *size, bool large)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	size_t attached;

	if (buffer_addr == NULL || size == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "buffer_addr or size is NULL");
	shl_rank_lock(r);
	attached = r->bsend.size;
	if (!large && attached > INT_MAX) {
		shl_rank_unlock(r);
		return shl_err(NULL, MPI_ERR_VALUE_TOO_LARGE, fn, "the attached buffer's %zu bytes "
			       "do not fit the int size (use MPI_Buffer_detach_c)", attached);
	}
	/* Detach blocks until every buffered message has been received (MPI 4.1, 3.6.1). */
	shl_wait(r, no_blocks, r);
	*(void **)buffer_addr = r->bsend.base;
	if (large)
		*(MPI_Count *)size = (MPI_Count)attached;
	else
		*(int *)size = (int)attached;
	r->bsend = (struct shl_bsend_buffer){ NULL, 0, NULL };
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
	return detach("MPI_Buffer_detach", buffer_addr, size, false);
}
SHL_WEAK_ALIAS(Buffer_detach);

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
	return detach("MPI_Buffer_detach_c", buffer_addr, size, true);
}
SHL_WEAK_ALIAS(Buffer_detach_c);
