/* comm_split_type_refuses_invalid_info: MPI_Comm_split_type given an info handle that is no
 * info object (zeroed memory, a small integer) fails with MPI_ERR_INFO on every rank and
 * returns no communicator; a split with MPI_INFO_NULL or a real info object still works. */
/* ranks: 1 2 4 */
#include "check.h"

/* Zeroed, readable memory that is not an info object. */
static _Alignas(64) unsigned char not_an_info[4096];

int main(int argc, char **argv)
{
	MPI_Comm c;
	MPI_Info info;
	int size, n;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

	c = MPI_COMM_WORLD;
	CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
					(MPI_Info)(void *)not_an_info, &c), MPI_ERR_INFO);
	CHECK(c == MPI_COMM_WORLD || c == MPI_COMM_NULL);
	CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, (MPI_Info)1, &c),
		    MPI_ERR_INFO);

	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c));
	CHECK_MPI(MPI_Comm_size(c, &n));
	CHECK_INT(n, size);
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory"));
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, info, &c));
	CHECK_MPI(MPI_Comm_size(c, &n));
	CHECK_INT(n, size);
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
