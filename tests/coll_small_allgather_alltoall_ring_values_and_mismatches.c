/* coll_small_allgather_alltoall_ring_values_and_mismatches: small blocking Allgather and Alltoall (the reduction ring's segments up to 4 ranks, meetings above) deliver every block in rank order, in place and through derived types, interleaved with reductions for more rounds than the ring has cells; mismatched calls against them fail with an error on every rank instead of hanging */
/* ranks: 1 2 3 4 64 */
#include "check.h"

static int rank, size;

static MPI_Comm fresh(void)
{
	MPI_Comm c;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
	CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
	return c;
}

static int val(int from, int to, int i, int round)
{
	return from * 1000003 + to * 1009 + i * 7 + round;
}

/* One round of every shape with `count` ints per block. */
static void round_of(MPI_Comm c, int count, int round)
{
	int n = size * count;
	int *s = malloc(sizeof(int) * (size_t)n), *r = malloc(sizeof(int) * (size_t)n);
	int *wide = malloc(2 * sizeof(int) * (size_t)n);
	MPI_Datatype every_other;

	CHECK(s != NULL && r != NULL && wide != NULL);
	/* Allgather: block j of everyone is rank j's data. */
	for (int i = 0; i < count; i++)
		s[i] = val(rank, 0, i, round);
	for (int i = 0; i < n; i++)
		r[i] = -1;
	CHECK_MPI(MPI_Allgather(s, count, MPI_INT, r, count, MPI_INT, c));
	for (int j = 0; j < size; j++)
		for (int i = 0; i < count; i++)
			CHECK_INT(r[j * count + i], val(j, 0, i, round));
	/* In place: the own block is already in the receive buffer. */
	for (int i = 0; i < n; i++)
		r[i] = i / count == rank ? val(rank, 1, i % count, round) : -1;
	CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, count, MPI_INT, c));
	for (int j = 0; j < size; j++)
		for (int i = 0; i < count; i++)
			CHECK_INT(r[j * count + i], val(j, 1, i, round));
	/* Into every other int: a strided receive type. */
	CHECK_MPI(MPI_Type_vector(count, 1, 2, MPI_INT, &every_other));
	MPI_Datatype blk;
	CHECK_MPI(MPI_Type_create_resized(every_other, 0, (MPI_Aint)(2 * count * sizeof(int)),
					  &blk));
	CHECK_MPI(MPI_Type_commit(&blk));
	for (int i = 0; i < 2 * n; i++)
		wide[i] = -7;
	CHECK_MPI(MPI_Allgather(s, count, MPI_INT, wide, 1, blk, c));
	for (int j = 0; j < size; j++)
		for (int i = 0; i < count; i++) {
			CHECK_INT(wide[2 * (j * count + i)], val(j, 0, i, round));
			CHECK_INT(wide[2 * (j * count + i) + 1], -7);
		}
	/* Alltoall: block j of rank i goes to block i of rank j. */
	for (int j = 0; j < size; j++)
		for (int i = 0; i < count; i++)
			s[j * count + i] = val(rank, j, i, round);
	for (int i = 0; i < n; i++)
		r[i] = -1;
	CHECK_MPI(MPI_Alltoall(s, count, MPI_INT, r, count, MPI_INT, c));
	for (int j = 0; j < size; j++)
		for (int i = 0; i < count; i++)
			CHECK_INT(r[j * count + i], val(j, rank, i, round));
	/* In place: the receive buffer holds the blocks to send. */
	memcpy(r, s, sizeof(int) * (size_t)n);
	CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, count, MPI_INT, c));
	for (int j = 0; j < size; j++)
		for (int i = 0; i < count; i++)
			CHECK_INT(r[j * count + i], val(j, rank, i, round));
	/* Strided send type, dense receive. */
	for (int i = 0; i < 2 * n; i++)
		wide[i] = i % 2 == 0 ? s[i / 2] : -9;
	CHECK_MPI(MPI_Alltoall(wide, 1, blk, r, count, MPI_INT, c));
	for (int j = 0; j < size; j++)
		for (int i = 0; i < count; i++)
			CHECK_INT(r[j * count + i], val(j, rank, i, round));
	/* A reduction between them shares the ring. */
	int x = rank + round, sum = 0;
	CHECK_MPI(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, c));
	CHECK_INT(sum, size * (size - 1) / 2 + size * round);
	CHECK_MPI(MPI_Type_free(&blk));
	CHECK_MPI(MPI_Type_free(&every_other));
	free(s);
	free(r);
	free(wide);
}

