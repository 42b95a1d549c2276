/* rma_compare_and_swap_spin_lock_guards_plain_counter: a spin lock made of
 * MPI_Compare_and_swap on an int of rank 0 (0 free, rank+1 held) guards a counter beside it
 * that the holder reads with MPI_Get and writes back plus one with MPI_Put (not atomic on its
 * own); every rank takes the lock ROUNDS times, all in one lock_all epoch: the counter ends
 * at exactly N*ROUNDS and no holder ever finds the lock word held by another. */
/* ranks: 2 8 64 */
/* timeout: 300 */
#include "check.h"

#define LOCKWORD 0
#define COUNTER 1

int main(int argc, char **argv)
{
	int rank, size, *mem;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int rounds = size > 8 ? 30 : 100, free_word = 0, mine = rank + 1;
	CHECK_MPI(MPI_Win_allocate(rank == 0 ? 2 * sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &mem, &win));
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		mem[LOCKWORD] = mem[COUNTER] = 0;
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int i = 0; i < rounds; i++) {
		int old = -1, count = -1, seen = -1;
		do {
			CHECK_MPI(MPI_Compare_and_swap(&mine, &free_word, &old, MPI_INT, 0,
						       LOCKWORD, win));
			CHECK_MPI(MPI_Win_flush(0, win));
			CHECK(old == 0 || (old >= 1 && old <= size && old != mine));
		} while (old != 0);
		CHECK_MPI(MPI_Get(&count, 1, MPI_INT, 0, COUNTER, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		count++;
		CHECK_MPI(MPI_Put(&count, 1, MPI_INT, 0, COUNTER, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		/* Release: the word must still be ours. */
		CHECK_MPI(MPI_Compare_and_swap(&free_word, &mine, &seen, MPI_INT, 0, LOCKWORD,
					       win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK_INT(seen, mine);
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK_INT(mem[COUNTER], size * rounds);
		CHECK_INT(mem[LOCKWORD], 0);
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
