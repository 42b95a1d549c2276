/* halo: the inner loop of a stencil solver such as HPCG, on a ring of ranks. Each iteration
 * exchanges a halo of -m..-M bytes with both neighbours (MPI_Irecv, MPI_Isend, MPI_Waitall),
 * computes on a local grid of -s bytes (a sweep that reads and writes every element, about
 * 10 µs at the default 64 KiB) and ends with an MPI_Allreduce of one double, the solver's
 * dot product. Prints the mean time of an iteration in µs for each halo size.
 * Runs on rank threads of any MPI, at any rank count of 2 or more.
 * Prints: RESULT halo <bytes> <us> us */
#include "bench.h"

#define HALO_TAG_LEFT 11
#define HALO_TAG_RIGHT 12

static double sweep(double *grid, long n)
{
	double sum = 0;

	for (long i = 1; i + 1 < n; i++) {
		grid[i] = 0.25 * (grid[i - 1] + 2 * grid[i] + grid[i + 1]);
		sum += grid[i];
	}
	return sum;
}

int main(int argc, char **argv)
{
	struct bench_opts o = { .min_size = 8, .max_size = 65536, .iters = 2000,
				.iters_large = 500, .size = 65536 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank(), n = bench_size();
	if (bench_parse(argc, argv, &o) != 0 || n < 2) {
		if (rank == 0 && n < 2)
			fprintf(stderr, "halo: needs 2 ranks\n");
		MPI_Finalize();
		return 2;
	}
	int left = (rank + n - 1) % n, right = (rank + 1) % n;
	long cells = o.size / (long)sizeof(double) > 2 ? o.size / (long)sizeof(double) : 3;
	double *grid = (double *)bench_alloc(cells * (long)sizeof(double));
	char *out_l = bench_alloc(o.max_size), *out_r = bench_alloc(o.max_size);
	char *in_l = bench_alloc(o.max_size), *in_r = bench_alloc(o.max_size);

	for (long i = 0; i < cells; i++)
		grid[i] = (double)(i % 17);
	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		long iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);
		double t0 = 0, dot = 0;

		bench_sync();
		for (long k = -warm; k < iters; k++) {
			MPI_Request rq[4];
			double local, global;

			if (k == 0)
				t0 = MPI_Wtime();
			MPI_Irecv(in_l, (int)size, MPI_BYTE, left, HALO_TAG_RIGHT, MPI_COMM_WORLD, &rq[0]);
			MPI_Irecv(in_r, (int)size, MPI_BYTE, right, HALO_TAG_LEFT, MPI_COMM_WORLD, &rq[1]);
			MPI_Isend(out_l, (int)size, MPI_BYTE, left, HALO_TAG_LEFT, MPI_COMM_WORLD, &rq[2]);
			MPI_Isend(out_r, (int)size, MPI_BYTE, right, HALO_TAG_RIGHT, MPI_COMM_WORLD, &rq[3]);
			MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
			local = sweep(grid, cells);
			MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			dot += global;
		}
		if (rank == 0)
			bench_result("halo", size, (MPI_Wtime() - t0) * 1e6 / (double)iters, "us");
		if (dot != dot)  /* keeps the sweep's work observable */
			fprintf(stderr, "halo: not a number\n");
	}
	free(grid);
	free(out_l);
	free(out_r);
	free(in_l);
	free(in_r);
	MPI_Finalize();
	return 0;
}
