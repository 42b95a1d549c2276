/* sleeping_receiver_wakes_for_every_send: sends timed around the end of the receiver's
 * 200 µs spin all wake it (catches a missing wake-up; the fence race is too narrow to hit). */
/* ranks: 2 */
/* timeout: 60 */
#include "check.h"

#define ROUNDS 3000

static void busy_wait_us(double us)
{
	double end = MPI_Wtime() + us * 1e-6;
	while (MPI_Wtime() < end)
		;
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 0; i < ROUNDS; i++) {
		int v = i, got = -1;
		if (rank == 0) {
			/* 170-239 µs after the receiver started waiting: around its 200 µs spin. */
			busy_wait_us(170 + i % 70);
			CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		} else {
			CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CHECK_INT(got, i);
			CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
		}
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
