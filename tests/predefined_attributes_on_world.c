/* predefined_attributes_on_world: MPI_COMM_WORLD carries MPI_TAG_UB, MPI_HOST, MPI_IO,
 * MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE and MPI_APPNUM with the documented values; other
 * communicators (a dup of it, MPI_COMM_SELF) answer the same, as with MPICH, so that a
 * library asking its own communicator for MPI_TAG_UB learns it; predefined keyvals cannot
 * be set, deleted or freed. */
/* ranks: 1 2 4 */
#include "check.h"

static int get(MPI_Comm c, int key, int *flag)
{
	int *v = NULL;

	CHECK_MPI(MPI_Comm_get_attr(c, key, &v, flag));
	return *flag ? *v : -12345;
}

int main(int argc, char **argv)
{
	int flag, size;
	MPI_Comm dup;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_INT(get(MPI_COMM_WORLD, MPI_TAG_UB, &flag), MPI_TAG_UB_VALUE);
	CHECK_INT(flag, 1);
	CHECK_CMP(MPI_TAG_UB_VALUE, >=, 32767);
	CHECK_INT(get(MPI_COMM_WORLD, MPI_HOST, &flag), MPI_PROC_NULL);
	CHECK_INT(get(MPI_COMM_WORLD, MPI_IO, &flag), MPI_ANY_SOURCE);
	CHECK_INT(get(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag), 1);
	CHECK_INT(get(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &flag), size);
	CHECK_INT(get(MPI_COMM_WORLD, MPI_APPNUM, &flag), 0);

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_INT(get(dup, MPI_TAG_UB, &flag), MPI_TAG_UB_VALUE);
	CHECK_INT(flag, 1);
	CHECK_INT(get(MPI_COMM_SELF, MPI_UNIVERSE_SIZE, &flag), size);
	CHECK_INT(flag, 1);

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_HOST), MPI_ERR_KEYVAL);
	int k = MPI_IO;
	CHECK_CLASS(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
