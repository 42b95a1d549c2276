/* truncation_reports_err_truncate: a receive buffer too small for the message fails with
 * MPI_ERR_TRUNCATE under MPI_ERRORS_RETURN (Recv, Wait, and in Waitall as
 * MPI_ERR_IN_STATUS with the per-request MPI_ERROR set), for small and large messages. */
/* ranks: 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, partner;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	const int big = 100000;
	int *out = malloc(big * sizeof(int)), *in = malloc(big * sizeof(int));
	for (int i = 0; i < big; i++)
		out[i] = i;

	if (rank < partner) {
		/* Sends of 10 ints and of `big` ints, tags 0..3; then 2 ints + 5 ints (tag 4, 5). */
		for (int t = 0; t < 4; t++)
			CHECK_MPI(MPI_Send(out, t % 2 ? big : 10, MPI_INT, partner, t, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(out, 2, MPI_INT, partner, 4, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(out, 5, MPI_INT, partner, 5, MPI_COMM_WORLD));
		/* After the errors the pair still works. */
		CHECK_MPI(MPI_Send(out, 3, MPI_INT, partner, 6, MPI_COMM_WORLD));
	} else {
		MPI_Status st;
		int rc;
		memset(in, 0, big * sizeof(int));
		rc = MPI_Recv(in, 4, MPI_INT, partner, 0, MPI_COMM_WORLD, &st);
		CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
		CHECK_INT(in[4], 0); /* nothing is written beyond the receive buffer */

		memset(in, 0, big * sizeof(int));
		rc = MPI_Recv(in, big - 1, MPI_INT, partner, 1, MPI_COMM_WORLD, &st);
		CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
		CHECK_INT(in[big - 1], 0);

		MPI_Request r;
		CHECK_MPI(MPI_Irecv(in, 9, MPI_INT, partner, 2, MPI_COMM_WORLD, &r));
		rc = MPI_Wait(&r, &st);
		CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
		CHECK(r == MPI_REQUEST_NULL);

		CHECK_MPI(MPI_Irecv(in, 100, MPI_INT, partner, 3, MPI_COMM_WORLD, &r));
		rc = MPI_Wait(&r, &st);
		CHECK_CLASS(rc, MPI_ERR_TRUNCATE);

		/* Waitall: one fine, one truncated. */
		MPI_Request rs[2];
		MPI_Status sts[2];
		int a[2], b[4];
		CHECK_MPI(MPI_Irecv(a, 2, MPI_INT, partner, 4, MPI_COMM_WORLD, &rs[0]));
		CHECK_MPI(MPI_Irecv(b, 4, MPI_INT, partner, 5, MPI_COMM_WORLD, &rs[1]));
		sts[0].MPI_ERROR = -1;
		sts[1].MPI_ERROR = -1;
		rc = MPI_Waitall(2, rs, sts);
		CHECK_CLASS(rc, MPI_ERR_IN_STATUS);
		CHECK_INT(sts[0].MPI_ERROR, MPI_SUCCESS);
		CHECK_CLASS(sts[1].MPI_ERROR, MPI_ERR_TRUNCATE);
		CHECK_INT(a[1], 1);

		int c[3] = { 0 };
		CHECK_MPI(MPI_Recv(c, 3, MPI_INT, partner, 6, MPI_COMM_WORLD, &st));
		CHECK_INT(c[2], 2);
	}
	free(out);
	free(in);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
