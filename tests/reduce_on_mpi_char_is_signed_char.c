/* reduce_on_mpi_char_is_signed_char: MPI_Allreduce and MPI_Reduce (root 0 and the last rank)
 * on MPI_CHAR combine the values as signed chars, as Open MPI and MPICH do: MPI_SUM and
 * MPI_PROD wrap at 8 bits, MPI_MIN and MPI_MAX order negative values below positive ones,
 * and the logical and bitwise operations apply too. */
/* ranks: 1 2 3 64 */
#include <stdint.h>

#include "check.h"

#define N 16

/* Rank r's element i: -8..7, with negative values on every rank. */
static signed char value(int r, int i)
{
	return (signed char)((r * 5 + i * 3) % 16 - 8);
}

/* What `op` over ranks 0..size-1 gives for element i, computed as signed chars. */
static signed char expect(MPI_Op op, int size, int i)
{
	int8_t acc = (int8_t)value(0, i);

	for (int r = 1; r < size; r++) {
		int8_t v = (int8_t)value(r, i);
		if (op == MPI_SUM)
			acc = (int8_t)(uint8_t)((uint8_t)acc + (uint8_t)v);
		else if (op == MPI_PROD)
			acc = (int8_t)(uint8_t)((uint8_t)acc * (uint8_t)v);
		else if (op == MPI_MIN)
			acc = v < acc ? v : acc;
		else if (op == MPI_MAX)
			acc = v > acc ? v : acc;
		else if (op == MPI_LAND)
			acc = acc && v;
		else if (op == MPI_LOR)
			acc = acc || v;
		else if (op == MPI_LXOR)
			acc = !acc != !v;
		else if (op == MPI_BAND)
			acc &= v;
		else if (op == MPI_BOR)
			acc |= v;
		else
			acc ^= v;
	}
	return (signed char)acc;
}

int main(int argc, char **argv)
{
	const MPI_Op ops[] = { MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_LAND, MPI_LOR,
			       MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR };
	const char *names[] = { "MPI_SUM", "MPI_PROD", "MPI_MIN", "MPI_MAX", "MPI_LAND",
				"MPI_LOR", "MPI_LXOR", "MPI_BAND", "MPI_BOR", "MPI_BXOR" };
	char in[N], out[N];
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	for (int i = 0; i < N; i++)
		in[i] = (char)value(rank, i);

	for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
		/* N elements (the ring path of small reductions) and 1 element. */
		for (int n = 1; n <= N; n += N - 1) {
			memset(out, 0x55, sizeof out);
			CHECK_MPI(MPI_Allreduce(in, out, n, MPI_CHAR, ops[o], MPI_COMM_WORLD));
			for (int i = 0; i < n; i++)
				if ((signed char)out[i] != expect(ops[o], size, i)) {
					fprintf(stderr, "%s: element %d is %d, not %d\n", names[o],
						i, (signed char)out[i], expect(ops[o], size, i));
					CHECK(0);
				}
			for (int root = 0; root < size; root += size - 1 > 0 ? size - 1 : 1) {
				memset(out, 0x55, sizeof out);
				CHECK_MPI(MPI_Reduce(in, out, n, MPI_CHAR, ops[o], root,
						     MPI_COMM_WORLD));
				if (rank == root)
					for (int i = 0; i < n; i++)
						CHECK_INT((signed char)out[i], expect(ops[o], size, i));
			}
		}
	}
	/* In a derived type made of MPI_CHAR, as in the predefined one. */
	MPI_Datatype pair;
	CHECK_MPI(MPI_Type_contiguous(2, MPI_CHAR, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	CHECK_MPI(MPI_Allreduce(in, out, N / 2, pair, MPI_MIN, MPI_COMM_WORLD));
	for (int i = 0; i < N; i++)
		CHECK_INT((signed char)out[i], expect(MPI_MIN, size, i));
	CHECK_MPI(MPI_Type_free(&pair));

	CHECK_MPI(MPI_Finalize());
	return 0;
}
