/* Collective file access (MPI 4.1, 14.4): the state a file keeps for it, ended at close.
 * Entered by rank threads. */
#include "runtime/file/file.h"

void shl_file_coll_close(struct shl_file *f)
{
	f->coll = NULL;
}
