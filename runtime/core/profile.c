/* MPI_Pcontrol, the profiling interface's hook (MPI 4.1, 15.2.4): a profiling library
 * that wraps it gives the levels a meaning; Shoal itself has none, so the call does
 * nothing and succeeds, at any time (before MPI_Init too). Entered by any thread. */
#include "runtime/core/rt.h"

int PMPI_Pcontrol(const int level, ...)
{
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Pcontrol);
