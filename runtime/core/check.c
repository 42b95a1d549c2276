/* The out-of-line half of the shared argument checks (core/check.h): the rare cases and
 * every report. Entered by the calling rank's threads at the MPI boundary. Must not raise
 * anything but through shl_err, nor look at anything but the arguments. */
#include "runtime/core/check.h"

int shl_check_count_slow(struct shl_comm *c, const char *fn, const char *what, MPI_Count count,
			 MPI_Datatype type)
{
	const char *tname = *what ? "type" : "datatype";
	size_t bytes;

	if (count < 0)
		return shl_err(c, MPI_ERR_COUNT, fn, "%scount %lld is negative", what, count);
	if (!shl_type_ok(type))
		return shl_err(c, MPI_ERR_TYPE, fn, "invalid %s%s argument%s", what, tname,
			       type == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	const char *why = shl_dt_unusable(type);
	if (why != NULL)
		return shl_err(c, MPI_ERR_TYPE, fn, "%s%s %s %s", what, tname,
			       type->name ? type->name : "(unnamed derived type)", why);
	if (__builtin_mul_overflow((size_t)count, type->size, &bytes) || bytes > PTRDIFF_MAX)
		return shl_err(c, MPI_ERR_COUNT, fn, "%scount %lld of datatype %s (%zu bytes each) "
			       "is more bytes than any buffer holds (PTRDIFF_MAX, %td)", what,
			       count, type->name ? type->name : "(unnamed derived type)",
			       type->size, PTRDIFF_MAX);
	return MPI_SUCCESS;
}

int shl_check_layout(struct shl_comm *c, const char *fn, const char *what, MPI_Count count,
		     MPI_Datatype type)
{
	if (shl_dt_recv_overlaps(type, (size_t)count))
		return shl_err(c, MPI_ERR_TYPE, fn, "the receive layout overlaps: %scount %lld of "
			       "%s %s writes some byte twice", what, count,
			       *what ? "type" : "datatype",
			       type->name ? type->name : "(unnamed derived type)");
	return MPI_SUCCESS;
}

int shl_check_buf(struct shl_comm *c, const char *fn, const char *what, const void *buf,
		  MPI_Count count, MPI_Datatype type)
{
	if (shl_buf_missing(buf, count, type))
		return shl_err(c, MPI_ERR_BUFFER, fn, "%s is NULL but the count is %lld", what,
			       (long long)count);
	return MPI_SUCCESS;
}

int shl_check_buffer_null(struct shl_comm *c, const char *fn, const char *what, MPI_Count count)
{
	return shl_err(c, MPI_ERR_BUFFER, fn, "%sbuf is NULL but %scount is %lld", what, what,
		       count);
}

int shl_check_comm_bad(const char *fn, MPI_Comm comm)
{
	return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm%s",
		       comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
}
