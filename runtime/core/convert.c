/* The C side of the handle conversions between C and Fortran (MPI 4.1, 19.3.4): the
 * _c2f/_f2c pairs of communicators, datatypes, groups, requests, info objects and error
 * handlers, and statuses as Fortran integers (MPI_Status_c2f, _f2c, _c2f08, _f082c,
 * _f2f08, _f082f). A handle's integer is core/handle.c's (its opening says how it is
 * made); operations convert in datatype/convert.c, windows in rma/convert.c, messages in
 * p2p/probe.c. Entered by rank threads (and any thread, for the handle pairs: they read
 * no rank state but a request's owner); takes no lock. */
#include <string.h>

#include "runtime/core/rt.h"

/* A status's bytes are MPI_F_STATUS_SIZE Fortran integers, the public fields first, in
 * the same places: the conversions are copies. */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint) &&
	       sizeof(MPI_F08_status) == sizeof(MPI_Status) &&
	       offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
	       offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
	       offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint) &&
	       offsetof(MPI_F08_status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
	       "MPI_Status and its Fortran forms differ in layout");

MPI_Fint PMPI_Comm_c2f(MPI_Comm comm)
{
	return shl_handle_to_int(comm);
}
SHL_WEAK_ALIAS(Comm_c2f);

MPI_Comm PMPI_Comm_f2c(MPI_Fint comm)
{
	return shl_handle_from_int(comm, sizeof(struct shl_comm), SHL_COMM_MAGIC);
}
SHL_WEAK_ALIAS(Comm_f2c);

MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype)
{
	return shl_handle_to_int(datatype);
}
SHL_WEAK_ALIAS(Type_c2f);

MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype)
{
	return shl_handle_from_int(datatype, sizeof(struct shl_datatype), SHL_TYPE_MAGIC);
}
SHL_WEAK_ALIAS(Type_f2c);

MPI_Fint PMPI_Group_c2f(MPI_Group group)
{
	return shl_handle_to_int(group);
}
SHL_WEAK_ALIAS(Group_c2f);

MPI_Group PMPI_Group_f2c(MPI_Fint group)
{
	return shl_handle_from_int(group, sizeof(struct shl_group), SHL_GROUP_MAGIC);
}
SHL_WEAK_ALIAS(Group_f2c);

MPI_Fint PMPI_Info_c2f(MPI_Info info)
{
	return shl_handle_to_int(info);
}
SHL_WEAK_ALIAS(Info_c2f);

MPI_Info PMPI_Info_f2c(MPI_Fint info)
{
	return shl_handle_from_int(info, sizeof(struct shl_info), SHL_INFO_MAGIC);
}
SHL_WEAK_ALIAS(Info_f2c);

MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler)
{
	return shl_handle_to_int(errhandler);
}
SHL_WEAK_ALIAS(Errhandler_c2f);

MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler)
{
	return shl_handle_from_int(errhandler, sizeof(struct shl_errhandler), SHL_ERRH_MAGIC);
}
SHL_WEAK_ALIAS(Errhandler_f2c);

/* A send that completed at once hands out the rank's shared request (`sent`), which lives
 * in the rank, not the arena: it is the special integer, valid on its own rank. */
MPI_Fint PMPI_Request_c2f(MPI_Request request)
{
	struct shl_rank *r = shl_self;

	if (r != NULL && request == &r->sent)
		return SHL_HANDLE_INT_SPECIAL;
	return shl_handle_to_int(request);
}
SHL_WEAK_ALIAS(Request_c2f);

MPI_Request PMPI_Request_f2c(MPI_Fint request)
{
	struct shl_rank *r = shl_self;

	if (request == SHL_HANDLE_INT_SPECIAL)
		return r != NULL ? &r->sent : MPI_REQUEST_NULL;
	return shl_handle_from_int(request, sizeof(struct shl_req), SHL_REQ_MAGIC);
}
SHL_WEAK_ALIAS(Request_f2c);

/* The status conversions: `fn` is the call, `from` and `to` the two statuses; a NULL
 * one (MPI_STATUS_IGNORE, MPI_F_STATUS_IGNORE, MPI_F08_STATUS_IGNORE) is MPI_ERR_ARG, as
 * converting it is erroneous (MPI 4.1, 19.3.5). */
static int copy_status(const char *fn, const void *from, void *to)
{
	if (from == NULL || to == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "%s is NULL (an ignored status cannot be "
			       "converted)",
			       from == NULL ? "the status to convert" : "the output status");
	memmove(to, from, sizeof(MPI_Status));
	return MPI_SUCCESS;
}

int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
	return copy_status("MPI_Status_c2f", c_status, f_status);
}
SHL_WEAK_ALIAS(Status_c2f);

int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
	return copy_status("MPI_Status_f2c", f_status, c_status);
}
SHL_WEAK_ALIAS(Status_f2c);

int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
	return copy_status("MPI_Status_c2f08", c_status, f08_status);
}
SHL_WEAK_ALIAS(Status_c2f08);

int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
	return copy_status("MPI_Status_f082c", f08_status, c_status);
}
SHL_WEAK_ALIAS(Status_f082c);

int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
	return copy_status("MPI_Status_f2f08", f_status, f08_status);
}
SHL_WEAK_ALIAS(Status_f2f08);

int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
	return copy_status("MPI_Status_f082f", f08_status, f_status);
}
SHL_WEAK_ALIAS(Status_f082f);
