/* MPI_Win_c2f and MPI_Win_f2c: a window's handle as a Fortran integer, core/handle.c's
 * encoding (core/convert.c has the other kinds). Entered by any thread; no lock. */
#include "runtime/core/rt.h"
#include "runtime/rma/rma.h"

MPI_Fint PMPI_Win_c2f(MPI_Win win)
{
	return shl_handle_to_int(win);
}
SHL_WEAK_ALIAS(Win_c2f);

MPI_Win PMPI_Win_f2c(MPI_Fint win)
{
	return shl_handle_from_int(win, sizeof(struct shl_win), SHL_WIN_MAGIC);
}
SHL_WEAK_ALIAS(Win_f2c);
