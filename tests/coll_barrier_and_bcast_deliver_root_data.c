/* coll_barrier_and_bcast_deliver_root_data: MPI_Barrier returns on every rank, and
 * MPI_Bcast from every root delivers its data (small, 1 MiB, and into a strided type). */
/* ranks: 1 2 3 4 7 64 */
#include "check.h"

#define BIG (1 << 18)

int main(int argc, char **argv)
{
	int rank, size;
	static int big[BIG];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int k = 0; k < 5; k++)
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int root = 0; root < size; root++) {
		int v[3] = { -1, -1, -1 };
		if (rank == root)
			v[0] = root, v[1] = root * 10, v[2] = root * 100;
		CHECK_MPI(MPI_Bcast(v, 3, MPI_INT, root, MPI_COMM_WORLD));
		CHECK_INT(v[0], root);
		CHECK_INT(v[1], root * 10);
		CHECK_INT(v[2], root * 100);
	}
	int root = size - 1;
	for (int i = 0; i < BIG; i++)
		big[i] = rank == root ? i * 3 + 1 : 0;
	CHECK_MPI(MPI_Bcast(big, BIG, MPI_INT, root, MPI_COMM_WORLD));
	for (int i = 0; i < BIG; i += 997)
		CHECK_INT(big[i], i * 3 + 1);
	CHECK_INT(big[BIG - 1], (BIG - 1) * 3 + 1);

	/* The root sends 4 dense doubles; the others receive them every other slot. */
	double d[8] = { 0 };
	MPI_Datatype every_other;
	CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other));
	CHECK_MPI(MPI_Type_commit(&every_other));
	if (rank == 0) {
		for (int i = 0; i < 4; i++)
			d[i] = i + 0.5;
		CHECK_MPI(MPI_Bcast(d, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD));
	} else {
		CHECK_MPI(MPI_Bcast(d, 1, every_other, 0, MPI_COMM_WORLD));
		for (int i = 0; i < 4; i++) {
			CHECK(d[2 * i] == i + 0.5);
			CHECK(d[2 * i + 1] == 0);
		}
	}
	CHECK_MPI(MPI_Type_free(&every_other));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
