/* shoal-node: the node process mpiexec starts; all of its work is in libmpi.so (loader/node.c)
 * because the interposed libc functions must come ahead of libc for every rank's copy.
 * Entered by the process's main thread only. Must stay a thin main: no logic here. */
#include "loader/loader.h"

int main(int argc, char **argv)
{
	return shl_node_main(argc, argv);
}
