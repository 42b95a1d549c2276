/* fibers_polling_ranks_do_not_starve_others: a rank switched in user space keeps its carrier
 * until it waits, so ranks that poll instead of waiting must not starve the others: ranks
 * polling with MPI_Test / MPI_Iprobe loops complete a ring and a fan-out, and ranks that
 * busy-wait on something outside MPI (a file another rank writes after an MPI message)
 * still let that rank run, within the test's timeout. */
/* ranks: 4 16 64 */
/* serial: up to 64 ranks poll without ever waiting and take the cores from tests beside them */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

/* Hops of the token around the ring, in all: RING_HOPS / size rounds (at least
 * RING_ROUNDS_MIN), so that the work stays the same at every size. Without user-space
 * switching (no FSGSBASE) every hop waits for the scheduler to run the next of `size`
 * polling threads. */
#define RING_HOPS 1200
#define RING_ROUNDS_MIN 10

static void test_until_done(MPI_Request *q)
{
	int done = 0;

	while (!done)
		CHECK_MPI(MPI_Test(q, &done, MPI_STATUS_IGNORE));
}

/* Whether the file at `path` holds "ready". */
static int file_ready(const char *path)
{
	char buf[8] = "";
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return 0;
	size_t n = fread(buf, 1, 5, f);
	fclose(f);
	return n == 5 && memcmp(buf, "ready", 5) == 0;
}

int main(int argc, char **argv)
{
	int rank, size, flag = 0, v = -1;
	char path[64];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* Fan-out: every rank polls MPI_Iprobe until rank 0 (which first computes for
	 * 20 ms without any MPI call) sends to it. */
	if (rank == 0) {
		struct timespec t0, t;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while ((t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) / 1e6 < 20);
		for (int p = 1; p < size; p++)
			CHECK_MPI(MPI_Send(&p, 1, MPI_INT, p, 1, MPI_COMM_WORLD));
	} else {
		while (!flag)
			CHECK_MPI(MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(v, rank);
	}

	/* Ring passed with nonblocking calls completed by MPI_Test loops. */
	int rounds = RING_HOPS / size > RING_ROUNDS_MIN ? RING_HOPS / size : RING_ROUNDS_MIN;
	for (int i = 0; i < rounds; i++) {
		MPI_Request s, r;
		int got = -1;

		CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 2, MPI_COMM_WORLD,
				    &r));
		CHECK_MPI(MPI_Isend(&i, 1, MPI_INT, (rank + 1) % size, 2, MPI_COMM_WORLD, &s));
		test_until_done(&r);
		test_until_done(&s);
		CHECK_INT(got, i);
	}

	/* Every rank but 1 and 2 busy-waits, with no MPI call, on a file that rank 1 writes
	 * once rank 2's message reaches it. */
	snprintf(path, sizeof(path), "/tmp/shoal-fibers-poll-%d", (int)getpid());
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 1) {
		FILE *f;

		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(v, 2);
		f = fopen(path, "w");
		CHECK(f != NULL);
		fputs("ready", f);
		CHECK_INT(fclose(f), 0);
	} else if (rank == 2) {
		CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
	} else {
		while (!file_ready(path))
			;
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		unlink(path);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
