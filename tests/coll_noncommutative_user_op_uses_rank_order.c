/* coll_noncommutative_user_op_uses_rank_order: a non-commutative user op (2x2 integer matrix
 * product) gives M0 M1 ... M(n-1) in Reduce, Allreduce, Scan, Exscan, Reduce_scatter_block
 * and Iallreduce; a commutative user op works too; MPI_Op_commutative reports each. */
/* ranks: 1 2 3 4 7 64 */
#include "check.h"

typedef struct { long long a, b, c, d; } mat;

static void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
	mat *x = in, *y = inout;
	for (int i = 0; i < *len; i++) {
		mat r = { x[i].a * y[i].a + x[i].b * y[i].c, x[i].a * y[i].b + x[i].b * y[i].d,
			  x[i].c * y[i].a + x[i].d * y[i].c, x[i].c * y[i].b + x[i].d * y[i].d };
		y[i] = r;
	}
}

static void addi(void *in, void *inout, int *len, MPI_Datatype *t)
{
	for (int i = 0; i < *len; i++)
		((int *)inout)[i] += ((int *)in)[i];
}

/* Rank k's matrix: not commuting with its neighbours'; entries stay small mod 1000. */
static mat of(int k)
{
	return (mat){ 1, k % 3 + 1, k % 2, 1 };
}

static mat prod(int from, int to)
{
	mat p = of(from);
	for (int k = from + 1; k < to; k++) {
		mat q = of(k);
		int one = 1;
		mat left = p;
		matmul(&left, &q, &one, NULL);
		p = q;
	}
	return p;
}

static int same(mat x, mat y)
{
	return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

int main(int argc, char **argv)
{
	int rank, size, commute = -1;
	MPI_Op op, add;
	MPI_Datatype mt;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Type_contiguous(4, MPI_LONG_LONG, &mt));
	CHECK_MPI(MPI_Type_commit(&mt));
	CHECK_MPI(MPI_Op_create(matmul, 0, &op));
	CHECK_MPI(MPI_Op_create(addi, 1, &add));
	CHECK_MPI(MPI_Op_commutative(op, &commute));
	CHECK_INT(commute, 0);
	CHECK_MPI(MPI_Op_commutative(add, &commute));
	CHECK_INT(commute, 1);
	CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
	CHECK_INT(commute, 1);

	/* A matrix products check needs the entries to stay in range: 64 factors of at
	 * most 3 overflow, so use the product of the first 20 and compare modulo wrap. */
	mat m = of(rank), r = { 0 }, want = prod(0, size);
	for (int root = 0; root < size; root += size > 3 ? size - 1 : 1) {
		CHECK_MPI(MPI_Reduce(&m, &r, 1, mt, op, root, MPI_COMM_WORLD));
		if (rank == root)
			CHECK(same(r, want));
	}
	r = (mat){ 0 };
	CHECK_MPI(MPI_Allreduce(&m, &r, 1, mt, op, MPI_COMM_WORLD));
	CHECK(same(r, want));
	MPI_Request q;
	r = m;
	CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, &r, 1, mt, op, MPI_COMM_WORLD, &q));
	CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
	CHECK(same(r, want));
	CHECK_MPI(MPI_Scan(&m, &r, 1, mt, op, MPI_COMM_WORLD));
	CHECK(same(r, prod(0, rank + 1)));
	r = (mat){ 9, 9, 9, 9 };
	CHECK_MPI(MPI_Exscan(&m, &r, 1, mt, op, MPI_COMM_WORLD));
	if (rank > 0)
		CHECK(same(r, prod(0, rank)));
	r = m;
	CHECK_MPI(MPI_Exscan(MPI_IN_PLACE, &r, 1, mt, op, MPI_COMM_WORLD));
	if (rank > 0)
		CHECK(same(r, prod(0, rank)));
	/* Reduce_scatter_block: every rank contributes its matrix in every block. */
	mat *v = malloc(sizeof(mat) * size);
	for (int k = 0; k < size; k++)
		v[k] = m;
	CHECK_MPI(MPI_Reduce_scatter_block(v, &r, 1, mt, op, MPI_COMM_WORLD));
	CHECK(same(r, want));
	free(v);

	int x = rank, y = -1;
	CHECK_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, add, MPI_COMM_WORLD));
	CHECK_INT(y, size * (size - 1) / 2);
	CHECK_MPI(MPI_Op_free(&op));
	CHECK(op == MPI_OP_NULL);
	CHECK_MPI(MPI_Op_free(&add));
	CHECK_MPI(MPI_Type_free(&mt));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
