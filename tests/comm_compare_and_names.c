/* comm_compare_and_names: MPI_Comm_compare says IDENT, CONGRUENT, SIMILAR and UNEQUAL as
 * the standard defines; names are per communicator, WORLD/SELF have theirs, new ones none. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, res, len;
	MPI_Comm dup, rev, half;
	char name[MPI_MAX_OBJECT_NAME];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res));
	CHECK_INT(res, MPI_IDENT);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Comm_compare(dup, dup, &res));
	CHECK_INT(res, MPI_IDENT);
	CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &res));
	CHECK_INT(res, MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &rev));
	CHECK_MPI(MPI_Comm_compare(rev, dup, &res));
	CHECK_INT(res, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, 0, &half));
	CHECK_MPI(MPI_Comm_compare(half, MPI_COMM_WORLD, &res));
	CHECK_INT(res, size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &res));
	CHECK_INT(res, size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT);

	CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
	CHECK_STR(name, "MPI_COMM_WORLD");
	CHECK_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
	CHECK_STR(name, "MPI_COMM_SELF");
	CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
	CHECK_INT(len, 0);
	CHECK_MPI(MPI_Comm_set_name(dup, "my dup"));
	CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
	CHECK_STR(name, "my dup");
	CHECK_INT(len, 6);
	CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, "everyone"));
	CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
	CHECK_STR(name, "everyone");
	CHECK_MPI(MPI_Comm_get_name(rev, name, &len));
	CHECK_INT(len, 0);
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&rev));
	CHECK_MPI(MPI_Comm_free(&half));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
