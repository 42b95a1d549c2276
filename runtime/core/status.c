/* The fields of a status, read and written one at a time (MPI 4.1, 3.2.5 and 13.3):
 * MPI_Status_set_cancelled, _set_source, _set_tag, _set_error and MPI_Status_get_source,
 * _get_tag, _get_error, for layered libraries and the query callbacks of generalized
 * requests (MPI_Status_set_elements is datatype/'s: it counts in a datatype). Entered by
 * any thread; touches only the caller's status. */
#include "runtime/core/rt.h"

/* A NULL status (MPI_STATUS_IGNORE) or output: MPI_ERR_ARG naming the argument. */
static int null_arg(const char *fn, const char *what)
{
	return shl_err(NULL, MPI_ERR_ARG, fn, "%s is NULL", what);
}

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
	if (status == NULL)
		return null_arg("MPI_Status_set_cancelled", "status");
	status->shl_cancelled = flag != 0;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Status_set_cancelled);

int PMPI_Status_set_source(MPI_Status *status, int source)
{
	if (status == NULL)
		return null_arg("MPI_Status_set_source", "status");
	status->MPI_SOURCE = source;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Status_set_source);

int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
	if (status == NULL)
		return null_arg("MPI_Status_set_tag", "status");
	status->MPI_TAG = tag;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Status_set_tag);

int PMPI_Status_set_error(MPI_Status *status, int error)
{
	if (status == NULL)
		return null_arg("MPI_Status_set_error", "status");
	status->MPI_ERROR = error;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Status_set_error);

int PMPI_Status_get_source(const MPI_Status *status, int *source)
{
	if (status == NULL || source == NULL)
		return null_arg("MPI_Status_get_source", status == NULL ? "status" : "source");
	*source = status->MPI_SOURCE;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Status_get_source);

int PMPI_Status_get_tag(const MPI_Status *status, int *tag)
{
	if (status == NULL || tag == NULL)
		return null_arg("MPI_Status_get_tag", status == NULL ? "status" : "tag");
	*tag = status->MPI_TAG;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Status_get_tag);

int PMPI_Status_get_error(const MPI_Status *status, int *error)
{
	if (status == NULL || error == NULL)
		return null_arg("MPI_Status_get_error", status == NULL ? "status" : "error");
	*error = status->MPI_ERROR;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Status_get_error);
