/* nonblocking_send_modes: Isend, Issend, Ibsend and Irsend to matching Irecvs deliver the
 * right data and statuses, for a small and a large message each, in both directions. */
/* ranks: 2 4 64 */
#include "check.h"

#define SMALL 8
#define LARGE (200 * 1000)

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

	int bsize = 2 * (SMALL + LARGE) * (int)sizeof(int) + 4 * MPI_BSEND_OVERHEAD;
	void *bbuf = malloc(bsize);
	CHECK_MPI(MPI_Buffer_attach(bbuf, bsize));

	const int lens[2] = { SMALL, LARGE };
	int *out[8], *in[8];
	MPI_Request sreq[8], rreq[8];
	MPI_Status st[8];

	/* Post all 8 receives first (so Irsend is legal), then tell the partner. */
	for (int i = 0; i < 8; i++) {
		int len = lens[i % 2];
		in[i] = calloc(len, sizeof(int));
		out[i] = malloc(len * sizeof(int));
		for (int j = 0; j < len; j++)
			out[i][j] = rank * 1000003 + i * 7919 + j;
		CHECK_MPI(MPI_Irecv(in[i], len, MPI_INT, partner, i, MPI_COMM_WORLD, &rreq[i]));
	}
	int ready = 1, peer_ready = 0;
	CHECK_MPI(MPI_Sendrecv(&ready, 1, MPI_INT, partner, 99, &peer_ready, 1, MPI_INT, partner,
			       99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_INT(peer_ready, 1);

	for (int i = 0; i < 8; i++) {
		int len = lens[i % 2];
		switch (i / 2) {
		case 0: CHECK_MPI(MPI_Isend(out[i], len, MPI_INT, partner, i, MPI_COMM_WORLD, &sreq[i])); break;
		case 1: CHECK_MPI(MPI_Issend(out[i], len, MPI_INT, partner, i, MPI_COMM_WORLD, &sreq[i])); break;
		case 2: CHECK_MPI(MPI_Ibsend(out[i], len, MPI_INT, partner, i, MPI_COMM_WORLD, &sreq[i])); break;
		case 3: CHECK_MPI(MPI_Irsend(out[i], len, MPI_INT, partner, i, MPI_COMM_WORLD, &sreq[i])); break;
		}
		CHECK(sreq[i] != MPI_REQUEST_NULL);
	}
	CHECK_MPI(MPI_Waitall(8, rreq, st));
	CHECK_MPI(MPI_Waitall(8, sreq, MPI_STATUSES_IGNORE));
	for (int i = 0; i < 8; i++) {
		int len = lens[i % 2], count = -1;
		CHECK(rreq[i] == MPI_REQUEST_NULL);
		CHECK(sreq[i] == MPI_REQUEST_NULL);
		CHECK_INT(st[i].MPI_SOURCE, partner);
		CHECK_INT(st[i].MPI_TAG, i);
		CHECK_MPI(MPI_Get_count(&st[i], MPI_INT, &count));
		CHECK_INT(count, len);
		for (int j = 0; j < len; j++)
			CHECK_INT(in[i][j], partner * 1000003 + i * 7919 + j);
		free(in[i]);
		free(out[i]);
	}
	void *got;
	int got_size;
	CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
	free(bbuf);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
