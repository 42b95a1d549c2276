/* rsend_to_posted_receive: MPI_Rsend and MPI_Irsend deliver when the receive is already
 * posted (the receiver posts, then tells the sender it is ready). */
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

	static const int lens[] = { 1, 1000, 300000 };
	for (int k = 0; k < 3; k++) {
		int len = lens[k], ready = 0;
		int *buf = malloc(len * sizeof(int));
		if (rank < partner) {
			for (int i = 0; i < len; i++)
				buf[i] = i ^ k;
			CHECK_MPI(MPI_Recv(&ready, 1, MPI_INT, partner, 100 + k, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK_INT(ready, 1);
			if (k % 2 == 0) {
				CHECK_MPI(MPI_Rsend(buf, len, MPI_INT, partner, k, MPI_COMM_WORLD));
			} else {
				MPI_Request r;
				CHECK_MPI(MPI_Irsend(buf, len, MPI_INT, partner, k, MPI_COMM_WORLD, &r));
				CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
			}
		} else {
			MPI_Request r;
			MPI_Status st;
			int count = -1;
			memset(buf, 0, len * sizeof(int));
			CHECK_MPI(MPI_Irecv(buf, len, MPI_INT, partner, k, MPI_COMM_WORLD, &r));
			ready = 1;
			CHECK_MPI(MPI_Send(&ready, 1, MPI_INT, partner, 100 + k, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Wait(&r, &st));
			CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
			CHECK_INT(count, len);
			for (int i = 0; i < len; i++)
				CHECK_INT(buf[i], i ^ k);
		}
		free(buf);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
