/* File views (MPI 4.1, 14.3): the default view and the release of a view's parts.
 * Entered by rank threads. */
#include <stdlib.h>

#include "runtime/file/file.h"

void shl_file_view_default(struct shl_file_view *v)
{
	*v = (struct shl_file_view){
		.disp = 0, .etype = MPI_BYTE, .filetype = MPI_BYTE, .rep = NULL, .esize = 1,
		.tile_bytes = 1, .tile_extent = 1, .nruns = 0, .runs = NULL, .before = NULL,
		.dense = true,
	};
}

void shl_file_view_clear(struct shl_file_view *v)
{
	shl_dt_release(v->etype);
	shl_dt_release(v->filetype);
	free(v->runs);
	free(v->before);
	shl_file_view_default(v);
}
