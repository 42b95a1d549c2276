/* resized_extents_zero_blocks_negative_strides: MPI_LB/UB-style resizing (including a
 * column type resized to one element to send a matrix block), zero-length blocks, zero
 * counts, negative strides and displacements: bounds as MPI 4.1 5.1.7 defines them and
 * byte-exact transfers. */
/* ranks: 1 2 */
#include "typemap.h"

int main(int argc, char **argv)
{
	MPI_Datatype t, col, cols;
	struct tm in = tm_basic(4), dbl = tm_basic(8), r = { 0 };
	MPI_Aint lb, ext;
	int size;

	MPI_Init(&argc, &argv);

	/* A column of an 8x10 double matrix, resized to one double: consecutive columns. */
	CHECK_MPI(MPI_Type_vector(8, 1, 10, MPI_DOUBLE, &col));
	CHECK_MPI(MPI_Type_create_resized(col, 0, 8, &cols));
	CHECK_MPI(MPI_Type_commit(&cols));
	for (int i = 0; i < 8; i++)
		tm_add(&r, &dbl, i * 80, 1);
	r.lb = 0, r.extent = 8;
	tm_check(cols, &r, 1, "resized column");
	tm_check(cols, &r, 10, "10 resized columns (the whole matrix, transposed)");
	CHECK_MPI(MPI_Type_free(&col));
	CHECK_MPI(MPI_Type_free(&cols));
	tm_free(&r);

	/* Negative stride: a vector walking backwards. */
	CHECK_MPI(MPI_Type_vector(4, 2, -3, MPI_INT, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	for (int i = 0; i < 4; i++)
		tm_add(&r, &in, -12 * i, 2);
	r.lb = -36, r.extent = 44;
	tm_check_counts(t, &r, "negative stride");
	CHECK_MPI(MPI_Type_free(&t));
	tm_free(&r);

	/* Zero-length blocks contribute nothing, not even to the bounds. */
	{
		int bl[4] = { 0, 2, 0, 1 }, dp[4] = { -10, 1, 50, 4 };
		CHECK_MPI(MPI_Type_indexed(4, bl, dp, MPI_INT, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		tm_add(&r, &in, 4, 2);
		tm_add(&r, &in, 16, 1);
		r.lb = 4, r.extent = 16;
		tm_check_counts(t, &r, "zero-length blocks");
		CHECK_MPI(MPI_Type_free(&t));
		tm_free(&r);
	}

	/* Zero counts: an empty type of size and extent 0 that sends nothing. */
	CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	CHECK_MPI(MPI_Type_size(t, &size));
	CHECK_INT(size, 0);
	CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
	CHECK_INT(ext, 0);
	{
		int rank, x = 5;
		MPI_Status st;
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		CHECK_MPI(MPI_Sendrecv(&x, 3, t, rank, 1, &x, 3, t, rank, 1, MPI_COMM_WORLD, &st));
		int n = -1;
		CHECK_MPI(MPI_Get_count(&st, t, &n));
		CHECK_INT(n, 0);
		CHECK_INT(x, 5);
	}
	CHECK_MPI(MPI_Type_free(&t));

	/* Resized to a larger extent with a negative lb (the old MPI_LB/MPI_UB markers). */
	{
		MPI_Datatype pair, padded;
		CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
		CHECK_MPI(MPI_Type_create_resized(pair, -8, 24, &padded));
		CHECK_MPI(MPI_Type_commit(&padded));
		tm_add(&r, &in, 0, 2);
		r.lb = -8, r.extent = 24;
		tm_check_counts(padded, &r, "resized with negative lb");
		MPI_Aint tlb, text;
		CHECK_MPI(MPI_Type_get_true_extent(padded, &tlb, &text));
		CHECK_INT(tlb, 0);
		CHECK_INT(text, 8);
		/* A struct of resized types takes their bounds, not the data's. */
		int bl[2] = { 1, 1 };
		MPI_Aint dp[2] = { 0, 100 };
		MPI_Datatype ty[2] = { padded, MPI_CHAR };
		CHECK_MPI(MPI_Type_create_struct(2, bl, dp, ty, &t));
		CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
		CHECK_INT(lb, -8);
		CHECK_INT(ext, 112);  /* ub 101 padded to the int alignment: 104 - (-8) */
		CHECK_MPI(MPI_Type_free(&t));
		CHECK_MPI(MPI_Type_free(&pair));
		CHECK_MPI(MPI_Type_free(&padded));
		tm_free(&r);
	}

	/* Negative displacements in a struct with a hindexed inside. */
	{
		int hb[2] = { 1, 1 };
		MPI_Aint hd[2] = { -64, 32 };
		MPI_Datatype h;
		CHECK_MPI(MPI_Type_create_hindexed(2, hb, hd, MPI_DOUBLE, &h));
		int bl[2] = { 2, 1 };
		MPI_Aint dp[2] = { -200, 0 };
		MPI_Datatype ty[2] = { h, MPI_INT };
		CHECK_MPI(MPI_Type_create_struct(2, bl, dp, ty, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		struct tm th = { 0 };
		tm_add(&th, &dbl, -64, 1);
		tm_add(&th, &dbl, 32, 1);
		th.lb = -64, th.extent = 104;
		tm_add(&r, &th, -200, 2);
		tm_add(&r, &in, 0, 1);
		r.lb = -264, r.extent = 264 + 8;  /* ub = max(-200+104+40, 4) = 4, padded to 8 */
		tm_check_counts(t, &r, "struct with negative displacements");
		CHECK_MPI(MPI_Type_free(&h));
		CHECK_MPI(MPI_Type_free(&t));
		tm_free(&th);
		tm_free(&r);
	}

	tm_free(&in);
	tm_free(&dbl);
	MPI_Finalize();
	return 0;
}
