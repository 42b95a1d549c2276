/* comm_create_and_create_group: MPI_Comm_create with one group, and with disjoint groups
 * per member, and MPI_Comm_create_group called only by the group's members, give each
 * member its rank in group order and MPI_COMM_NULL to the others. */
/* ranks: 1 2 4 8 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, r, n;
	MPI_Group world, g;
	MPI_Comm c;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));

	/* One group for all: the upper half, reversed. */
	int m = (size + 1) / 2, ranks[64];
	for (int i = 0; i < m; i++)
		ranks[i] = size - 1 - i;
	CHECK_MPI(MPI_Group_incl(world, m, ranks, &g));
	CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
	if (rank >= size - m) {
		CHECK_MPI(MPI_Comm_rank(c, &r));
		CHECK_MPI(MPI_Comm_size(c, &n));
		CHECK_INT(r, size - 1 - rank);
		CHECK_INT(n, m);
		int got = -1;
		CHECK_MPI(MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 0, &got, 1, MPI_INT,
				       (r + n - 1) % n, 0, c, MPI_STATUS_IGNORE));
		CHECK_INT(got, (r + n - 1) % n);
		CHECK_MPI(MPI_Comm_free(&c));
	} else {
		CHECK(c == MPI_COMM_NULL);
	}
	MPI_Group_free(&g);

	/* Disjoint groups: members of each parity name their own parity group. */
	int range[1][3] = { { rank % 2, size - 1, 2 } };
	CHECK_MPI(MPI_Group_range_incl(world, 1, range, &g));
	CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
	CHECK_MPI(MPI_Comm_rank(c, &r));
	CHECK_INT(r, rank / 2);
	CHECK_MPI(MPI_Comm_free(&c));

	/* create_group: only the parity group's members call; tag by parity. */
	CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, rank % 2, &c));
	CHECK_MPI(MPI_Comm_rank(c, &r));
	CHECK_MPI(MPI_Comm_size(c, &n));
	CHECK_INT(r, rank / 2);
	CHECK_INT(n, rank % 2 ? size / 2 : (size + 1) / 2);
	int sum = -1;
	CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (r + 1) % n, 4, &sum, 1, MPI_INT,
			       (r + n - 1) % n, 4, c, MPI_STATUS_IGNORE));
	CHECK_INT(sum % 2, rank % 2);
	CHECK_MPI(MPI_Comm_free(&c));
	MPI_Group_free(&g);

	/* create_group with a group not containing the caller: MPI_COMM_NULL at once. */
	if (size > 1) {
		int other = (rank + 1) % size;
		CHECK_MPI(MPI_Group_incl(world, 1, &other, &g));
		CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 9, &c));
		CHECK(c == MPI_COMM_NULL);
		MPI_Group_free(&g);
	}
	MPI_Group_free(&world);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
