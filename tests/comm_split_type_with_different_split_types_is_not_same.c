/* comm_split_type_with_different_split_types_is_not_same: MPI_Comm_split_type where the
 * members pass different split_type values (MPI 4.1 7.4.2 requires one) fails with
 * MPI_ERR_NOT_SAME on every member, with MPI_COMM_NULL left alone; the communicator stays
 * usable, and a split with one type afterwards works, also where some members pass
 * MPI_UNDEFINED (they get MPI_COMM_NULL). */
/* ranks: 2 3 8 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, sub_size = -1;
	MPI_Comm sub = MPI_COMM_NULL;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

	CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, rank == 0 ? MPI_COMM_TYPE_SHARED
								 : MPI_COMM_TYPE_HW_UNGUIDED,
					0, MPI_INFO_NULL, &sub),
		    MPI_ERR_NOT_SAME);
	CHECK(sub == MPI_COMM_NULL);

	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
				      &sub));
	CHECK_MPI(MPI_Comm_size(sub, &sub_size));
	CHECK_INT(sub_size, size);
	CHECK_MPI(MPI_Comm_free(&sub));

	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, rank == 1 ? MPI_UNDEFINED
								 : MPI_COMM_TYPE_SHARED,
				      0, MPI_INFO_NULL, &sub));
	if (rank == 1) {
		CHECK(sub == MPI_COMM_NULL);
	} else {
		CHECK_MPI(MPI_Comm_size(sub, &sub_size));
		CHECK_INT(sub_size, size - 1);
		CHECK_MPI(MPI_Comm_free(&sub));
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
