/* comm_create_on_intercommunicator_connects_subgroups: MPI_Comm_create on an intercommunicator gives an intercommunicator between the two local subgroups (in the groups' order), MPI_COMM_NULL outside them or when either is empty, and MPI_ERR_GROUP when one side's members name different groups */
/* ranks: 2 3 4 7 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, lrank, lsize, rsize, flag;
	MPI_Comm local, inter, c;
	MPI_Group lg, g;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		MPI_Finalize();
		return 77;
	}
	/* Evens and odds; leaders world 0 and 1. */
	int side = rank % 2;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, rank, &local));
	CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, !side, 7, &inter));
	MPI_Comm_rank(inter, &lrank);
	MPI_Comm_size(inter, &lsize);
	MPI_Comm_remote_size(inter, &rsize);
	CHECK_MPI(MPI_Comm_group(inter, &lg));

	/* Evens keep their first half (at least one), odds all of theirs, in reverse order. */
	int keep = side ? lsize : (lsize + 1) / 2, *ranks = malloc(lsize * sizeof(int));
	for (int i = 0; i < keep; i++)
		ranks[i] = side ? lsize - 1 - i : i;
	CHECK_MPI(MPI_Group_incl(lg, keep, ranks, &g));
	CHECK_MPI(MPI_Comm_create(inter, g, &c));
	int other_keep = side ? (rsize + 1) / 2 : rsize;
	if (side == 0 && lrank >= keep) {
		CHECK(c == MPI_COMM_NULL);
	} else {
		int crank, csize, crsize, want = side ? lsize - 1 - lrank : lrank;
		CHECK(c != MPI_COMM_NULL);
		CHECK_MPI(MPI_Comm_test_inter(c, &flag));
		CHECK_INT(flag, 1);
		MPI_Comm_rank(c, &crank);
		MPI_Comm_size(c, &csize);
		MPI_Comm_remote_size(c, &crsize);
		CHECK_INT(crank, want);
		CHECK_INT(csize, keep);
		CHECK_INT(crsize, other_keep);
		/* Each side sums its world ranks for the other. */
		int sum = -1, expect = 0;
		CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
		for (int w = !side, k = 0; w < size && k < other_keep; w += 2, k++)
			expect += w;
		CHECK_INT(sum, expect);
		/* Rank 0 of each side exchanges its world rank with the other's rank 0. */
		if (crank == 0) {
			int peer = -1;
			CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 3, &peer, 1, MPI_INT, 0, 3, c,
					       MPI_STATUS_IGNORE));
			CHECK_INT(peer, side ? 0 : (rsize - 1) * 2 + 1);
		}
		CHECK_MPI(MPI_Comm_free(&c));
	}
	CHECK_MPI(MPI_Group_free(&g));

	/* One side passes the empty group: nobody gets a communicator. */
	CHECK_MPI(MPI_Comm_create(inter, side ? MPI_GROUP_EMPTY : lg, &c));
	CHECK(c == MPI_COMM_NULL);

	/* The odd side's members disagree (each names only itself): an error everywhere. */
	if (rsize > 1 || lsize > 1) {
		CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
		if (side == 1 && lsize > 1)
			CHECK_MPI(MPI_Group_incl(lg, 1, &lrank, &g));
		else if (side == 0 && rsize > 1)
			g = lg;
		else
			CHECK_MPI(MPI_Group_incl(lg, 1, &lrank, &g));
		c = MPI_COMM_WORLD;
		CHECK_CLASS(MPI_Comm_create(inter, g, &c), MPI_ERR_GROUP);
		if (g != lg)
			CHECK_MPI(MPI_Group_free(&g));
	}
	/* Still usable afterwards. */
	CHECK_MPI(MPI_Comm_create(inter, lg, &c));
	CHECK(c != MPI_COMM_NULL);
	CHECK_MPI(MPI_Comm_free(&c));

	free(ranks);
	CHECK_MPI(MPI_Group_free(&lg));
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&local));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
