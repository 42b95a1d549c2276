/* derived_type_errors_and_partial_counts: uncommitted and freed types, negative counts and
 * block lengths, freeing a predefined type, bad subarray/darray arguments and truncation
 * return their error classes; MPI_Get_count is MPI_UNDEFINED and MPI_Get_elements counts
 * whole basic elements for a message that ends inside a derived element. */
/* ranks: 1 2 */
#include "check.h"

int main(int argc, char **argv)
{
	MPI_Datatype t, u, v;
	int rank, buf[64] = { 0 }, n;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

	/* Uncommitted: fine to build on, an error to communicate or pack with. */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
	CHECK_CLASS(MPI_Send(buf, 1, t, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Recv(buf, 1, t, rank, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
	int pos = 0;
	CHECK_CLASS(MPI_Pack(buf, 1, t, buf + 32, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
	CHECK_MPI(MPI_Type_vector(2, 1, 2, t, &u));
	CHECK_MPI(MPI_Type_commit(&u));

	/* Freed while another type still uses it: the handle is dead, the other type works. */
	v = t;
	CHECK_MPI(MPI_Type_free(&t));
	CHECK(t == MPI_DATATYPE_NULL);
	CHECK_CLASS(MPI_Type_free(&v), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_commit(&v), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_contiguous(1, v, &t), MPI_ERR_TYPE);
	CHECK_MPI(MPI_Sendrecv(buf, 1, u, rank, 1, buf + 8, 1, u, rank, 1, MPI_COMM_WORLD, &st));

	/* Predefined types are never freed; MPI_DATATYPE_NULL is no type. */
	t = MPI_INT;
	CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
	CHECK(t == MPI_INT);
	t = MPI_DATATYPE_NULL;
	CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_set_name(MPI_INT, "x"), MPI_ERR_TYPE);

	/* Negative counts and block lengths. */
	CHECK_CLASS(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Type_vector(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_COUNT);
	int bl[2] = { 1, -1 }, dp[2] = { 0, 4 };
	CHECK_CLASS(MPI_Type_indexed(2, bl, dp, MPI_INT, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Send(buf, -1, u, rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG);

	/* Subarray and darray arguments. */
	int sizes[2] = { 4, 4 }, subs[2] = { 2, 5 }, starts[2] = { 0, 0 };
	CHECK_CLASS(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t),
		    MPI_ERR_ARG);
	subs[1] = 2;
	CHECK_CLASS(MPI_Type_create_subarray(2, sizes, subs, starts, 99, MPI_INT, &t), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t),
		    MPI_ERR_DIMS);
	int dist[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE },
	    darg[2] = { 1, MPI_DISTRIBUTE_DFLT_DARG }, ps[2] = { 2, 1 };
	CHECK_CLASS(MPI_Type_create_darray(2, 0, 2, sizes, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t),
		    MPI_ERR_ARG);  /* block of 1 x 2 processes cannot cover 4 */
	CHECK_CLASS(MPI_Type_create_darray(3, 0, 2, sizes, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t),
		    MPI_ERR_ARG);  /* grid of 2 processes, size 3 */

	/* Truncation: 3 elements of u (2 ints each) into room for 2. */
	CHECK_MPI(MPI_Send(buf, 6, MPI_INT, rank, 2, MPI_COMM_WORLD));
	CHECK_CLASS(MPI_Recv(buf + 16, 2, MPI_2INT, rank, 2, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);

	/* A message ending inside an element of u: 3 ints = 1.5 elements. */
	CHECK_MPI(MPI_Sendrecv(buf, 3, MPI_INT, rank, 3, buf + 16, 4, u, rank, 3, MPI_COMM_WORLD,
			       &st));
	CHECK_MPI(MPI_Get_count(&st, u, &n));
	CHECK_INT(n, MPI_UNDEFINED);
	CHECK_MPI(MPI_Get_elements(&st, u, &n));
	CHECK_INT(n, 3);
	MPI_Count nx;
	CHECK_MPI(MPI_Get_elements_x(&st, u, &nx));
	CHECK_INT(nx, 3);

	/* A struct { int; double } and a message of one int and half a double. */
	{
		int sb[2] = { 1, 1 };
		MPI_Aint sd[2] = { 0, 8 };
		MPI_Datatype sty[2] = { MPI_INT, MPI_DOUBLE }, s;
		char raw[64];
		CHECK_MPI(MPI_Type_create_struct(2, sb, sd, sty, &s));
		CHECK_MPI(MPI_Type_commit(&s));
		CHECK_MPI(MPI_Sendrecv(raw, 12 + 4, MPI_BYTE, rank, 4, raw + 32, 2, s, rank, 4,
				       MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_elements(&st, s, &n));
		CHECK_INT(n, 3);  /* int, double, int */
		CHECK_MPI(MPI_Get_count(&st, s, &n));
		CHECK_INT(n, MPI_UNDEFINED);
		CHECK_MPI(MPI_Sendrecv(raw, 18, MPI_BYTE, rank, 5, raw + 32, 2, s, rank, 5,
				       MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_elements(&st, s, &n));
		CHECK_INT(n, MPI_UNDEFINED);  /* ends inside the second int */
		CHECK_MPI(MPI_Type_free(&s));
	}

	/* Unpack past the end of the input. */
	pos = 0;
	CHECK_CLASS(MPI_Unpack(buf, 4, &pos, buf + 32, 1, u, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);

	CHECK_MPI(MPI_Type_free(&u));
	MPI_Finalize();
	return 0;
}
