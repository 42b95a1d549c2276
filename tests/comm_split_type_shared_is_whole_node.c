/* comm_split_type_shared_is_whole_node: MPI_COMM_TYPE_SHARED gives every rank of the node
 * process one communicator ordered by key; MPI_UNDEFINED gives MPI_COMM_NULL. */
/* ranks: 1 2 8 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, r, n, cmp;
	MPI_Comm c;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
	CHECK_MPI(MPI_Comm_size(c, &n));
	CHECK_MPI(MPI_Comm_rank(c, &r));
	CHECK_INT(n, size);
	CHECK_INT(r, rank);
	CHECK_MPI(MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp));
	CHECK_INT(cmp, MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_free(&c));

	/* key reverses the order. */
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL,
				      &c));
	CHECK_MPI(MPI_Comm_rank(c, &r));
	CHECK_INT(r, size - 1 - rank);
	CHECK_MPI(MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp));
	CHECK_INT(cmp, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_free(&c));

	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED
					      : MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
	if (rank % 2) {
		CHECK(c == MPI_COMM_NULL);
	} else {
		CHECK_MPI(MPI_Comm_size(c, &n));
		CHECK_INT(n, (size + 1) / 2);
		CHECK_MPI(MPI_Comm_free(&c));
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
