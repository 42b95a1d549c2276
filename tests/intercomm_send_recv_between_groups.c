/* intercomm_send_recv_between_groups: MPI_Intercomm_create joins the even and odd halves;
 * send/recv name ranks of the remote group, sizes and remote groups are reported right. */
/* ranks: 2 4 8 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm half, inter;
	int side = rank % 2;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, rank, &half));
	/* Local leader: rank 0 of each half (world 0 and 1); tag 99 on WORLD. */
	CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, side ? 0 : 1, 99, &inter));

	int flag = 0, lsize = -1, rsize = -1, lrank = -1;
	CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Comm_test_inter(half, &flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Comm_size(inter, &lsize));
	CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
	CHECK_MPI(MPI_Comm_rank(inter, &lrank));
	int evens = (size + 1) / 2, odds = size / 2;
	CHECK_INT(lsize, side ? odds : evens);
	CHECK_INT(rsize, side ? evens : odds);
	CHECK_INT(lrank, rank / 2);

	/* Remote group: world ranks of the other parity, in order. */
	MPI_Group rg, wg;
	CHECK_MPI(MPI_Comm_remote_group(inter, &rg));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
	for (int i = 0; i < rsize; i++) {
		int w = -1;
		CHECK_MPI(MPI_Group_translate_ranks(rg, 1, &i, wg, &w));
		CHECK_INT(w, 2 * i + !side);
	}
	MPI_Group_free(&rg);
	MPI_Group_free(&wg);

	/* Each even rank i talks to odd rank i of the remote group (if any). */
	if (lrank < rsize) {
		int out = rank, in = -1;
		MPI_Status st;
		CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, lrank, 3, &in, 1, MPI_INT, lrank, 3, inter,
				       &st));
		CHECK_INT(in, 2 * lrank + !side);
		CHECK_INT(st.MPI_SOURCE, lrank);
	}
	/* Sending to a rank beyond the remote group is an error. */
	MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
	int v = 0;
	CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, rsize, 0, inter), MPI_ERR_RANK);

	/* A duplicate of an intercommunicator is one too, with its own context. */
	MPI_Comm idup;
	CHECK_MPI(MPI_Comm_dup(inter, &idup));
	CHECK_MPI(MPI_Comm_test_inter(idup, &flag));
	CHECK_INT(flag, 1);
	if (lrank == 0) {
		int out = 10 + side, in = -1;
		CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, 0, 0, &in, 1, MPI_INT, 0, 0, idup,
				       MPI_STATUS_IGNORE));
		CHECK_INT(in, 10 + !side);
	}
	CHECK_MPI(MPI_Comm_free(&idup));
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&half));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
