/* ssend_waits_for_matching_receive: MPI_Ssend (small and large) and MPI_Issend complete only
 * after the receiver has started the matching receive, here posted 200 ms late. */
/* ranks: 2 4 64 */
#include <time.h>
#include "check.h"

#define DELAY_S 0.2
#define MIN_S 0.15 /* generous margin below DELAY_S for timer granularity */

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 4, 4 * 1024 * 1024 };
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

	for (int s = 0; s < 2; s++) {
		int len = sizes[s];
		char *buf = malloc(len);
		memset(buf, sender ? 'S' : 0, len);
		if (sender) {
			double t0 = MPI_Wtime();
			CHECK_MPI(MPI_Ssend(buf, len, MPI_CHAR, partner, s, MPI_COMM_WORLD));
			CHECK_DBL_CMP(MPI_Wtime() - t0, >=, MIN_S);
		} else {
			sleep_s(DELAY_S);
			CHECK_MPI(MPI_Recv(buf, len, MPI_CHAR, partner, s, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK_INT(buf[0], 'S');
			CHECK_INT(buf[len - 1], 'S');
		}
		free(buf);
	}

	/* Issend: Test keeps saying "not done" until the receiver posts, then Wait completes. */
	int value = 42, got = 0;
	if (sender) {
		MPI_Request req;
		int flag = 1;
		double t0 = MPI_Wtime();
		CHECK_MPI(MPI_Issend(&value, 1, MPI_INT, partner, 9, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
		CHECK_INT(flag, 0);
		CHECK(req != MPI_REQUEST_NULL);
		sleep_s(0.05);
		CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
		CHECK_INT(flag, 0);
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		CHECK_DBL_CMP(MPI_Wtime() - t0, >=, MIN_S);
		CHECK(req == MPI_REQUEST_NULL);
	} else {
		sleep_s(DELAY_S);
		CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, partner, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(got, 42);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
