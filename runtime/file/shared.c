/* The shared file pointer (MPI 4.1, 14.4.4): its set-up at open and its end at close.
 * Entered by rank threads, collectively over the file's communicator. */
#include "runtime/file/file.h"

int shl_file_shared_open(struct shl_file *f)
{
	f->shared = NULL;
	return MPI_SUCCESS;
}

void shl_file_shared_close(struct shl_file *f)
{
	f->shared = NULL;
}
