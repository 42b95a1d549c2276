/* Windows for the RMA error tests: errors returned rather than fatal, so that a test checks
 * each call's error class (CHECK_CLASS) and goes on. Entered by rank threads; standard MPI
 * only. */
#ifndef SHOAL_TESTS_RMA_ERRORS_H
#define SHOAL_TESTS_RMA_ERRORS_H

#include "check.h"

/* A window of MPI_Win_allocate over MPI_COMM_WORLD, `bytes` per rank, disp_unit 1, with
 * MPI_ERRORS_RETURN; errors without a window (MPI_WIN_NULL) are returned too. */
static inline MPI_Win rma_returning_window(MPI_Aint bytes, void *baseptr)
{
	MPI_Win win;

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	return win;
}

#endif
