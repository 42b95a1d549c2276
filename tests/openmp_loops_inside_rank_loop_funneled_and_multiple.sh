#!/bin/bash
# openmp_loops_inside_rank_loop_funneled_and_multiple: a LULESH-style rank loop (halo exchange, then `omp parallel for` over the rank's cells, a reduction from the master thread inside the parallel region) gives exactly the serial result under MPI_THREAD_FUNNELED, and under MPI_THREAD_MULTIPLE with every OpenMP thread exchanging its own tagged messages with both neighbours; the job exits 0 every launch, on 2, 4, 16 and 64 ranks of 2 or 3 threads.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"

build omp_loop -fopenmp <<'SRC'
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define CELLS 1000
#define STEPS 20

/* One step of the stencil on cells [1, n] with halos at 0 and n+1; unsigned arithmetic
 * wraps, so every order of evaluation gives the same bits. */
static uint64_t cell(const uint64_t *u, long i, int step)
{
	return u[i - 1] * 3 + u[i] * 7 + u[i + 1] + (uint64_t)step;
}

int main(int argc, char **argv)
{
	int multiple = argc > 1 && !strcmp(argv[1], "multiple");
	int want = multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED, got, rank, size;
	uint64_t *u, *v, *ref, *rnext, sum = 0;

	MPI_Init_thread(&argc, &argv, want, &got);
	CHECK_CMP(got, >=, want);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	long all = (long)size * CELLS, first = (long)rank * CELLS;

	u = calloc(CELLS + 2, sizeof(*u));
	v = calloc(CELLS + 2, sizeof(*v));
	ref = calloc(all + 2, sizeof(*ref));     /* the whole ring, serially, with its halos */
	rnext = calloc(all + 2, sizeof(*rnext));
	CHECK(u && v && ref && rnext);
	for (long g = 0; g < all; g++)
		ref[g + 1] = (uint64_t)g * 2654435761u;
	memcpy(u + 1, ref + 1 + first, CELLS * sizeof(*u));

	for (int step = 0; step < STEPS; step++) {
		uint64_t total = 0, expect_total = 0;

		ref[0] = ref[all];
		ref[all + 1] = ref[1];
		if (!multiple) {
			CHECK_MPI(MPI_Sendrecv(&u[CELLS], 1, MPI_UINT64_T, right, 0, &u[0], 1,
					       MPI_UINT64_T, left, 0, MPI_COMM_WORLD,
					       MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Sendrecv(&u[1], 1, MPI_UINT64_T, left, 1, &u[CELLS + 1], 1,
					       MPI_UINT64_T, right, 1, MPI_COMM_WORLD,
					       MPI_STATUS_IGNORE));
		}
#pragma omp parallel
		{
			int t = omp_get_thread_num();

			if (multiple) {
				/* Each thread its own pair of tags, its own values. */
				uint64_t out[2] = { u[CELLS] * (uint64_t)(t + 1),
						    u[1] * (uint64_t)(t + 1) }, in[2];

				CHECK_MPI(MPI_Sendrecv(&out[0], 1, MPI_UINT64_T, right, 2 * t,
						       &in[0], 1, MPI_UINT64_T, left, 2 * t,
						       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
				CHECK_MPI(MPI_Sendrecv(&out[1], 1, MPI_UINT64_T, left, 2 * t + 1,
						       &in[1], 1, MPI_UINT64_T, right, 2 * t + 1,
						       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
				CHECK(in[0] == ref[first] * (uint64_t)(t + 1));
				CHECK(in[1] == ref[first + CELLS + 1] * (uint64_t)(t + 1));
#pragma omp barrier
				if (t == 0) {
					u[0] = in[0];
					u[CELLS + 1] = in[1];
				}
#pragma omp barrier
			}
#pragma omp for reduction(+:total)
			for (long i = 1; i <= CELLS; i++) {
				v[i] = cell(u, i, step);
				total += v[i];
			}
			/* FUNNELED: only the master thread calls MPI, here inside the region. */
#pragma omp master
			CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UINT64_T, MPI_SUM,
						MPI_COMM_WORLD));
#pragma omp barrier
		}
		for (long g = 1; g <= all; g++) {
			rnext[g] = cell(ref, g, step);
			expect_total += rnext[g];
		}
		CHECK(total == expect_total);
		uint64_t *w = u; u = v; v = w;
		w = ref; ref = rnext; rnext = w;
	}
	for (long i = 1; i <= CELLS; i++) {
		CHECK(u[i] == ref[first + i]);
		sum += u[i];
	}
	if (rank == 0)
		printf("checked %d ranks %d threads\n", size, omp_get_max_threads());
	free(u); free(v); free(ref); free(rnext);
	MPI_Finalize();
	return 0;
}
SRC

failures=0
launches=0
for round in 1 2 3; do
	for mode in funneled multiple; do
		for spec in "2 2" "2 3" "4 2" "4 3" "16 2" "16 3" "64 2"; do
			set -- $spec
			[ "$1" = 64 ] && [ "$round" != 1 ] && continue
			launches=$((launches + 1))
			OMP_NUM_THREADS=$2 run -t 120 "$MPIEXEC" -n "$1" "$TEST_TMP/omp_loop" "$mode"
			if [ "$RC" != 0 ] || ! grep -qx "checked $1 ranks $2 threads" "$OUT"; then
				failures=$((failures + 1))
				echo "$mode, -n $1, $2 threads:"
				show
			fi
		done
	done
done
[ "$failures" = 0 ] || fail "$failures of $launches launches failed"
exit 0
