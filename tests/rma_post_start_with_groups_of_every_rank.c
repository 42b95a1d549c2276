/* rma_post_start_with_groups_of_every_rank: post/start/complete/wait with groups of several
 * ranks: every rank exposes its window to all the others and accesses all of them in one
 * epoch, putting its rank into its slot of each (even ranks end the exposure with
 * MPI_Win_wait, odd ones poll MPI_Win_test); then rank 0 alone exposes to all the others,
 * which each start a group of rank 0 and accumulate into one counter there. Every slot holds
 * its writer's value and the counter the sum, ROUNDS times over with new values. */
/* ranks: 2 4 8 64 */
/* timeout: 300 */
#include "check.h"

#define ROUNDS 5

int main(int argc, char **argv)
{
	int rank, size, *mem;
	MPI_Win win;
	MPI_Group all, others, zero_only;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* size slots, then the counter */
	CHECK_MPI(MPI_Win_allocate((size + 1) * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &mem, &win));
	CHECK_MPI(MPI_Win_get_group(win, &all));
	CHECK_MPI(MPI_Group_excl(all, 1, &rank, &others));
	int zero = 0;
	CHECK_MPI(MPI_Group_incl(all, 1, &zero, &zero_only));

	for (int round = 0; round < ROUNDS; round++) {
		int v = round * 1000 + rank, flag = 0;
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
		for (int i = 0; i <= size; i++)
			mem[i] = -1;
		mem[size] = 0;
		CHECK_MPI(MPI_Win_unlock(rank, win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

		if (size > 1) {
			CHECK_MPI(MPI_Win_post(others, 0, win));
			CHECK_MPI(MPI_Win_start(others, 0, win));
			for (int p = 0; p < size; p++)
				if (p != rank)
					CHECK_MPI(MPI_Put(&v, 1, MPI_INT, p, rank, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_complete(win));
			if (rank % 2 == 0) {
				CHECK_MPI(MPI_Win_wait(win));
			} else {
				double end = MPI_Wtime() + CHECK_POLL_S;
				while (!flag && MPI_Wtime() < end)
					CHECK_MPI(MPI_Win_test(win, &flag));
				CHECK_INT(flag, 1);
			}
			for (int p = 0; p < size; p++)
				CHECK_INT(mem[p], p == rank ? -1 : round * 1000 + p);
		}

		if (rank == 0) {
			if (size > 1) {
				CHECK_MPI(MPI_Win_post(others, 0, win));
				CHECK_MPI(MPI_Win_wait(win));
			}
			CHECK_INT(mem[size], (round + 1) * (size - 1) * size / 2);
		} else {
			int add = (round + 1) * rank;
			CHECK_MPI(MPI_Win_start(zero_only, 0, win));
			CHECK_MPI(MPI_Accumulate(&add, 1, MPI_INT, 0, size, 1, MPI_INT, MPI_SUM, win));
			CHECK_MPI(MPI_Win_complete(win));
		}
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Group_free(&zero_only));
	CHECK_MPI(MPI_Group_free(&others));
	CHECK_MPI(MPI_Group_free(&all));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
