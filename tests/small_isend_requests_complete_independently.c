/* small_isend_requests_complete_independently: requests of small nonblocking sends (which
 * complete at once and may share storage) behave as distinct requests: each can be freed,
 * cancelled (too late: not cancelled), tested and waited for in any order and becomes
 * MPI_REQUEST_NULL alone, while the messages all arrive. */
/* ranks: 2 4 */
#include "check.h"

#define N 12

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		int vals[N];
		MPI_Request reqs[N];
		MPI_Status st;
		int flag = 0, index = -1, outcount = 0, indices[N];
		for (int i = 0; i < N; i++) {
			vals[i] = 100 + i;
			CHECK_MPI(MPI_Isend(&vals[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD, &reqs[i]));
		}
		CHECK_MPI(MPI_Request_free(&reqs[0]));
		CHECK(reqs[0] == MPI_REQUEST_NULL);
		CHECK_MPI(MPI_Cancel(&reqs[1]));
		CHECK_MPI(MPI_Wait(&reqs[1], &st));
		CHECK_MPI(MPI_Test_cancelled(&st, &flag));
		CHECK_INT(flag, 0);
		CHECK(reqs[1] == MPI_REQUEST_NULL);
		CHECK(reqs[2] != MPI_REQUEST_NULL);
		CHECK_MPI(MPI_Request_get_status(reqs[2], &flag, MPI_STATUS_IGNORE));
		CHECK_INT(flag, 1);
		CHECK(reqs[2] != MPI_REQUEST_NULL);
		CHECK_MPI(MPI_Test(&reqs[2], &flag, MPI_STATUS_IGNORE));
		CHECK_INT(flag, 1);
		CHECK(reqs[2] == MPI_REQUEST_NULL);
		CHECK_MPI(MPI_Waitany(N, reqs, &index, MPI_STATUS_IGNORE));
		CHECK_INT(index, 3);
		CHECK(reqs[4] != MPI_REQUEST_NULL);
		CHECK_MPI(MPI_Waitsome(N, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
		CHECK_INT(outcount, N - 4);
		for (int i = 0; i < N; i++)
			CHECK(reqs[i] == MPI_REQUEST_NULL);
	} else if (rank == 1) {
		for (int i = 0; i < N; i++) {
			int v = -1;
			CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CHECK_INT(v, 100 + i);
		}
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
