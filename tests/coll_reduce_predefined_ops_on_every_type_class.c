/* coll_reduce_predefined_ops_on_every_type_class: Reduce and Allreduce (also in place) with
 * the predefined ops on integers, floating point, complex, bool, byte and a contiguous
 * derived type; a floating-point sum equals the sequential sum in rank order, bitwise. */
/* ranks: 1 2 3 4 7 64 */
#include <complex.h>
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	int in[4] = { rank, -rank, rank % 2, 1 << (rank % 31) }, out[4];
	CHECK_MPI(MPI_Allreduce(in, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	CHECK_INT(out[0], size * (size - 1) / 2);
	CHECK_MPI(MPI_Allreduce(in, out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
	CHECK_INT(out[0], size - 1);
	CHECK_INT(out[1], 0);
	CHECK_MPI(MPI_Allreduce(in, out, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	CHECK_INT(out[0], 0);
	CHECK_INT(out[1], -(size - 1));
	CHECK_MPI(MPI_Allreduce(&in[2], out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
	CHECK_INT(out[0], size == 1 ? 0 : 0);
	CHECK_MPI(MPI_Allreduce(&in[2], out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD));
	CHECK_INT(out[0], size > 1);
	CHECK_MPI(MPI_Allreduce(&in[2], out, 1, MPI_INT, MPI_LXOR, MPI_COMM_WORLD));
	CHECK_INT(out[0], (size / 2) % 2);
	int bor = 0, bxor = 0;
	for (int k = 0; k < size; k++) {
		bor |= 1 << (k % 31);
		bxor ^= 1 << (k % 31);
	}
	CHECK_MPI(MPI_Allreduce(&in[3], out, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD));
	CHECK_INT(out[0], bor);
	CHECK_MPI(MPI_Allreduce(&in[3], out, 1, MPI_INT, MPI_BXOR, MPI_COMM_WORLD));
	CHECK_INT(out[0], bxor);
	CHECK_MPI(MPI_Allreduce(&in[3], out, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD));
	CHECK_INT(out[0], size == 1 ? 1 : 0);

	/* Products of small integers, several widths. */
	long long ll = rank % 3 + 1, llp = 1;
	for (int k = 0; k < size; k++)
		llp *= k % 3 + 1;
	long long llo;
	CHECK_MPI(MPI_Allreduce(&ll, &llo, 1, MPI_LONG_LONG, MPI_PROD, MPI_COMM_WORLD));
	CHECK_INT(llo, llp);
	unsigned char uc = (unsigned char)(rank + 1), uco;
	CHECK_MPI(MPI_Allreduce(&uc, &uco, 1, MPI_UNSIGNED_CHAR, MPI_MAX, MPI_COMM_WORLD));
	CHECK_INT(uco, size);
	unsigned char byte = (unsigned char)(1 << (rank % 8)), byteo;
	CHECK_MPI(MPI_Allreduce(&byte, &byteo, 1, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD));
	CHECK_INT(byteo, size >= 8 ? 0xff : (1 << size) - 1);
	_Bool b = rank != 1, bo;
	CHECK_MPI(MPI_Allreduce(&b, &bo, 1, MPI_C_BOOL, MPI_LAND, MPI_COMM_WORLD));
	CHECK_INT(bo, size < 2);
	int16_t s16 = (int16_t)(rank - 3), s16o;
	CHECK_MPI(MPI_Allreduce(&s16, &s16o, 1, MPI_INT16_T, MPI_MIN, MPI_COMM_WORLD));
	CHECK_INT(s16o, -3);

	/* Floating point: the rank-order left fold, bitwise. */
	double x = 1.0 / (rank + 3) + 1e16 * (rank % 2), sum = 0, got = -1;
	for (int k = 0; k < size; k++) {
		double xk = 1.0 / (k + 3) + 1e16 * (k % 2);
		sum = k == 0 ? xk : sum + xk;
	}
	CHECK_MPI(MPI_Reduce(&x, &got, 1, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD));
	if (rank == size - 1)
		CHECK(memcmp(&got, &sum, sizeof got) == 0);
	got = x;
	CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &got, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	CHECK(memcmp(&got, &sum, sizeof got) == 0);
	float f = (float)rank * 0.5f, fo;
	CHECK_MPI(MPI_Allreduce(&f, &fo, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD));
	CHECK(fo == (float)(size - 1) * 0.5f);
	long double ld = rank, ldo;
	CHECK_MPI(MPI_Allreduce(&ld, &ldo, 1, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	CHECK(ldo == (long double)size * (size - 1) / 2);

	/* Complex: sum and product of i per rank. */
	double _Complex z = I, zs, zp, want = 1;
	for (int k = 0; k < size; k++)
		want *= I;
	CHECK_MPI(MPI_Allreduce(&z, &zs, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
	CHECK(creal(zs) == 0 && cimag(zs) == size);
	CHECK_MPI(MPI_Allreduce(&z, &zp, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
	CHECK(zp == want);

	/* A contiguous derived type of 3 ints reduces element-wise. */
	MPI_Datatype tri;
	int t[6] = { rank, 1, 2, rank * 2, 3, 4 }, to[6];
	CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &tri));
	CHECK_MPI(MPI_Type_commit(&tri));
	CHECK_MPI(MPI_Reduce(t, to, 2, tri, MPI_SUM, 0, MPI_COMM_WORLD));
	if (rank == 0) {
		CHECK_INT(to[0], size * (size - 1) / 2);
		CHECK_INT(to[1], size);
		CHECK_INT(to[3], size * (size - 1));
		CHECK_INT(to[5], 4 * size);
	}
	/* In place at the root. */
	memcpy(to, t, sizeof t);
	if (rank == 0)
		CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, to, 2, tri, MPI_SUM, 0, MPI_COMM_WORLD));
	else
		CHECK_MPI(MPI_Reduce(t, NULL, 2, tri, MPI_SUM, 0, MPI_COMM_WORLD));
	if (rank == 0)
		CHECK_INT(to[4], 3 * size);
	CHECK_MPI(MPI_Type_free(&tri));

	/* A large allreduce (1 MiB of ints). */
	int n = 1 << 18;
	int *big = malloc(sizeof(int) * n), *bo2 = malloc(sizeof(int) * n);
	for (int i = 0; i < n; i++)
		big[i] = i + rank;
	CHECK_MPI(MPI_Allreduce(big, bo2, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	for (int i = 0; i < n; i += 4099)
		CHECK_INT(bo2[i], i * size + size * (size - 1) / 2);
	free(big);
	free(bo2);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
