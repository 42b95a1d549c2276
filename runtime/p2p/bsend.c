/* Buffered sends: the buffers of MPI_Buffer_attach (the rank's), MPI_Comm_attach_buffer (a
 * communicator's) and MPI_Session_attach_buffer (a session's, the session layer holding
 * it), the blocks buffered sends take from them, their flushing, and the send of a
 * buffered message to a rank of this node (shl_bsend_send, out of the send fast path).
 * Entered by the owning rank's threads with the rank locked where the functions say (the
 * bindings take it). Each rank has its own buffers, as each process has in a process-based
 * MPI. Must not give a block back before its receiver has copied it out. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/comm/hooks.h"
#include "runtime/core/rt.h"
#include "runtime/p2p/bsend.h"
#include "runtime/p2p/internal.h"

/* A block's header sits in its buffer just before its data; its size is part of
 * MPI_BSEND_OVERHEAD, as the standard intends. */
struct shl_bsend_block {
	alignas(16) struct shl_bsend_block *next;  /* next block in use, by address */
	size_t len;                    /* header and data, rounded to the alignment */
	struct shl_bsend_buffer *from; /* the buffer it belongs to */
};

/* An MPI_*_iflush request waiting for its buffer's blocks to be given back. */
struct shl_bsend_flush {
	struct shl_req *req;
	struct shl_bsend_flush *next;
};

#define ALIGN 16
_Static_assert(sizeof(struct shl_bsend_block) <= MPI_BSEND_OVERHEAD,
	       "a block header must fit the advertised overhead");
_Static_assert(sizeof(struct shl_bsend_block) % ALIGN == 0, "data after a header is aligned");

