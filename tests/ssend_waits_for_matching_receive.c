/* ssend_waits_for_matching_receive: MPI_Ssend (small and large) and MPI_Issend complete only
 * after the receiver has started the matching receive, here posted 200 ms late. */
/* ranks: 2 4 64 */
#include <time.h>
#include "check.h"

#define DELAY_S 0.2
#define MIN_S 0.15 /* generous margin below DELAY_S for timer granularity and scheduling */

/* All ranks of a node share one process, so CLOCK_MONOTONIC readings are comparable
 * between ranks: the receiver reports when it started the receive. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

/* Both partners leave this within a short time of each other. */
static void handshake(int partner)
{
	int a = 0, b = 0;
	CHECK_MPI(MPI_Sendrecv(&a, 1, MPI_INT, partner, 1000, &b, 1, MPI_INT, partner, 1000,
			       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
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

	for (int s = 0; s < 3; s++) {
		int len = sizes[s % 2];
		char *buf = malloc(len);
		double posted = 0, done = 0, tested = 0;
		int first_flag = 0;
		memset(buf, sender ? 'S' : 0, len);
		handshake(partner);
		if (sender) {
			double t0 = now();
			if (s < 2) {
				CHECK_MPI(MPI_Ssend(buf, len, MPI_CHAR, partner, s, MPI_COMM_WORLD));
			} else {
				/* Issend: Test keeps saying "not done" until the receiver posts. */
				MPI_Request req;
				int flag = 1;
				CHECK_MPI(MPI_Issend(buf, len, MPI_CHAR, partner, s, MPI_COMM_WORLD, &req));
				CHECK_MPI(MPI_Test(&req, &first_flag, MPI_STATUS_IGNORE));
				tested = now();
				CHECK(first_flag || req != MPI_REQUEST_NULL);
				sleep_s(0.05);
				CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
				if (!flag)
					CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
				CHECK(req == MPI_REQUEST_NULL);
			}
			done = now();
			CHECK_MPI(MPI_Recv(&posted, 1, MPI_DOUBLE, partner, 1001, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			/* The send cannot complete before the receive was started, nor could the
			 * Issend's first MPI_Test say it had... */
			CHECK_DBL_CMP(done, >=, posted);
			if (first_flag)
				CHECK_DBL_CMP(tested, >=, posted);
			/* ...which was DELAY_S after the handshake (only if the handshake left
			 * both sides close together: skip when the sender was descheduled). */
			if (posted - t0 > MIN_S)
				CHECK_DBL_CMP(done - t0, >=, MIN_S);
		} else {
			sleep_s(DELAY_S);
			posted = now();
			CHECK_MPI(MPI_Recv(buf, len, MPI_CHAR, partner, s, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK_INT(buf[0], 'S');
			CHECK_INT(buf[len - 1], 'S');
			CHECK_MPI(MPI_Send(&posted, 1, MPI_DOUBLE, partner, 1001, MPI_COMM_WORLD));
		}
		free(buf);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
