/* The argument checks of point-to-point calls, inline: a send's communicator, buffer, tag
 * and destination, a receive's buffer, layout, source and tag. Inline because MPI_Isend
 * and MPI_Irecv check every call (the shared checks are core/check.h); their reports go
 * out of line. Entered by the calling rank's threads at the MPI boundary, rank unlocked.
 * Must not raise anything but through shl_err, nor look at anything but the arguments. */
#ifndef SHL_RUNTIME_P2P_CHECK_H
#define SHL_RUNTIME_P2P_CHECK_H

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/p2p/internal.h"

/* The send side's arguments; `what` as for shl_check_buffer. */
static SHL_HOT_INLINE int check_send(const char *fn, const char *what, struct shl_rank *r,
				     MPI_Comm comm, struct shl_comm **c, const void *buf,
				     MPI_Count count, MPI_Datatype type, int dest, int tag)
{
	int err = shl_check_comm(fn, r, comm, c);

	if (err == MPI_SUCCESS)
		err = shl_check_buffer(*c, fn, what, buf, count, type);
	if (err != MPI_SUCCESS)
		return err;
	if (tag == MPI_ANY_TAG)
		return shl_err(*c, MPI_ERR_TAG, fn, "%stag MPI_ANY_TAG is not allowed in a send",
			       what);
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		return shl_err(*c, MPI_ERR_TAG, fn, "%stag %d is outside 0..%d (MPI_TAG_UB)", what,
			       tag, MPI_TAG_UB_VALUE);
	if (dest != MPI_PROC_NULL && (dest < 0 || dest >= shl_comm_remote_size(*c)))
		return shl_p2p_bad_dest(fn, *c, dest);
	return MPI_SUCCESS;
}

/* A receive's source and tag; `what` as for shl_check_buffer. */
static SHL_HOT_INLINE int check_source(const char *fn, const char *what, struct shl_comm *c,
				       int source, int tag)
{
	if (tag != MPI_ANY_TAG && (tag < 0 || tag > MPI_TAG_UB_VALUE))
		return shl_err(c, MPI_ERR_TAG, fn, "%stag %d is outside 0..%d (MPI_TAG_UB)", what,
			       tag, MPI_TAG_UB_VALUE);
	if (source != MPI_PROC_NULL && source != MPI_ANY_SOURCE &&
	    (source < 0 || source >= shl_comm_remote_size(c)))
		return shl_err(c, MPI_ERR_RANK, fn, "source %d is not a rank of %s (size %d)",
			       source, c->name ? c->name : "the communicator",
			       shl_comm_remote_size(c));
	return MPI_SUCCESS;
}

/* The receive side's arguments; `what` as for shl_check_buffer. */
static SHL_HOT_INLINE int check_recv(const char *fn, const char *what, struct shl_rank *r,
				     MPI_Comm comm, struct shl_comm **c, void *buf,
				     MPI_Count count, MPI_Datatype type, int source, int tag)
{
	int err = shl_check_comm(fn, r, comm, c);

	if (err == MPI_SUCCESS)
		err = shl_check_buffer(*c, fn, what, buf, count, type);
	if (err == MPI_SUCCESS && !type->predefined)  /* a predefined layout never overlaps */
		err = shl_check_layout(*c, fn, what, count, type);
	if (err == MPI_SUCCESS)
		err = check_source(fn, what, *c, source, tag);
	return err;
}

#endif
