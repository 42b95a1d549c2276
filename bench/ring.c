/* ring: a token of -s bytes goes around all n ranks. Untimed laps first, then at least -n
 * timed laps (n when -n is 0, the default: N*N hops), lasting at least BENCH_SETTLE_US.
 * Made for far more ranks than cores: each hop needs the one rank holding the token to
 * run. Reports µs per hop. Runs on rank threads of any MPI.
 * Prints: RESULT ring <ranks> <us/hop> us/hop */
#include "bench.h"

/* Why bench_settle, here: timed over N laps after one untimed lap, 8 ranks' 64 hops took
 * 30-260 µs, and 10 launches of one build read 0.44-4.1 µs a hop (settled: 0.15-0.22). */

struct ring {
	int rank, next, prev;
	int size;             /* bytes of the token */
	char *buf;
};

static void one_lap(const void *arg)
{
	const struct ring *g = arg;

	if (g->rank == 0) {
		MPI_Send(g->buf, g->size, MPI_BYTE, g->next, BENCH_TAG_DATA, MPI_COMM_WORLD);
		MPI_Recv(g->buf, g->size, MPI_BYTE, g->prev, BENCH_TAG_DATA, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(g->buf, g->size, MPI_BYTE, g->prev, BENCH_TAG_DATA, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Send(g->buf, g->size, MPI_BYTE, g->next, BENCH_TAG_DATA, MPI_COMM_WORLD);
	}
}

int main(int argc, char **argv)
{
	struct bench_opts o = { .size = 4, .count = 0 };

	MPI_Init(&argc, &argv);
	int n = bench_size();
	struct ring g = { .rank = bench_rank() };
	if (bench_parse(argc, argv, &o) != 0) {
		MPI_Finalize();
		return 2;
	}
	g.next = (g.rank + 1) % n;
	g.prev = (g.rank - 1 + n) % n;
	g.size = (int)o.size;
	g.buf = bench_alloc(o.size);

	bench_sync();
	long laps = bench_settle(one_lap, &g, o.count > 0 ? o.count : n);
	bench_sync();
	double t0 = MPI_Wtime();
	for (long lap = 0; lap < laps; lap++)
		one_lap(&g);
	if (g.rank == 0)
		bench_result("ring", n, (MPI_Wtime() - t0) * 1e6 / ((double)laps * n), "us/hop");
	free(g.buf);
	MPI_Finalize();
	return 0;
}
