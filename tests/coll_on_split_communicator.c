/* coll_on_split_communicator: collectives on the halves of a split communicator run
 * independently (different values, concurrently) and again on a dup of a half. */
/* ranks: 1 3 4 7 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, sr, ss;
	MPI_Comm half, dup;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
	MPI_Comm_rank(half, &sr);
	MPI_Comm_size(half, &ss);
	int x = rank, s = -1;
	CHECK_MPI(MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, half));
	int want = 0;
	for (int k = rank % 2; k < size; k += 2)
		want += k;
	CHECK_INT(s, want);
	/* Keys reversed the order: half-rank 0 is the highest world rank of the half. */
	int b = sr == 0 ? rank : -1;
	CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, half));
	int top = size - 1 - ((size - 1) % 2 != rank % 2);
	CHECK_INT(b, top);
	CHECK_MPI(MPI_Comm_dup(half, &dup));
	int *g = malloc(sizeof(int) * ss);
	CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, g, 1, MPI_INT, dup));
	for (int k = 0; k < ss; k++)
		CHECK_INT(g[k], top - 2 * k);
	CHECK_MPI(MPI_Scan(&x, &s, 1, MPI_INT, MPI_SUM, dup));
	int pre = 0;
	for (int k = 0; k <= sr; k++)
		pre += top - 2 * k;
	CHECK_INT(s, pre);
	free(g);
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&half));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
