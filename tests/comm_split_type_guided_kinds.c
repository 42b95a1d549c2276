/* comm_split_type_guided_kinds: MPI_COMM_TYPE_HW_GUIDED and _RESOURCE_GUIDED with mpi_hw_resource_type=mpi_shared_memory give the node (all ranks, ordered by key), an unknown or missing resource type gives MPI_COMM_NULL, MPI_COMM_TYPE_HW_UNGUIDED gives MPI_COMM_NULL (no hardware level strictly inside a node is modelled), and an unknown split_type is MPI_ERR_ARG */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, r, n;
	MPI_Comm c;
	MPI_Info shm, numa;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Info_create(&shm));
	CHECK_MPI(MPI_Info_set(shm, "mpi_hw_resource_type", "mpi_shared_memory"));
	CHECK_MPI(MPI_Info_create(&numa));
	CHECK_MPI(MPI_Info_set(numa, "mpi_hw_resource_type", "hwloc://NUMANode"));

	int guided[2] = { MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_RESOURCE_GUIDED };
	for (int i = 0; i < 2; i++) {
		CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, guided[i], -rank, shm, &c));
		CHECK(c != MPI_COMM_NULL);
		CHECK_MPI(MPI_Comm_size(c, &n));
		CHECK_MPI(MPI_Comm_rank(c, &r));
		CHECK_INT(n, size);
		CHECK_INT(r, size - 1 - rank);
		CHECK_MPI(MPI_Barrier(c));
		CHECK_MPI(MPI_Comm_free(&c));
		CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, guided[i], 0, numa, &c));
		CHECK(c == MPI_COMM_NULL);
		CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, guided[i], 0, MPI_INFO_NULL, &c));
		CHECK(c == MPI_COMM_NULL);
	}
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL,
				      &c));
	CHECK(c == MPI_COMM_NULL);

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
	/* The communicator still works (the refused call joined no meeting). */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Info_free(&shm));
	CHECK_MPI(MPI_Info_free(&numa));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
