#!/bin/bash
# openmp_ranks_run_through_finalize_and_exit: ranks that ran an OpenMP parallel region (libgomp's pool threads still alive) end through MPI_Finalize and the job exits 0 with the right sums, launch after launch, on 1, 2 and 8 ranks of 2 to 4 threads; libgomp, shared by the ranks' copies, stays loaded until the node ends.
# timeout: 240
. "$SHOAL_TESTS/lib/common.bash"

build omp_sum -fopenmp <<'SRC'
#include <omp.h>
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, threads = 0;
	long local = 0, total = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
#pragma omp parallel reduction(+:local, threads)
	{
		threads += 1;
#pragma omp for
		for (long i = 0; i < 100000; i++)
			local += i + rank;
	}
	MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("total %ld threads %d\n", total, threads);
	MPI_Finalize();
	return 0;
}
SRC

# sum over ranks r of sum_{i<100000} (i + r)
expected() { echo $(( $1 * 4999950000 + 100000 * $1 * ($1 - 1) / 2 )); }

# Each launch fails alone (a crash at the end is one launch in a few when it happens), so
# every launch is checked and the failures counted.
failures=0
launches=0
for spec in "1 4 25" "1 2 10" "2 2 25" "2 3 10" "8 2 10" "8 4 5"; do
	set -- $spec
	n=$1 t=$2 count=$3
	for _ in $(seq "$count"); do
		launches=$((launches + 1))
		OMP_NUM_THREADS=$t run -t 60 "$MPIEXEC" -n "$n" "$TEST_TMP/omp_sum"
		if [ "$RC" != 0 ] || ! grep -qx "total $(expected "$n") threads $t" "$OUT"; then
			failures=$((failures + 1))
			echo "-n $n, $t threads:"
			show
		fi
	done
done
[ "$failures" = 0 ] || fail "$failures of $launches launches failed"
exit 0
