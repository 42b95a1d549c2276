/* The buffer of MPI_Buffer_attach and the blocks buffered sends take from it. Entered by
 * the owning rank's threads with the rank locked. Each rank has its own attached buffer,
 * as each process has in a process-based MPI. */
#include <limits.h>
#include <stdint.h>

#include "runtime/core/rt.h"

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

void *shl_bsend_alloc(struct shl_rank *r, size_t bytes)
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

bool shl_bsend_room(struct shl_rank *r, size_t bytes)
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
