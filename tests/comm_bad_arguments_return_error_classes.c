/* comm_bad_arguments_return_error_classes: communicator and group calls with bad arguments
 * return the right error class under MPI_ERRORS_RETURN instead of crashing or hanging. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, flag;
	MPI_Comm c = MPI_COMM_NULL, world = MPI_COMM_WORLD;
	MPI_Group g;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

	CHECK_CLASS(MPI_Comm_dup(MPI_COMM_NULL, &c), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Comm_free(&world), MPI_ERR_COMM);
	CHECK(world == MPI_COMM_WORLD);
	CHECK_CLASS(MPI_Comm_free(&c), MPI_ERR_COMM);    /* MPI_COMM_NULL: freed twice */
	CHECK_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &flag), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
	CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 999, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Intercomm_create(MPI_COMM_WORLD, size, MPI_COMM_WORLD, 0, 0, &c),
		    MPI_ERR_RANK);
	CHECK_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, 12345, NULL), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Comm_set_info(MPI_COMM_WORLD, MPI_INFO_NULL), MPI_ERR_INFO);
	CHECK_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, -1, &c), MPI_ERR_TAG);

	/* A freed communicator's handle is MPI_COMM_NULL. */
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK(c == MPI_COMM_NULL);
	int v = 0;
	CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 0, 0, c), MPI_ERR_COMM);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
