/* type_constructors_match_reference_typemaps: every datatype constructor yields the typemap,
 * size, bounds, envelope and contents MPI 4.1 chapter 5 defines, moved byte-exact by pack,
 * unpack and point-to-point (eager and large). */
/* ranks: 1 2 */
#include <stddef.h>
#include "typemap.h"

static void check_envelope(MPI_Datatype t, int combiner, int ni, int na, int nt)
{
	int a, b, c, d;

	CHECK_MPI(MPI_Type_get_envelope(t, &a, &b, &c, &d));
	CHECK_INT(d, combiner);
	CHECK_INT(a, ni);
	CHECK_INT(b, na);
	CHECK_INT(c, nt);
}

static void check_true(MPI_Datatype t, long tlb, long text)
{
	MPI_Aint lb, ext;
	MPI_Count lbx, extx;

	CHECK_MPI(MPI_Type_get_true_extent(t, &lb, &ext));
	CHECK_INT(lb, tlb);
	CHECK_INT(ext, text);
	CHECK_MPI(MPI_Type_get_true_extent_x(t, &lbx, &extx));
	CHECK_INT(lbx, tlb);
	CHECK_INT(extx, text);
}

int main(int argc, char **argv)
{
	MPI_Datatype t, u;
	struct tm in = tm_basic(4), dbl = tm_basic(8), r = { 0 };
	int ints[16];
	MPI_Aint aints[8];
	MPI_Datatype types[4];

	MPI_Init(&argc, &argv);

	/* contiguous(5, int) */
	CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	tm_add(&r, &in, 0, 5);
	r.lb = 0, r.extent = 20;
	tm_check_counts(t, &r, "contiguous");
	check_true(t, 0, 20);
	check_envelope(t, MPI_COMBINER_CONTIGUOUS, 1, 0, 1);
	CHECK_MPI(MPI_Type_get_contents(t, 1, 0, 1, ints, aints, types));
	CHECK_INT(ints[0], 5);
	CHECK(types[0] == MPI_INT);
	CHECK_MPI(MPI_Type_free(&t));
	CHECK(t == MPI_DATATYPE_NULL);
	tm_free(&r);

	/* vector(3, 2, 4, double): blocks of 2 doubles every 4 doubles */
	CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	for (int i = 0; i < 3; i++)
		tm_add(&r, &dbl, i * 32, 2);
	r.lb = 0, r.extent = 2 * 32 + 16;
	tm_check_counts(t, &r, "vector");
	check_envelope(t, MPI_COMBINER_VECTOR, 3, 0, 1);
	CHECK_MPI(MPI_Type_get_contents(t, 3, 0, 1, ints, aints, types));
	CHECK_INT(ints[0], 3);
	CHECK_INT(ints[1], 2);
	CHECK_INT(ints[2], 4);
	CHECK_MPI(MPI_Type_free(&t));
	tm_free(&r);

	/* hvector(4, 1, 12 bytes, short) */
	CHECK_MPI(MPI_Type_create_hvector(4, 1, 12, MPI_SHORT, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	struct tm sh = tm_basic(2);
	for (int i = 0; i < 4; i++)
		tm_add(&r, &sh, i * 12, 1);
	r.lb = 0, r.extent = 3 * 12 + 2;
	tm_check_counts(t, &r, "hvector");
	check_envelope(t, MPI_COMBINER_HVECTOR, 2, 1, 1);
	CHECK_MPI(MPI_Type_get_contents(t, 2, 1, 1, ints, aints, types));
	CHECK_INT(aints[0], 12);
	CHECK_MPI(MPI_Type_free(&t));
	tm_free(&r);

	/* indexed: blocks out of address order stay in typemap order */
	{
		int bl[3] = { 2, 0, 3 }, dp[3] = { 5, 1, 0 };
		CHECK_MPI(MPI_Type_indexed(3, bl, dp, MPI_INT, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		tm_add(&r, &in, 20, 2);
		tm_add(&r, &in, 0, 3);
		r.lb = 0, r.extent = 28;
		tm_check_counts(t, &r, "indexed");
		check_true(t, 0, 28);
		check_envelope(t, MPI_COMBINER_INDEXED, 7, 0, 1);
		CHECK_MPI(MPI_Type_get_contents(t, 7, 0, 1, ints, aints, types));
		CHECK_INT(ints[0], 3);
		CHECK_INT(ints[1], 2);
		CHECK_INT(ints[3], 3);
		CHECK_INT(ints[4], 5);
		CHECK_INT(ints[6], 0);
		CHECK_MPI(MPI_Type_free(&t));
		tm_free(&r);
	}

	/* hindexed with byte displacements, one negative */
	{
		int bl[2] = { 1, 2 };
		MPI_Aint dp[2] = { 16, -8 };
		CHECK_MPI(MPI_Type_create_hindexed(2, bl, dp, MPI_INT, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		tm_add(&r, &in, 16, 1);
		tm_add(&r, &in, -8, 2);
		r.lb = -8, r.extent = 28;
		tm_check_counts(t, &r, "hindexed");
		check_true(t, -8, 28);
		check_envelope(t, MPI_COMBINER_HINDEXED, 3, 2, 1);
		CHECK_MPI(MPI_Type_free(&t));
		tm_free(&r);
	}

	/* indexed_block and hindexed_block */
	{
		int dp[3] = { 6, 0, 3 };
		MPI_Aint hdp[3] = { 48, 0, 24 };
		CHECK_MPI(MPI_Type_create_indexed_block(3, 2, dp, MPI_DOUBLE, &t));
		CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, hdp, MPI_DOUBLE, &u));
		CHECK_MPI(MPI_Type_commit(&t));
		CHECK_MPI(MPI_Type_commit(&u));
		tm_add(&r, &dbl, 48, 2);
		tm_add(&r, &dbl, 0, 2);
		tm_add(&r, &dbl, 24, 2);
		r.lb = 0, r.extent = 64;
		tm_check_counts(t, &r, "indexed_block");
		tm_check_counts(u, &r, "hindexed_block");
		check_envelope(t, MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1);
		check_envelope(u, MPI_COMBINER_HINDEXED_BLOCK, 2, 3, 1);
		CHECK_MPI(MPI_Type_free(&t));
		CHECK_MPI(MPI_Type_free(&u));
		tm_free(&r);
	}

	/* struct { char c; double d[2]; int i; }: padded to the double's alignment */
	{
		struct s { char c; double d[2]; int i; };
		int bl[3] = { 1, 2, 1 };
		MPI_Aint dp[3] = { offsetof(struct s, c), offsetof(struct s, d),
				   offsetof(struct s, i) };
		MPI_Datatype ty[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT };
		CHECK_MPI(MPI_Type_create_struct(3, bl, dp, ty, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		struct tm ch = tm_basic(1);
		tm_add(&r, &ch, (long)offsetof(struct s, c), 1);
		tm_add(&r, &dbl, (long)offsetof(struct s, d), 2);
		tm_add(&r, &in, (long)offsetof(struct s, i), 1);
		r.lb = 0, r.extent = sizeof(struct s);
		tm_check_counts(t, &r, "struct");
		check_true(t, 0, (long)offsetof(struct s, i) + 4);
		check_envelope(t, MPI_COMBINER_STRUCT, 4, 3, 3);
		CHECK_MPI(MPI_Type_get_contents(t, 4, 3, 3, ints, aints, types));
		CHECK(types[0] == MPI_CHAR && types[1] == MPI_DOUBLE && types[2] == MPI_INT);
		CHECK_INT(aints[1], offsetof(struct s, d));
		CHECK_MPI(MPI_Type_free(&t));
		tm_free(&r);
		tm_free(&ch);
	}

	/* subarray 2-D, C order: rows 1..2, columns 2..4 of a 4x6 int array */
	{
		int sizes[2] = { 4, 6 }, sub[2] = { 2, 3 }, st[2] = { 1, 2 };
		CHECK_MPI(MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		for (int i = 1; i <= 2; i++)
			tm_add(&r, &in, (i * 6 + 2) * 4, 3);
		r.lb = 0, r.extent = 4 * 6 * 4;
		tm_check_counts(t, &r, "subarray C");
		check_true(t, (1 * 6 + 2) * 4, (6 + 3) * 4);
		check_envelope(t, MPI_COMBINER_SUBARRAY, 8, 0, 1);
		CHECK_MPI(MPI_Type_free(&t));
		tm_free(&r);
	}

	/* subarray 3-D, Fortran order: sizes 3x4x5, subsizes 2x2x2 at 1,1,2 */
	{
		int sizes[3] = { 3, 4, 5 }, sub[3] = { 2, 2, 2 }, st[3] = { 1, 1, 2 };
		CHECK_MPI(MPI_Type_create_subarray(3, sizes, sub, st, MPI_ORDER_FORTRAN, MPI_DOUBLE,
						   &t));
		CHECK_MPI(MPI_Type_commit(&t));
		for (int k = 2; k < 4; k++)
			for (int j = 1; j < 3; j++)
				tm_add(&r, &dbl, ((k * 4 + j) * 3 + 1) * 8, 2);
		r.lb = 0, r.extent = 3 * 4 * 5 * 8;
		tm_check_counts(t, &r, "subarray Fortran");
		CHECK_MPI(MPI_Type_free(&t));
		tm_free(&r);
	}

	/* darray: 2-D 5x7 ints, block x cyclic(2) over a 2x2 grid, this is process 3 (1,1) */
	{
		int gs[2] = { 5, 7 }, di[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC },
		    da[2] = { MPI_DISTRIBUTE_DFLT_DARG, 2 }, ps[2] = { 2, 2 };
		CHECK_MPI(MPI_Type_create_darray(4, 3, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT,
						 &t));
		CHECK_MPI(MPI_Type_commit(&t));
		/* rows: block of ceil(5/2)=3, coord 1 -> rows 3,4; columns cyclic(2),
		 * coord 1 -> 2,3 and 6 */
		for (int i = 3; i < 5; i++) {
			tm_add(&r, &in, (i * 7 + 2) * 4, 2);
			tm_add(&r, &in, (i * 7 + 6) * 4, 1);
		}
		r.lb = 0, r.extent = 5 * 7 * 4;
		tm_check_counts(t, &r, "darray");
		check_envelope(t, MPI_COMBINER_DARRAY, 4 * 2 + 4, 0, 1);
		CHECK_MPI(MPI_Type_free(&t));
		tm_free(&r);
	}

	/* resized and dup */
	{
		CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		tm_add(&r, &in, 0, 1);
		r.lb = -4, r.extent = 16;
		tm_check_counts(t, &r, "resized");
		check_true(t, 0, 4);
		check_envelope(t, MPI_COMBINER_RESIZED, 0, 2, 1);
		CHECK_MPI(MPI_Type_get_contents(t, 0, 2, 1, ints, aints, types));
		CHECK_INT(aints[0], -4);
		CHECK_INT(aints[1], 16);
		CHECK_MPI(MPI_Type_dup(t, &u));
		tm_check_counts(u, &r, "dup");
		check_envelope(u, MPI_COMBINER_DUP, 0, 0, 1);
		CHECK_MPI(MPI_Type_get_contents(u, 0, 0, 1, ints, aints, types));
		CHECK(types[0] == t);
		CHECK_MPI(MPI_Type_free(&types[0]));  /* get_contents gave a new handle */
		CHECK_MPI(MPI_Type_free(&t));
		tm_check_counts(u, &r, "dup after its parent was freed");
		CHECK_MPI(MPI_Type_free(&u));
		tm_free(&r);
	}

	/* predefined: MPI_COMBINER_NAMED; names */
	{
		char name[MPI_MAX_OBJECT_NAME];
		int len;
		check_envelope(MPI_DOUBLE, MPI_COMBINER_NAMED, 0, 0, 0);
		CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE, name, &len));
		CHECK_STR(name, "MPI_DOUBLE");
		CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &t));
		CHECK_MPI(MPI_Type_get_name(t, name, &len));
		CHECK_INT(len, 0);
		CHECK_MPI(MPI_Type_set_name(t, "pair of doubles"));
		CHECK_MPI(MPI_Type_get_name(t, name, &len));
		CHECK_STR(name, "pair of doubles");
		CHECK_INT(len, 15);
		CHECK_MPI(MPI_Type_free(&t));
	}

	/* large-count queries */
	{
		MPI_Count sz, lb, ext;
		CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &t));
		CHECK_MPI(MPI_Type_size_x(t, &sz));
		CHECK_INT(sz, 12);
		CHECK_MPI(MPI_Type_size_c(t, &sz));
		CHECK_INT(sz, 12);
		CHECK_MPI(MPI_Type_get_extent_x(t, &lb, &ext));
		CHECK_INT(lb, 0);
		CHECK_INT(ext, 20);
		CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &ext));
		CHECK_INT(ext, 20);
		CHECK_MPI(MPI_Type_free(&t));
	}

	/* addresses */
	{
		double a[4];
		MPI_Aint p0, p3;
		CHECK_MPI(MPI_Get_address(&a[0], &p0));
		CHECK_MPI(MPI_Get_address(&a[3], &p3));
		CHECK_INT(MPI_Aint_diff(p3, p0), 24);
		CHECK_INT(MPI_Aint_add(p0, 24), p3);
	}

	tm_free(&in);
	tm_free(&dbl);
	tm_free(&sh);
	MPI_Finalize();
	return 0;
}
