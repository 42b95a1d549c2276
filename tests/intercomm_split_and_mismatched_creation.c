/* intercomm_split_and_mismatched_creation: MPI_Comm_split on an intercommunicator pairs the
 * colors present on both sides (others get MPI_COMM_NULL); members that call different
 * creation functions on one communicator all get MPI_ERR_NOT_SAME instead of hanging. */
/* ranks: 4 8 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, side, n, flag;
	MPI_Comm half, inter, sub;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	side = rank % 2;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, 0, &half));
	CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, !side, 5, &inter));

	/* Color: local rank < 1 on side 0 -> 0 or 1; side 1 uses only color 0. */
	int lrank;
	MPI_Comm_rank(inter, &lrank);
	int color = side ? 0 : (lrank < 1 ? 0 : 1);
	CHECK_MPI(MPI_Comm_split(inter, color, -lrank, &sub));
	if (color == 1) {
		CHECK(sub == MPI_COMM_NULL);   /* no partner on the other side */
	} else {
		CHECK_MPI(MPI_Comm_test_inter(sub, &flag));
		CHECK_INT(flag, 1);
		CHECK_MPI(MPI_Comm_size(sub, &n));
		CHECK_INT(n, side ? size / 2 : 1);
		CHECK_MPI(MPI_Comm_remote_size(sub, &n));
		CHECK_INT(n, side ? 1 : size / 2);
		int r;
		CHECK_MPI(MPI_Comm_rank(sub, &r));
		CHECK_INT(r, side ? size / 2 - 1 - lrank : 0);
		/* The single side-0 member exchanges with the remote rank 0 (last odd rank). */
		if (!side || r == 0) {
			int out = rank, in = -1;
			CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, 0, 0, &in, 1, MPI_INT, 0, 0, sub,
					       MPI_STATUS_IGNORE));
			CHECK_INT(in, side ? 0 : size - 1);
		}
		CHECK_MPI(MPI_Comm_free(&sub));
	}

	/* Mismatch: even ranks dup, odd ranks split, on one communicator. */
	MPI_Comm c = MPI_COMM_NULL, w;
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &w));
	MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
	int rc = side ? MPI_Comm_split(w, 0, 0, &c) : MPI_Comm_dup(w, &c);
	CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
	CHECK(c == MPI_COMM_NULL);
	/* The communicator stays usable for the next (matching) call. */
	CHECK_MPI(MPI_Comm_dup(w, &c));
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK_MPI(MPI_Comm_free(&w));
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&half));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
