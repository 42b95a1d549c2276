/* persistent_requests_reused: Send_init/Ssend_init/Bsend_init/Rsend_init/Recv_init requests
 * started many times with Start/Startall carry fresh data each time, stay allocated after
 * completion, and an inactive one completes at once with an empty status. */
/* ranks: 2 4 64 */
#include "check.h"

#define ROUNDS 200
#define LEN 64

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

	int bsize = 4 * (LEN * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
	void *bbuf = malloc(bsize);
	CHECK_MPI(MPI_Buffer_attach(bbuf, bsize));

	int out[4][LEN], in[4][LEN], go = 0;
	MPI_Request send[4], recv[4];
	CHECK_MPI(MPI_Send_init(out[0], LEN, MPI_INT, partner, 0, MPI_COMM_WORLD, &send[0]));
	CHECK_MPI(MPI_Ssend_init(out[1], LEN, MPI_INT, partner, 1, MPI_COMM_WORLD, &send[1]));
	CHECK_MPI(MPI_Bsend_init(out[2], LEN, MPI_INT, partner, 2, MPI_COMM_WORLD, &send[2]));
	CHECK_MPI(MPI_Rsend_init(out[3], LEN, MPI_INT, partner, 3, MPI_COMM_WORLD, &send[3]));
	for (int k = 0; k < 4; k++)
		CHECK_MPI(MPI_Recv_init(in[k], LEN, MPI_INT, partner, k, MPI_COMM_WORLD, &recv[k]));

	/* An inactive persistent request completes at once with an empty status. */
	MPI_Status st;
	int flag = 0;
	st.MPI_SOURCE = 12345;
	CHECK_MPI(MPI_Wait(&recv[0], &st));
	CHECK(recv[0] != MPI_REQUEST_NULL);
	CHECK_INT(st.MPI_SOURCE, MPI_ANY_SOURCE);
	CHECK_INT(st.MPI_TAG, MPI_ANY_TAG);
	CHECK_MPI(MPI_Test(&recv[0], &flag, MPI_STATUS_IGNORE));
	CHECK_INT(flag, 1);

	for (int round = 0; round < ROUNDS; round++) {
		for (int k = 0; k < 4; k++)
			for (int j = 0; j < LEN; j++) {
				out[k][j] = rank * 100000 + round * 100 + k * 10 + j % 10;
				in[k][j] = -1;
			}
		/* Receives first; the Rsend may only start once the partner's are posted. */
		if (round % 2)
			CHECK_MPI(MPI_Startall(4, recv));
		else
			for (int k = 0; k < 4; k++)
				CHECK_MPI(MPI_Start(&recv[k]));
		CHECK_MPI(MPI_Sendrecv(&round, 1, MPI_INT, partner, 50, &go, 1, MPI_INT, partner,
				       50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(go, round);
		if (round % 2)
			for (int k = 0; k < 4; k++)
				CHECK_MPI(MPI_Start(&send[k]));
		else
			CHECK_MPI(MPI_Startall(4, send));

		MPI_Status sts[4];
		CHECK_MPI(MPI_Waitall(4, recv, sts));
		CHECK_MPI(MPI_Waitall(4, send, MPI_STATUSES_IGNORE));
		for (int k = 0; k < 4; k++) {
			CHECK(recv[k] != MPI_REQUEST_NULL);
			CHECK(send[k] != MPI_REQUEST_NULL);
			CHECK_INT(sts[k].MPI_SOURCE, partner);
			CHECK_INT(sts[k].MPI_TAG, k);
			for (int j = 0; j < LEN; j++)
				CHECK_INT(in[k][j], partner * 100000 + round * 100 + k * 10 + j % 10);
		}
	}
	for (int k = 0; k < 4; k++) {
		CHECK_MPI(MPI_Request_free(&send[k]));
		CHECK_MPI(MPI_Request_free(&recv[k]));
		CHECK(send[k] == MPI_REQUEST_NULL);
		CHECK(recv[k] == MPI_REQUEST_NULL);
	}
	void *got;
	int got_size;
	CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
	free(bbuf);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
