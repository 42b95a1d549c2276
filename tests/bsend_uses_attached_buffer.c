/* bsend_uses_attached_buffer: MPI_Bsend/Ibsend copy into the attached buffer and complete
 * before any receive is posted (the receiver posts none until the sender says its sends
 * completed); Buffer_detach returns the buffer and its size; a Bsend that does not fit (or
 * with no buffer) fails with MPI_ERR_BUFFER under MPI_ERRORS_RETURN. */
/* ranks: 2 4 64 */
#include "check.h"

#define BIG (256 * 1024)
#define TAG_SENT 99  /* sender to receiver: every buffered send has completed */

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
	int sender = rank < partner;
	char *big = malloc(BIG);

	if (sender) {
		int bufsize = 2 * (BIG + MPI_BSEND_OVERHEAD) + 4 * (64 + MPI_BSEND_OVERHEAD);
		char *attach = malloc(bufsize);
		CHECK_MPI(MPI_Buffer_attach(attach, bufsize));

		/* The receiver posts no receive before TAG_SENT: buffered sends complete
		 * without one (a send that waited for its receive would never complete). */
		for (int i = 0; i < 2; i++) {
			memset(big, 'a' + i, BIG);
			CHECK_MPI(MPI_Bsend(big, BIG, MPI_CHAR, partner, i, MPI_COMM_WORLD));
		}
		memset(big, 0, BIG); /* the buffered copies must not depend on our buffer */
		int small[4][16];
		MPI_Request reqs[4];
		for (int i = 0; i < 4; i++) {
			for (int j = 0; j < 16; j++)
				small[i][j] = i * 100 + j;
			CHECK_MPI(MPI_Ibsend(small[i], 16, MPI_INT, partner, 10 + i, MPI_COMM_WORLD,
					     &reqs[i]));
		}
		CHECK_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
		memset(small, 0, sizeof small);
		CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, partner, TAG_SENT, MPI_COMM_WORLD));

		/* Detach waits until buffered messages are gone, then hands the buffer back. */
		CHECK_DETACH(attach, bufsize);

		/* Errors are returned, not fatal, from here on. */
		CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
		int rc = MPI_Bsend(big, 16, MPI_CHAR, partner, 20, MPI_COMM_WORLD);
		CHECK_CLASS(rc, MPI_ERR_BUFFER); /* no buffer attached */

		int tiny = 100 + MPI_BSEND_OVERHEAD;
		CHECK_MPI(MPI_Buffer_attach(attach, tiny));
		rc = MPI_Bsend(big, 1000, MPI_CHAR, partner, 21, MPI_COMM_WORLD);
		CHECK_CLASS(rc, MPI_ERR_BUFFER); /* does not fit */
		/* A message that fits still goes through afterwards. */
		CHECK_MPI(MPI_Bsend(big, 50, MPI_CHAR, partner, 22, MPI_COMM_WORLD));
		CHECK_DETACH(attach, tiny);
		free(attach);
	} else {
		CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, partner, TAG_SENT, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		for (int i = 0; i < 2; i++) {
			CHECK_MPI(MPI_Recv(big, BIG, MPI_CHAR, partner, i, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK_INT(big[0], 'a' + i);
			CHECK_INT(big[BIG - 1], 'a' + i);
		}
		for (int i = 0; i < 4; i++) {
			int small[16];
			CHECK_MPI(MPI_Recv(small, 16, MPI_INT, partner, 10 + i, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			for (int j = 0; j < 16; j++)
				CHECK_INT(small[j], i * 100 + j);
		}
		MPI_Status st;
		int count = -1;
		CHECK_MPI(MPI_Recv(big, BIG, MPI_CHAR, partner, 22, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_CHAR, &count));
		CHECK_INT(count, 50);
	}
	free(big);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
