/* comm_dup_messages_do_not_match_parent: a message sent on a duplicate is received only on
 * the duplicate, even by a receive with MPI_ANY_SOURCE/MPI_ANY_TAG posted on the parent. */
/* ranks: 2 4 8 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Comm dup, dup2;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Comm_dup(dup, &dup2));
	int r2 = -1, cmp = -1;
	CHECK_MPI(MPI_Comm_rank(dup, &r2));
	CHECK_INT(r2, rank);
	CHECK_MPI(MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp));
	CHECK_INT(cmp, MPI_CONGRUENT);

	if (rank == 0) {
		int a = 1, b = 2, c = 3;
		/* Dup first: if contexts were shared, the parent's receive would get it. */
		CHECK_MPI(MPI_Send(&b, 1, MPI_INT, 1, 5, dup));
		CHECK_MPI(MPI_Send(&c, 1, MPI_INT, 1, 5, dup2));
		CHECK_MPI(MPI_Send(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
	} else if (rank == 1) {
		int v = 0;
		MPI_Status st;
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
		CHECK_INT(v, 1);
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup2, &st));
		CHECK_INT(v, 3);
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, dup, &st));
		CHECK_INT(v, 2);
		int flag = 1;
		CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
		CHECK_INT(flag, 0);
	}
	CHECK_MPI(MPI_Comm_free(&dup2));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
