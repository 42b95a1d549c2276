/* coll_small_reductions_bitwise_equal_rank_order_fold: small blocking Reduce and Allreduce of doubles give, on every rank, exactly the left-to-right rank-order sum, also with the root running behind */
/* ranks: 1 2 3 4 7 64 128 */
/* Inputs whose sum depends on the order of the additions (huge and tiny magnitudes mixed),
 * for counts from 1 to 1500 doubles (across the ring's limit, so ring and meeting rounds
 * interleave), by Allreduce (MPI_IN_PLACE on odd rounds), Reduce to a rotating root (whose
 * type is strided on even ranks) and Reduce with MPI_MAX; 150 rounds, more than any
 * ring holds, with the root of the first rounds sleeping so that the others run ahead.
 * Each rank recomputes the expected result sequentially and compares bitwise. */
#include <time.h>
#include "check.h"

#define ROUNDS 150
#define MAXN 1500

static double input(int round, int rank, int i)
{
	double big = (rank + i + round) % 3 == 0 ? 1e16 : 1.0;
	return ((rank * 7 + i + round) % 2 ? -big : big) * (1.0 + (rank % 5) * 0.1);
}

static void expect(double *out, int round, int size, int n, MPI_Op op)
{
	for (int i = 0; i < n; i++) {
		double acc = input(round, 0, i);
		for (int r = 1; r < size; r++) {
			double x = input(round, r, i);
			acc = op == MPI_SUM ? acc + x : (x > acc ? x : acc);
		}
		out[i] = acc;
	}
}

int main(int argc, char **argv)
{
	int rank, size;
	static double in[MAXN], out[2 * MAXN], want[MAXN];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	for (int k = 0; k < ROUNDS; k++) {
		int n = 1 + (k * 53) % MAXN, root = (k / 4) % size, kind = k % 3;
		MPI_Op op = kind == 2 ? MPI_MAX : MPI_SUM;
		if (k % 7 == 0)
			n = 1 + k % 4;
		if (k < 20 && rank == root && size > 1 && kind != 0) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);  /* the others run ahead through the ring */
		}
		for (int i = 0; i < n; i++)
			in[i] = input(k, rank, i);
		memset(out, 0, sizeof(out));
		if (kind == 0 || rank == root)
			expect(want, k, size, n, op);
		if (kind == 0) {
			if (k % 2) {
				memcpy(out, in, (size_t)n * sizeof(double));
				CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, out, n, MPI_DOUBLE, op,
							MPI_COMM_WORLD));
			} else {
				CHECK_MPI(MPI_Allreduce(in, out, n, MPI_DOUBLE, op, MPI_COMM_WORLD));
			}
			CHECK(memcmp(out, want, (size_t)n * sizeof(double)) == 0);
			continue;
		}
		if (rank == root && rank % 2 == 0) {
			MPI_Datatype t;
			CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &t));
			CHECK_MPI(MPI_Type_commit(&t));
			/* One strided element holds n doubles: the others' signature. */
			static double sin[2 * MAXN];
			for (int i = 0; i < n; i++)
				sin[2 * i] = in[i];
			CHECK_MPI(MPI_Reduce(sin, out, 1, t, op, root, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Type_free(&t));
			for (int i = 0; i < n; i++) {
				if (memcmp(&out[2 * i], &want[i], sizeof(double)) != 0)
					fprintf(stderr, "round %d [%d]: %.17g != %.17g\n", k, i,
						out[2 * i], want[i]);
				CHECK(memcmp(&out[2 * i], &want[i], sizeof(double)) == 0);
				CHECK(out[2 * i + 1] == 0.0);
			}
		} else {
			CHECK_MPI(MPI_Reduce(in, out, n, MPI_DOUBLE, op, root, MPI_COMM_WORLD));
			if (rank == root)
				CHECK(memcmp(out, want, (size_t)n * sizeof(double)) == 0);
		}
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
