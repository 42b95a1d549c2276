/* Data representations (MPI 4.1, 14.5): native, internal (laid out as native) and
 * external32, and those the program registers with MPI_Register_datarep.
 * Entered by rank threads and the node's I/O workers. */
#include "runtime/file/file.h"

bool shl_file_rep_native(const struct shl_datarep *rep)
{
	return rep == NULL;
}
