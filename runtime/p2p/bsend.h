/* The buffers for buffered sends as the layers above point-to-point use them: a buffer
 * holder (struct shl_bsend_buffer, core/rt.h) that runtime/session/ keeps for a session,
 * and the work of the attach, detach and flush calls on it (p2p/bsend.c). Entered by the
 * owning rank's threads. */
#ifndef SHL_RUNTIME_P2P_BSEND_H
#define SHL_RUNTIME_P2P_BSEND_H

#include "runtime/core/rt.h"

/* Owner thread, rank unlocked: the work of the calls on a buffer holder `b` (the rank's,
 * a communicator's, a session's: runtime/session/ calls them for a session's). Attach
 * `size` bytes at `buffer` (MPI_BUFFER_AUTOMATIC: blocks allocated as needed): MPI_SUCCESS,
 * or MPI_ERR_BUFFER if one is attached. Flush: wait until every message buffered in `b`
 * has been received. Iflush: a request that completes then (MPI_SUCCESS or
 * MPI_ERR_NO_MEM). Detach: flush, then store the buffer's address and size (an int, or an
 * MPI_Count if `large`) and leave `b` empty; MPI_ERR_VALUE_TOO_LARGE (nothing done) when
 * the int cannot hold the size. */
int shl_bsend_attach(struct shl_rank *r, struct shl_bsend_buffer *b, void *buffer,
		     MPI_Count size);
void shl_bsend_flush(struct shl_rank *r, struct shl_bsend_buffer *b);
int shl_bsend_iflush(struct shl_rank *r, struct shl_bsend_buffer *b, MPI_Request *request);
int shl_bsend_detach(struct shl_rank *r, struct shl_bsend_buffer *b, bool large,
		     void *buffer_addr, void *size);

#endif
