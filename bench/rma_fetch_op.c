/* rma_fetch_op: every rank adds 1 to one int64 counter at displacement 0 of rank 0 with
 * MPI_Fetch_and_op(MPI_SUM) followed by MPI_Win_flush(0), all inside one MPI_Win_lock_all
 * epoch. Untimed operations first until 20 ms have passed (bench_settle), then at least -i
 * per rank and at least 20 ms at the warm-up's pace, every rank the same count; the rate is
 * the operations of all ranks over the time from a barrier before the loop to a barrier
 * after it (the slowest rank's), in operations per second. The time ends at a barrier
 * because ranks that outnumber the cores may run their loops one after another, and each
 * loop's own length would then miss the others'. The counter must end at the number of
 * operations; if not, the program says so and exits 1.
 * Runs on rank threads of any MPI, any rank count.
 * Prints: RESULT rma_fetch_op <ranks> <op/s> op/s */
#include "rma.h"

#include <stdint.h>

struct counter {
	MPI_Win win;
	long done;        /* operations this rank has issued */
};

static void one_add(const void *arg)
{
	struct counter *c = (struct counter *)arg;
	int64_t one = 1, old;

	MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 0, MPI_SUM, c->win);
	MPI_Win_flush(0, c->win);
	c->done++;
}

int main(int argc, char **argv)
{
	struct bench_opts o = { .iters = 1000 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank(), n = bench_size();
	if (bench_parse(argc, argv, &o) != 0) {
		MPI_Finalize();
		return 2;
	}
	char *base;
	struct counter c = { .win = rma_window(sizeof(int64_t), &base) };

	bench_sync();
	MPI_Win_lock_all(0, c.win);
	long ops = bench_settle(one_add, &c, o.iters);
	bench_sync();
	double t0 = MPI_Wtime();
	for (long k = 0; k < ops; k++)
		one_add(&c);
	bench_sync();
	double t = bench_max_all(MPI_Wtime() - t0);
	MPI_Win_unlock_all(c.win);

	/* Every rank's count adds up to what the counter must hold. */
	double expect = bench_sum_to_root((double)c.done);
	bench_sync();
	int status = 0;
	if (rank == 0) {
		int64_t got;
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, c.win);
		MPI_Get(&got, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, c.win);
		MPI_Win_unlock(0, c.win);
		if ((double)got != expect) {
			fprintf(stderr, "rma_fetch_op: counter is %lld, expected %.0f\n",
				(long long)got, expect);
			status = 1;
		}
		bench_result("rma_fetch_op", n, (double)n * (double)ops / t, "op/s");
	}
	bench_sync();
	MPI_Win_free(&c.win);
	MPI_Finalize();
	return status;
}
