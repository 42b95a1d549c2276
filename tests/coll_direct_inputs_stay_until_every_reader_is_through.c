/* coll_direct_inputs_stay_until_every_reader_is_through: Allgather and Alltoall blocks
 * that the other members copy straight from the sender's buffer (up to 4 ranks, once the
 * sender would pack 512 B, or 32 KiB when ranks outnumber cores), Allreduce and Reduce
 * inputs that the members folding read where they are (from 512 B and 4 KiB, or 32 KiB),
 * and Bcast data that the reader copies from the root's buffer (2 ranks whose waits poll,
 * 1-128 KiB) arrive whole although every rank overwrites its send buffer the moment
 * its call returns: no call returns while another member may still read its data. */
/* ranks: 2 3 4 */
#include <stdbool.h>

#include "check.h"


static int rank, size;

static int val(int from, int to, int i, int iter)
{
	return ((from * 7 + to) * 1000 + i) * 4096 + iter % 4096;
}

/* One MPI_Allgather or MPI_Alltoall (`f`, `all2all`) of `count` ints per block: fill the
 * send blocks, call, overwrite them at once, then check every block received. */
static void call_then_overwrite(int (*f)(const void *, int, MPI_Datatype, void *, int,
					 MPI_Datatype, MPI_Comm),
				bool all2all, int *s, int *r, int count, int iter)
{
	int blocks = all2all ? size : 1;

	for (int j = 0; j < blocks; j++)
		for (int i = 0; i < count; i++)
			s[j * count + i] = val(rank, all2all ? j : 0, i, iter);
	CHECK_MPI(f(s, count, MPI_INT, r, count, MPI_INT, MPI_COMM_WORLD));
	for (int i = 0; i < blocks * count; i++)
		s[i] = -1;
	for (int j = 0; j < size; j++)
		for (int i = 0; i < count; i++)
			CHECK_INT(r[j * count + i], val(j, all2all ? rank : 0, i, iter));
}

/* One MPI_Allreduce (root < 0) or MPI_Reduce to `root` of `count` ints: fill the input,
 * call, overwrite the input at once, then check the sums where they are delivered. */
static void reduce_then_overwrite(int root, int *s, int *r, int count, int iter)
{
	for (int i = 0; i < count; i++)
		s[i] = val(rank, 0, i, iter);
	if (root < 0)
		CHECK_MPI(MPI_Allreduce(s, r, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	else
		CHECK_MPI(MPI_Reduce(s, r, count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
	for (int i = 0; i < count; i++)
		s[i] = -1;
	if (root >= 0 && root != rank)
		return;
	for (int i = 0; i < count; i++) {
		int sum = 0;
		for (int j = 0; j < size; j++)
			sum += val(j, 0, i, iter);
		CHECK_INT(r[i], sum);
	}
}

/* One MPI_Bcast from `root` of `count` ints: the root fills the buffer, calls and
 * overwrites it at once; every other rank checks what it received. */
static void bcast_then_overwrite(int root, int *s, int count, int iter)
{
	for (int i = 0; i < count; i++)
		s[i] = rank == root ? val(root, 0, i, iter) : -2;
	CHECK_MPI(MPI_Bcast(s, count, MPI_INT, root, MPI_COMM_WORLD));
	if (rank == root) {
		for (int i = 0; i < count; i++)
			s[i] = -1;
		return;
	}
	for (int i = 0; i < count; i++)
		CHECK_INT(s[i], val(root, 0, i, iter));
}

int main(int argc, char **argv)
{
	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* 256 B (2-rank Alltoall: 512 B to pack), 4 KiB and 32 KiB, the smallest direct
	 * blocks and inputs, 128 KiB, the largest direct Bcast, and sizes of neither a line
	 * nor a page multiple. */
	const int counts[] = { 64, 300, 1024, 8192, 8200, 32768 };
	/* Rounds of each size: up to `iters`, at least a fiftieth of them (check_budget). */
	const int iters[] = { 3000, 3000, 1000, 300, 300, 50 };
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		int count = counts[c], n = count * size;
		int *s = malloc(sizeof(int) * (size_t)n), *r = malloc(sizeof(int) * (size_t)n);
		struct check_budget b;
		for (check_budget_start(&b, MPI_COMM_WORLD, iters[c] / 50 + 1, iters[c]);
		     check_budget_more(&b);) {
			int iter = b.round;
			call_then_overwrite(MPI_Allgather, false, s, r, count, iter);
			call_then_overwrite(MPI_Alltoall, true, s, r, count, iter);
			reduce_then_overwrite(-1, s, r, count, iter);
			reduce_then_overwrite(iter % size, s, r, count, iter);
			bcast_then_overwrite(iter % size, s, count, iter);
		}
		free(s);
		free(r);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
