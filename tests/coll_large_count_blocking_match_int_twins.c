/* coll_large_count_blocking_match_int_twins: every blocking MPI_…_c collective and MPI_Reduce_local_c leave their buffers exactly as the int twins do (MPI_IN_PLACE, v and w forms with blocks in reverse order and gaps) */
/* ranks: 1 2 4 64 */
#include "coll_large_count_twins.h"

/* Reduce_local_c against Reduce_local, predefined op and a user op (operand order). */
static void sub(void *in, void *inout, int *len, MPI_Datatype *t)
{
	for (int i = 0; i < *len; i++)
		((int *)inout)[i] = ((int *)in)[i] - ((int *)inout)[i];
}

static void reduce_local(void)
{
	int in[4] = { 10, 20, 30, 40 }, ac[4] = { 1, 2, 3, 4 }, ai[4] = { 1, 2, 3, 4 };
	MPI_Op op;

	CHECK_MPI(MPI_Reduce_local_c(in, ac, 4, MPI_INT, MPI_PROD));
	CHECK_MPI(MPI_Reduce_local(in, ai, 4, MPI_INT, MPI_PROD));
	same("Reduce_local", 0, ac, ai, 4);
	CHECK_MPI(MPI_Op_create(sub, 0, &op));
	CHECK_MPI(MPI_Reduce_local_c(in, ac, 3, MPI_INT, op));
	CHECK_MPI(MPI_Reduce_local(in, ai, 3, MPI_INT, op));
	same("Reduce_local (user op)", 0, ac, ai, 4);
	CHECK_MPI(MPI_Op_free(&op));
}

int main(int argc, char **argv)
{
	return run_twins(argc, argv, BLOCKING, reduce_local);
}