/* `c` is broken: collectives fail at once, freeing works. */
static void broken(MPI_Comm c)
{
	int v = 1, w[64];

	CHECK_CLASS(MPI_Barrier(c), MPI_ERR_NOT_SAME);
	CHECK_CLASS(MPI_Allgather(&v, 1, MPI_INT, w, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	CHECK_MPI(MPI_Comm_free(&c));
}

/* Still usable: a correct Allgather and Alltoall work. */
static void usable(MPI_Comm c)
{
	int v = rank + 5, w[64], a[64];

	CHECK_MPI(MPI_Allgather(&v, 1, MPI_INT, w, 1, MPI_INT, c));
	for (int j = 0; j < size; j++)
		CHECK_INT(w[j], j + 5);
	for (int j = 0; j < size; j++)
		a[j] = rank * 10 + j;
	CHECK_MPI(MPI_Alltoall(a, 1, MPI_INT, w, 1, MPI_INT, c));
	for (int j = 0; j < size; j++)
		CHECK_INT(w[j], j * 10 + rank);
}

static void mismatches(void)
{
	static int out[4 * 4096];  /* an in-place Alltoall of 4096 ints at up to 4 ranks */
	int a[8] = { 0 }, b[8] = { 0 };
	MPI_Comm c = fresh();

	/* Allgather against Alltoall, Allreduce and a Reduce to 0: same ring, every rank
	 * reads another collective's segment; the communicator stays usable. */
	if (rank == 0)
		CHECK_CLASS(MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	usable(c);
	if (rank == 0)
		CHECK_CLASS(MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, c), MPI_ERR_NOT_SAME);
	usable(c);
	if (rank == 0)
		CHECK_CLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, 0, c), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	usable(c);
	/* Rank 0 sends 2 ints into blocks of 1: truncated everywhere (rank 0's own block
	 * too). Then the counts agree again. */
	int rc = MPI_Allgather(a, rank == 0 ? 2 : 1, MPI_INT, b, 1, MPI_INT, c);
	CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
	rc = MPI_Alltoall(a, rank == 0 ? 2 : 1, MPI_INT, b, 1, MPI_INT, c);
	CHECK_CLASS(rc, MPI_ERR_TRUNCATE);
	usable(c);
	CHECK_MPI(MPI_Comm_free(&c));

	/* Another path: a ring Allgather against a Barrier (a flag), then a ring Alltoall
	 * against a large in-place Alltoall (a meeting): nobody can finish, every rank is
	 * told. */
	c = fresh();
	if (rank == 0)
		CHECK_CLASS(MPI_Barrier(c), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	broken(c);
	c = fresh();
	if (rank == 0)
		CHECK_CLASS(MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, out, 4096, MPI_INT, c),
			    MPI_ERR_NOT_SAME);
	broken(c);
	c = fresh();
	if (rank == 0)
		CHECK_CLASS(MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	else
		CHECK_CLASS(MPI_Bcast(a, 1, MPI_INT, 0, c), MPI_ERR_NOT_SAME);
	broken(c);

	/* Out of step: rank 0's Bcast returns at once and its Allgather meets the others'
	 * Allgather, their first collective: the numbers differ, every rank is told. */
	c = fresh();
	if (rank == 0) {
		CHECK_MPI(MPI_Bcast(a, 1, MPI_INT, 0, c));
		CHECK_CLASS(MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
	} else {
		CHECK_CLASS(MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_NOT_SAME);
		CHECK_CLASS(MPI_Bcast(a, 1, MPI_INT, 0, c), MPI_ERR_NOT_SAME);
	}
	broken(c);
}

int main(int argc, char **argv)
{
	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	MPI_Comm c = fresh();
	/* 0 bytes, 1 int, and blocks up to the ring's limit (a segment: 10 KiB at 2 ranks,
	 * 6.5 KiB at 4) and past it;
	 * 40 rounds of the small ones wrap the 32-cell ring. */
	int counts[] = { 0, 1, 3, 16, 256, 1024 / (size < 4 ? size : 4),
			 size <= 4 ? 2048 : 64, size <= 4 ? 4096 : 64 };
	int rounds = size > 8 ? 2 : 40;
	for (int round = 0; round < rounds; round++)
		for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
			if (round < 3 || counts[i] <= 16)
				round_of(c, counts[i], round);
	CHECK_MPI(MPI_Comm_free(&c));
	if (size >= 2 && size <= 4)
		mismatches();
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
