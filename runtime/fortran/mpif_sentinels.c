/* mpif_sentinels.o: linked by mpifort into every Fortran program and shared library. It
 * makes mpif.h's sentinels (MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ... COMMON blocks
 * /shl_f_bottom/ ..., symbols shl_f_bottom_ ...) known to libmpifort: the tentative
 * definitions below, compiled -fcommon, merge with the COMMONs the Fortran objects of the
 * same link make, and a constructor registers their addresses (shl_f_sentinels_add,
 * runtime/fortran/fortran.h). A COMMON of a program linked with rank.map is local to
 * the program, out of libmpifort's sight by name: hence the registration. Entered by the
 * thread that loads the program or library (its constructor), once per rank copy. */
#include "runtime/fortran/fortran.h"

/* Sizes as mpif.h declares them (MPI_STATUS_SIZE integers a status). */
int shl_f_bottom_, shl_f_in_place_, shl_f_status_ignore_[MPI_F_STATUS_SIZE],
	shl_f_statuses_ignore_[MPI_F_STATUS_SIZE], shl_f_errcodes_ignore_[1],
	shl_f_unweighted_[1], shl_f_weights_empty_[1], shl_f_buffer_automatic_;
char shl_f_argv_null_[1], shl_f_argvs_null_[1];

__attribute__((constructor)) static void shl_f_register_mpif_sentinels(void)
{
	struct shl_f_sentinels s = {
		.bottom = &shl_f_bottom_, .in_place = &shl_f_in_place_,
		.status_ignore = shl_f_status_ignore_, .statuses_ignore = shl_f_statuses_ignore_,
		.errcodes_ignore = shl_f_errcodes_ignore_, .unweighted = shl_f_unweighted_,
		.weights_empty = shl_f_weights_empty_, .buffer_automatic = &shl_f_buffer_automatic_,
		.argv_null = shl_f_argv_null_, .argvs_null = shl_f_argvs_null_,
	};
	shl_f_sentinels_add(&s);
}
