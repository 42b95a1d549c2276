/* dtype.h: what the derived-datatype benchmarks share: the two layouts they send (a block
 * of columns of a 1024x1024 double matrix, and an array of particle structs) and the
 * OSU-style ping-pong and windowed-bandwidth loops run with a datatype on both sides.
 * Entered by each rank's main thread only; standard MPI only. Include after "bench.h". */
#ifndef SHOAL_BENCH_DTYPE_H
#define SHOAL_BENCH_DTYPE_H

#include <stddef.h>

/* The matrix is row-major 1024 x 1024 doubles (8 MiB); x bytes are min(x/8, 1024) rows of
 * x/8/rows adjacent columns: a single column up to 8 KiB, a column block above. */
#define DT_N 1024L

/* A particle: 4 + 24 + 4 bytes of data in a 40-byte extent (padding after id and at the end). */
struct dt_particle {
	int id;
	double pos[3];
	float charge;
};

/* The datatype and count that carry `bytes` bytes of layout `kind` ('v' or 's'), and the
 * buffer bytes they span. */
static inline void dt_make(int kind, long bytes, MPI_Datatype *t, int *count, long *span)
{
	if (kind == 'v') {
		long rows = bytes / 8 < DT_N ? bytes / 8 : DT_N, cols = bytes / 8 / (rows ? rows : 1);
		MPI_Type_vector((int)rows, (int)cols, (int)DT_N, MPI_DOUBLE, t);
		*count = 1;
		*span = DT_N * DT_N * 8;
	} else {
		int bl[3] = { 1, 3, 1 };
		MPI_Aint dp[3] = { offsetof(struct dt_particle, id), offsetof(struct dt_particle, pos),
				   offsetof(struct dt_particle, charge) };
		MPI_Datatype ty[3] = { MPI_INT, MPI_DOUBLE, MPI_FLOAT }, s;
		MPI_Type_create_struct(3, bl, dp, ty, &s);
		MPI_Type_create_resized(s, 0, sizeof(struct dt_particle), t);
		MPI_Type_free(&s);
		*count = (int)(bytes / 32);
		*span = (long)*count * (long)sizeof(struct dt_particle);
	}
	MPI_Type_commit(t);
}

/* Ping-pong between ranks 0 and 1 with the layout on both sides; prints the one-way
 * latency in µs. Sizes: powers of two from -m (at least the layout's unit) to -M. */
static inline int dt_latency(int argc, char **argv, const char *name, int kind)
{
	long unit = kind == 'v' ? 8 : 32;
	struct bench_opts o = { .min_size = unit, .max_size = 1L << 20, .iters = 1000,
				.iters_large = 100 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank();
	if (bench_parse(argc, argv, &o) != 0 || bench_size() < 2) {
		MPI_Finalize();
		return 2;
	}
	if (o.min_size < unit)
		o.min_size = unit;
	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		MPI_Datatype t;
		int count;
		long span, iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);
		double t0 = 0;

		dt_make(kind, size, &t, &count, &span);
		char *sbuf = bench_alloc(span), *rbuf = bench_alloc(span);
		bench_sync();
		for (long k = -warm; k < iters && rank < 2; k++) {
			if (k == 0)
				t0 = MPI_Wtime();
			if (rank == 0) {
				MPI_Send(sbuf, count, t, 1, BENCH_TAG_DATA, MPI_COMM_WORLD);
				MPI_Recv(rbuf, count, t, 1, BENCH_TAG_DATA, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(rbuf, count, t, 0, BENCH_TAG_DATA, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				MPI_Send(sbuf, count, t, 0, BENCH_TAG_DATA, MPI_COMM_WORLD);
			}
		}
		if (rank == 0)
			bench_result(name, size, (MPI_Wtime() - t0) * 1e6 / (2.0 * iters), "us");
		MPI_Type_free(&t);
		free(sbuf);
		free(rbuf);
	}
	MPI_Finalize();
	return 0;
}

/* Windowed unidirectional bandwidth from rank 0 to rank 1 (as bandwidth.c), the layout on
 * both sides; MB/s of data (the type's size), MB = 10^6 bytes. */
static inline int dt_bandwidth(int argc, char **argv, const char *name, int kind)
{
	long unit = kind == 'v' ? 8 : 32;
	struct bench_opts o = { .min_size = unit, .max_size = 1L << 20, .iters = 20,
				.iters_large = 5, .window = 16 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank();
	if (bench_parse(argc, argv, &o) != 0 || bench_size() < 2 || o.window < 1) {
		MPI_Finalize();
		return 2;
	}
	if (o.min_size < unit)
		o.min_size = unit;
	MPI_Request *req = malloc(sizeof(*req) * (size_t)o.window);
	char ack[4] = { 0 };
	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		MPI_Datatype t;
		int count;
		long span, iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);
		double t0 = 0;

		dt_make(kind, size, &t, &count, &span);
		char *buf = bench_alloc(span);
		bench_sync();
		for (long k = -warm; k < iters && rank < 2; k++) {
			if (k == 0)
				t0 = MPI_Wtime();
			for (long w = 0; w < o.window; w++) {
				if (rank == 0)
					MPI_Isend(buf, count, t, 1, BENCH_TAG_DATA, MPI_COMM_WORLD,
						  &req[w]);
				else
					MPI_Irecv(buf, count, t, 0, BENCH_TAG_DATA, MPI_COMM_WORLD,
						  &req[w]);
			}
			MPI_Waitall((int)o.window, req, MPI_STATUSES_IGNORE);
			if (rank == 0)
				MPI_Recv(ack, 4, MPI_BYTE, 1, BENCH_TAG_ACK, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
			else
				MPI_Send(ack, 4, MPI_BYTE, 0, BENCH_TAG_ACK, MPI_COMM_WORLD);
		}
		if (rank == 0) {
			double dt = MPI_Wtime() - t0;
			bench_result(name, size, (double)size * o.window * iters / dt / 1e6, "MB/s");
		}
		MPI_Type_free(&t);
		free(buf);
	}
	free(req);
	MPI_Finalize();
	return 0;
}

#endif /* SHOAL_BENCH_DTYPE_H */
