/* MPI_Session_c2f and MPI_Session_f2c: a session's handle as a Fortran integer, core/handle.c's
 * encoding (core/convert.c has the other kinds). Entered by any thread; no lock. */
#include "runtime/core/rt.h"
#include "runtime/session/session.h"

MPI_Fint PMPI_Session_c2f(MPI_Session session)
{
	return shl_handle_to_int(session);
}
SHL_WEAK_ALIAS(Session_c2f);

MPI_Session PMPI_Session_f2c(MPI_Fint session)
{
	return shl_handle_from_int(session, sizeof(struct shl_session), SHL_SESSION_MAGIC);
}
SHL_WEAK_ALIAS(Session_f2c);
