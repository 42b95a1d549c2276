/* Argument checks at the MPI boundary that more than one chapter makes: a buffer's count,
 * datatype and address, a receive layout, a communicator handle. The common case of the
 * checks every message makes is inline; every report goes out of line (core/check.c).
 * Entered by the calling rank's threads. Must not raise anything but through shl_err. */
#ifndef SHL_RUNTIME_CORE_CHECK_H
#define SHL_RUNTIME_CORE_CHECK_H

#include "runtime/core/rt.h"

/* Owner thread, at the MPI boundary: check a buffer's count and datatype arguments. The
 * count must be non-negative, the datatype valid and usable, and count times its size at
 * most PTRDIFF_MAX bytes: byte counts cannot wrap, no buffer is larger, and a status holds
 * the bytes as an MPI_Count (an int count of a large datatype can overflow as well as a
 * large count). `what` prefixes the names ("send", "recv"; "" says count and datatype).
 * Reports through c's handler; returns MPI_SUCCESS or what the handler returned. */
int shl_check_count_slow(struct shl_comm *c, const char *fn, const char *what, MPI_Count count,
			 MPI_Datatype type);

/* Counts below this pass with a predefined type (at most 32 bytes, MPI_C_LONG_DOUBLE_COMPLEX)
 * without the overflow check: count * 64 <= PTRDIFF_MAX. */
#define SHL_COUNT_FAST_MAX ((uint64_t)PTRDIFF_MAX / 64)

/* The common case inline (every send and receive checks it; measured with callgrind on
 * bench/msgrate: ~30 instructions of the out-of-line check per call), the rest and every
 * report out of line. */
static inline int shl_check_count(struct shl_comm *c, const char *fn, const char *what,
				  MPI_Count count, MPI_Datatype type)
{
	if (likely(shl_type_ok(type) && type->predefined && (uint64_t)count <= SHL_COUNT_FAST_MAX))
		return MPI_SUCCESS;
	return shl_check_count_slow(c, fn, what, count, type);
}

/* Owner thread, at the MPI boundary: a receive of `count` elements of `type` (both checked
 * by shl_check_count) must not write any byte twice (shl_dt_recv_overlaps; MPI 4.1, 5.1).
 * One branch for a predefined type. `what` as for shl_check_count. MPI_ERR_TYPE through
 * c's handler; returns MPI_SUCCESS or what the handler returned. */
int shl_check_layout(struct shl_comm *c, const char *fn, const char *what, MPI_Count count,
		     MPI_Datatype type);

/* Whether `buf` is NULL where `count` elements of `type` (checked by shl_check_count) must
 * be. NULL is MPI_BOTTOM: fine with a derived type holding absolute addresses only. */
static inline bool shl_buf_missing(const void *buf, MPI_Count count, MPI_Datatype type)
{
	return buf == NULL && count > 0 && type->size > 0 && type->predefined;
}

/* Owner thread, at the MPI boundary: buffer argument `what` ("sendbuf", "inbuf", ...) of
 * `count` elements of `type` (shl_check_count): MPI_ERR_BUFFER through c's handler if
 * shl_buf_missing; returns MPI_SUCCESS or what the handler returned. */
int shl_check_buf(struct shl_comm *c, const char *fn, const char *what, const void *buf,
		  MPI_Count count, MPI_Datatype type);

/* shl_check_buffer's report: `what`buf is NULL but `what`count is `count`. */
int shl_check_buffer_null(struct shl_comm *c, const char *fn, const char *what, MPI_Count count);

/* A buffer argument: shl_check_count, and no NULL buffer where data must be. `what`
 * prefixes the arguments' names in messages: "" (buf, count, datatype), or "send" or
 * "recv" (MPI_Sendrecv's sendbuf, sendcount, sendtype, ...). */
static SHL_HOT_INLINE int shl_check_buffer(struct shl_comm *c, const char *fn, const char *what,
					   const void *buf, MPI_Count count, MPI_Datatype type)
{
	int err = shl_check_count(c, fn, what, count, type);

	if (err != MPI_SUCCESS)
		return err;
	if (shl_buf_missing(buf, count, type))
		return shl_check_buffer_null(c, fn, what, count);
	return MPI_SUCCESS;
}

/* shl_check_comm's report: `comm` is no communicator (MPI_ERR_COMM on MPI_COMM_SELF). */
int shl_check_comm_bad(const char *fn, MPI_Comm comm);

/* Communicator argument `comm` of `r`'s call `fn`: its object in *c, or MPI_ERR_COMM. */
static SHL_HOT_INLINE int shl_check_comm(const char *fn, struct shl_rank *r, MPI_Comm comm,
					 struct shl_comm **c)
{
	*c = shl_comm_get(r, comm);
	if (*c == NULL)
		return shl_check_comm_bad(fn, comm);
	return MPI_SUCCESS;
}

#endif
