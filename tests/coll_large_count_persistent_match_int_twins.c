/* coll_large_count_persistent_match_int_twins: every MPI_…_init_c collective, started and waited for, leaves its buffers exactly as the blocking int twin does (MPI_IN_PLACE, v and w forms with blocks in reverse order and gaps) */
/* ranks: 1 2 4 64 */
#include "coll_large_count_twins.h"

int main(int argc, char **argv)
{
	return run_twins(argc, argv, PERSISTENT, NULL);
}