static size_t round_up(size_t n)
{
	return (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

/* The first gap of buffer `b` that holds a block of `need` bytes (header included), or
 * NULL; *at is then where the block would be linked. */
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

/* A block of `bytes` from buffer `b`, or NULL if it has no room (an automatic buffer: no
 * memory). */
static void *alloc(struct shl_bsend_buffer *b, size_t bytes)
{
	size_t need = round_up(sizeof(struct shl_bsend_block) + bytes);
	struct shl_bsend_block **link = &b->blocks;
	struct shl_bsend_block *blk = b->automatic ? aligned_alloc(ALIGN, need)
				      : (struct shl_bsend_block *)find_gap(b, need, &link);

	if (blk == NULL)
		return NULL;
	blk->next = *link;
	blk->len = need;
	blk->from = b;
	*link = blk;
	return blk + 1;
}

/* Whether alloc(b, bytes) would find room now; nothing is taken. */
static bool room(struct shl_bsend_buffer *b, size_t bytes)
{
	struct shl_bsend_block **link;

	return b->automatic ||
	       find_gap(b, round_up(sizeof(struct shl_bsend_block) + bytes), &link) != NULL;
}

static bool attached(const struct shl_bsend_buffer *b)
{
	return b->base != NULL || b->automatic;
}

/* The buffer buffered sends on `c` take their room from (comm/comm.h, struct shl_comm). */
static struct shl_bsend_buffer *buffer_of(struct shl_rank *r, struct shl_comm *c)
{
	if (c->bsend_own != NULL)
		return c->bsend_own;
	if (c->bsend_session != NULL && attached(c->bsend_session))
		return c->bsend_session;
	return &r->bsend;
}

void shl_bsend_free(struct shl_rank *r, void *data)
{
	struct shl_bsend_block *blk = (struct shl_bsend_block *)data - 1;
	struct shl_bsend_buffer *b = blk->from;
	struct shl_bsend_block **link = &b->blocks;

	while (*link != blk)
		link = &(*link)->next;
	*link = blk->next;
	if (b->automatic)
		free(blk);
	if (b->blocks != NULL)
		return;
	/* Every message buffered there has been received: the flushes waiting complete. */
	for (struct shl_bsend_flush *f = b->flushes, *nx; f != NULL; f = nx) {
		nx = f->next;
		shl_req_complete_own(r, f->req);
		free(f);
	}
	b->flushes = NULL;
}

int shl_bsend_no_room(const char *fn, struct shl_comm *c, size_t bytes)
{
	struct shl_bsend_buffer *b = buffer_of(shl_self, c);
	const char *which = b == c->bsend_own ? "the buffer attached to the communicator "
						"(MPI_Comm_attach_buffer)"
			    : b == c->bsend_session ? "the buffer attached to its session "
						      "(MPI_Session_attach_buffer)"
						    : "the buffer attached with MPI_Buffer_attach";

	if (!attached(b))
		return shl_err(c, MPI_ERR_BUFFER, fn, "no buffer is attached (MPI_Buffer_attach, "
			       "MPI_Comm_attach_buffer or MPI_Session_attach_buffer) for a "
			       "buffered send of %zu bytes", bytes);
	if (b->automatic)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory for a buffered send of %zu "
			       "bytes (MPI_BUFFER_AUTOMATIC)", bytes);
	return shl_err(c, MPI_ERR_BUFFER, fn, "no room for %zu bytes (+%d overhead) in %s", bytes,
		       MPI_BSEND_OVERHEAD, which);
}

int shl_bsend_send(struct shl_rank *r, struct shl_comm *c, struct shl_rank *to, const void *buf,
		   MPI_Count count, struct shl_datatype *type, int dest, int tag,
		   struct shl_req *req)
{
	size_t bytes = (size_t)count * type->size;
	struct shl_bsend_buffer *b = buffer_of(r, c);
	struct shl_req *cookie;
	void *block;

	if (bytes <= shl_job.inline_max) {
		/* The payload rides in the envelope: it needs the attached buffer's room
		 * only, and MPI_Buffer_detach has nothing to wait for (as with Open MPI and
		 * MPICH, which send small buffered messages at once too). */
		if (!room(b, bytes))
			return -ENOBUFS;
		return shl_p2p_send_envelope(r, c, to, buf, type, bytes, tag, SHL_Q_INLINE, NULL,
					     req);
	}
	/* Pack into the attached buffer and send from there; an internal request frees the
	 * block once the receiver has copied it out (shl_req_reap). */
	block = alloc(b, bytes);
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

/* ---- attaching, detaching and flushing a buffer ---- */

int shl_bsend_attach(struct shl_rank *r, struct shl_bsend_buffer *b, void *buffer,
		     MPI_Count size)
{
	int err = MPI_SUCCESS;

	shl_rank_lock(r);
	if (attached(b))
		err = MPI_ERR_BUFFER;
	else if (buffer == MPI_BUFFER_AUTOMATIC)
		*b = (struct shl_bsend_buffer){ .automatic = true };
	else
		*b = (struct shl_bsend_buffer){ .base = buffer, .size = (size_t)size };
	shl_rank_unlock(r);
	return err;
}

static bool no_blocks(void *arg)
{
	return ((struct shl_bsend_buffer *)arg)->blocks == NULL;
}

void shl_bsend_flush(struct shl_rank *r, struct shl_bsend_buffer *b)
{
	shl_rank_lock(r);
	shl_wait(r, no_blocks, b);
	shl_rank_unlock(r);
}

int shl_bsend_iflush(struct shl_rank *r, struct shl_bsend_buffer *b, MPI_Request *request)
{
	struct shl_bsend_flush *f = malloc(sizeof(*f));
	struct shl_req *q;

	shl_rank_lock(r);
	q = f != NULL ? shl_req_new(r, SHL_REQ_DONE) : NULL;
	if (q == NULL) {
		shl_rank_unlock(r);
		free(f);
		return MPI_ERR_NO_MEM;
	}
	if (b->blocks == NULL) {
		free(f);
		atomic_store_explicit(&q->done, 1, memory_order_release);
	} else {
		*f = (struct shl_bsend_flush){ q, b->flushes };
		b->flushes = f;
	}
	shl_rank_unlock(r);
	*request = q;
	return MPI_SUCCESS;
}

int shl_bsend_detach(struct shl_rank *r, struct shl_bsend_buffer *b, bool large,
		     void *buffer_addr, void *size)
{
	size_t attached_size;

	shl_rank_lock(r);
	attached_size = b->size;
	if (!large && attached_size > INT_MAX) {
		shl_rank_unlock(r);
		return MPI_ERR_VALUE_TOO_LARGE;
	}
	/* Detach blocks until every buffered message has been received (MPI 4.1, 3.6.1). */
	shl_wait(r, no_blocks, b);
	*(void **)buffer_addr = b->automatic ? MPI_BUFFER_AUTOMATIC : b->base;
	if (large)
		*(MPI_Count *)size = (MPI_Count)attached_size;
	else
		*(int *)size = (int)attached_size;
	*b = (struct shl_bsend_buffer){ .base = NULL };
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}

/* ---- the rank's buffer (MPI 4.1, 3.6.1) ---- */

/* Attach `size` bytes at `buffer` as the rank's buffer for buffered sends: the int and _c
 * bindings. */
static int attach(const char *fn, void *buffer, MPI_Count size)
{
	struct shl_rank *r = shl_rank_or_die(fn);

	if (size < 0 && buffer != MPI_BUFFER_AUTOMATIC)
		return shl_err(NULL, MPI_ERR_SIZE, fn, "size %lld is negative", size);
	if (buffer == NULL && size > 0)
		return shl_err(NULL, MPI_ERR_BUFFER, fn, "buffer is NULL");
	if (shl_bsend_attach(r, &r->bsend, buffer, size) != MPI_SUCCESS)
		return shl_err(NULL, MPI_ERR_BUFFER, fn,
			       "a buffer is already attached (detach it first)");
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

/* Detach the rank's buffer once every buffered message in it has been received, storing
 * its size in *size: an int, or an MPI_Count if `large` (the _c binding). A buffer whose
 * size an int cannot hold stays attached (MPI_ERR_VALUE_TOO_LARGE), so that the caller can
 * still detach it with MPI_Buffer_detach_c. */
static int detach(const char *fn, void *buffer_addr, void *size, bool large)
{
	struct shl_rank *r = shl_rank_or_die(fn);

	if (buffer_addr == NULL || size == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "buffer_addr or size is NULL");
	if (shl_bsend_detach(r, &r->bsend, large, buffer_addr, size) != MPI_SUCCESS)
		return shl_err(NULL, MPI_ERR_VALUE_TOO_LARGE, fn, "the attached buffer's %zu bytes "
			       "do not fit the int size (use MPI_Buffer_detach_c)", r->bsend.size);
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

int PMPI_Buffer_flush(void)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Buffer_flush");

	shl_bsend_flush(r, &r->bsend);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Buffer_flush);

int PMPI_Buffer_iflush(MPI_Request *request)
{
	const char *fn = "MPI_Buffer_iflush";
	struct shl_rank *r = shl_rank_or_die(fn);

	if (request == NULL)
		return shl_err(NULL, MPI_ERR_REQUEST, fn, "request is NULL");
	if (shl_bsend_iflush(r, &r->bsend, request) != MPI_SUCCESS)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Buffer_iflush);

/* ---- a communicator's buffer (MPI 4.1, 3.6.2) ---- */

static int comm_attach(const char *fn, MPI_Comm comm, void *buffer, MPI_Count size)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_comm_arg(fn, r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (size < 0 && buffer != MPI_BUFFER_AUTOMATIC)
		return shl_err(c, MPI_ERR_SIZE, fn, "size %lld is negative", size);
	if (buffer == NULL && size > 0)
		return shl_err(c, MPI_ERR_BUFFER, fn, "buffer is NULL");
	if (c->bsend_own != NULL)
		return shl_err(c, MPI_ERR_BUFFER, fn, "a buffer is already attached to comm "
			       "(detach it first)");
	struct shl_bsend_buffer *b = calloc(1, sizeof(*b));
	if (b == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	shl_bsend_attach(r, b, buffer, size);
	shl_rank_lock(r);
	c->bsend_own = b;
	shl_rank_unlock(r);
	return MPI_SUCCESS;
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
	return comm_attach("MPI_Comm_attach_buffer", comm, buffer, size);
}
SHL_WEAK_ALIAS(Comm_attach_buffer);

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
	return comm_attach("MPI_Comm_attach_buffer_c", comm, buffer, size);
}
SHL_WEAK_ALIAS(Comm_attach_buffer_c);

/* `c`'s own buffer, detached already: the communicator has none any more. */
static void forget_own(struct shl_rank *r, struct shl_comm *c)
{
	struct shl_bsend_buffer *b = c->bsend_own;

	shl_rank_lock(r);
	c->bsend_own = NULL;
	shl_rank_unlock(r);
	free(b);
}

static int comm_detach(const char *fn, MPI_Comm comm, void *buffer_addr, void *size, bool large)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_comm_arg(fn, r, comm, &c);
	struct shl_bsend_buffer *b;

	if (err != MPI_SUCCESS)
		return err;
	if (buffer_addr == NULL || size == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "buffer_addr or size is NULL");
	if ((b = c->bsend_own) == NULL)
		return shl_err(c, MPI_ERR_BUFFER, fn, "no buffer is attached to comm");
	if (shl_bsend_detach(r, b, large, buffer_addr, size) != MPI_SUCCESS)
		return shl_err(c, MPI_ERR_VALUE_TOO_LARGE, fn, "the attached buffer's %zu bytes "
			       "do not fit the int size (use MPI_Comm_detach_buffer_c)", b->size);
	forget_own(r, c);
	return MPI_SUCCESS;
}

void shl_p2p_comm_buffer_end(struct shl_rank *r, struct shl_comm *c)
{
	void *addr;
	MPI_Count size;

	if (c->bsend_own == NULL)
		return;
	shl_bsend_detach(r, c->bsend_own, true, &addr, &size);
	forget_own(r, c);
}

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
	return comm_detach("MPI_Comm_detach_buffer", comm, buffer_addr, size, false);
}
SHL_WEAK_ALIAS(Comm_detach_buffer);

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
	return comm_detach("MPI_Comm_detach_buffer_c", comm, buffer_addr, size, true);
}
SHL_WEAK_ALIAS(Comm_detach_buffer_c);

/* The buffer flushing `c` waits for: the one its buffered sends use (MPI 4.1, 3.6.2). */
int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
	const char *fn = "MPI_Comm_flush_buffer";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_comm_arg(fn, r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	shl_bsend_flush(r, buffer_of(r, c));
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_flush_buffer);

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
	const char *fn = "MPI_Comm_iflush_buffer";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	int err = shl_comm_arg(fn, r, comm, &c);

	if (err != MPI_SUCCESS)
		return err;
	if (request == NULL)
		return shl_err(c, MPI_ERR_REQUEST, fn, "request is NULL");
	if (shl_bsend_iflush(r, buffer_of(r, c), request) != MPI_SUCCESS)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "out of memory");
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_iflush_buffer);
