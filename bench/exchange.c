/* exchange: all-pairs exchange: in each round every rank posts a receive from and a send to
 * every other rank (-s bytes each, Irecv/Isend then one Waitall). Made for far more ranks
 * than cores. Untimed rounds first, then at least -n timed rounds; reports the mean time
 * of a timed round in ms, from a barrier before the first to a barrier after the last.
 * Runs on rank threads of any MPI. Prints: RESULT exchange <ranks> <ms/round> ms/round */
#include "bench.h"

/* Why bench_settle, here: Open MPI at 32 ranks took 5.3 ms for the first round, 1.0 and 0.7
 * for the next two, ~0.21 from about the fifteenth on (Shoal: 0.19 ms, then ~0.05 from
 * about the thirtieth); and at 0.05 ms a round, 10 timed rounds were a 0.5 ms window that
 * one slow first round or one preemption moved by half. */

struct exchange {
	int rank, n;
	int size;             /* bytes per message */
	long stride;          /* bytes between the buffers of two peers (at least 1) */
	char *sbuf, *rbuf;
	MPI_Request *req;
};

static void one_round(const void *arg)
{
	const struct exchange *x = arg;
	int nreq = 0;

	/* Start with the next rank up, so not everyone sends to rank 0 first. */
	for (int d = 1; d < x->n; d++) {
		int from = (x->rank - d + x->n) % x->n;
		MPI_Irecv(x->rbuf + x->stride * from, x->size, MPI_BYTE, from, BENCH_TAG_DATA,
			  MPI_COMM_WORLD, &x->req[nreq++]);
	}
	for (int d = 1; d < x->n; d++) {
		int to = (x->rank + d) % x->n;
		MPI_Isend(x->sbuf + x->stride * to, x->size, MPI_BYTE, to, BENCH_TAG_DATA,
			  MPI_COMM_WORLD, &x->req[nreq++]);
	}
	MPI_Waitall(nreq, x->req, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
	struct bench_opts o = { .size = 8, .count = 10 };

	MPI_Init(&argc, &argv);
	struct exchange x = { .rank = bench_rank(), .n = bench_size() };
	if (bench_parse(argc, argv, &o) != 0 || o.count < 1) {
		MPI_Finalize();
		return 2;
	}
	x.size = (int)o.size;
	x.stride = o.size > 0 ? o.size : 1;
	x.sbuf = bench_alloc(x.stride * x.n);
	x.rbuf = bench_alloc(x.stride * x.n);
	x.req = malloc(sizeof(*x.req) * 2 * (size_t)x.n);

	bench_sync();
	long rounds = bench_settle(one_round, &x, o.count);
	bench_sync();
	double t0 = MPI_Wtime();
	for (long round = 0; round < rounds; round++)
		one_round(&x);
	bench_sync();
	if (x.rank == 0)
		bench_result("exchange", x.n, (MPI_Wtime() - t0) * 1e3 / (double)rounds,
			     "ms/round");
	free(x.req);
	free(x.sbuf);
	free(x.rbuf);
	MPI_Finalize();
	return 0;
}
