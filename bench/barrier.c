/* barrier: OSU-style MPI_Barrier latency, averaged over ranks; the x is the rank count.
 * Runs on rank threads of any MPI. Prints: RESULT barrier <ranks> <us> us */
#include "bench.h"

int main(int argc, char **argv)
{
	struct bench_opts o = { .iters = 1000 };

	MPI_Init(&argc, &argv);
	if (bench_parse(argc, argv, &o) != 0) {
		MPI_Finalize();
		return 2;
	}
	long warm = bench_warmup_for(o.iters);
	double t0 = 0;

	bench_sync();
	for (long k = -warm; k < o.iters; k++) {
		if (k == 0)
			t0 = MPI_Wtime();
		MPI_Barrier(MPI_COMM_WORLD);
	}
	double sum = bench_sum_to_root((MPI_Wtime() - t0) * 1e6 / (double)o.iters);
	if (bench_rank() == 0)
		bench_result("barrier", bench_size(), sum / bench_size(), "us");
	MPI_Finalize();
	return 0;
}
