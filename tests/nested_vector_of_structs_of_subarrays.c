/* nested_vector_of_structs_of_subarrays: a vector of structs whose members are subarrays (and
 * a resized struct inside an hindexed inside a contiguous) moves byte-exact, eager and large. */
/* ranks: 1 2 */
#include "typemap.h"

int main(int argc, char **argv)
{
	MPI_Datatype sub, st, vec, rs, hx, top;
	struct tm in = tm_basic(4), dbl = tm_basic(8), tsub = { 0 }, tst = { 0 }, tvec = { 0 };

	MPI_Init(&argc, &argv);

	/* sub: the 2x2 block at (1,1) of a 3x4 int array, C order: extent 48 */
	int sizes[2] = { 3, 4 }, subs[2] = { 2, 2 }, starts[2] = { 1, 1 };
	CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &sub));
	for (int i = 1; i < 3; i++)
		tm_add(&tsub, &in, (i * 4 + 1) * 4, 2);
	tsub.lb = 0, tsub.extent = 48;

	/* st: { double at 0; sub at 8; 2 x double at 56 }: extent 72 */
	int bl[3] = { 1, 1, 2 };
	MPI_Aint dp[3] = { 0, 8, 56 };
	MPI_Datatype ty[3] = { MPI_DOUBLE, sub, MPI_DOUBLE };
	CHECK_MPI(MPI_Type_create_struct(3, bl, dp, ty, &st));
	tm_add(&tst, &dbl, 0, 1);
	tm_add(&tst, &tsub, 8, 1);
	tm_add(&tst, &dbl, 56, 2);
	tst.lb = 0, tst.extent = 72;

	/* vec: 3 blocks of 2 structs, every 5 structs */
	CHECK_MPI(MPI_Type_vector(3, 2, 5, st, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	for (int i = 0; i < 3; i++)
		tm_add(&tvec, &tst, i * 5 * 72, 2);
	tvec.lb = 0, tvec.extent = 2 * 5 * 72 + 2 * 72;
	/* The inner types may be freed once used: the vector keeps them. */
	CHECK_MPI(MPI_Type_free(&sub));
	CHECK_MPI(MPI_Type_free(&st));
	tm_check_counts(vec, &tvec, "vector of structs of subarrays");

	/* top: contiguous(2) of hindexed { rs at 400, rs at -100 } with rs = st resized */
	{
		struct tm trs = { 0 }, thx = { 0 }, ttop = { 0 };
		MPI_Datatype ty2[3] = { MPI_DOUBLE, MPI_DATATYPE_NULL, MPI_DOUBLE };
		int bl2[3] = { 1, 1, 2 };
		CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
						   &ty2[1]));
		CHECK_MPI(MPI_Type_create_struct(3, bl2, dp, ty2, &st));
		CHECK_MPI(MPI_Type_free(&ty2[1]));
		CHECK_MPI(MPI_Type_create_resized(st, -8, 96, &rs));
		tm_add(&trs, &tst, 0, 1);
		trs.lb = -8, trs.extent = 96;
		int hb[2] = { 2, 1 };
		MPI_Aint hd[2] = { 400, -100 };
		CHECK_MPI(MPI_Type_create_hindexed(2, hb, hd, rs, &hx));
		tm_add(&thx, &trs, 400, 2);
		tm_add(&thx, &trs, -100, 1);
		thx.lb = -108, thx.extent = 400 + 96 + 96 - 8 + 108;
		CHECK_MPI(MPI_Type_contiguous(2, hx, &top));
		CHECK_MPI(MPI_Type_commit(&top));
		tm_add(&ttop, &thx, 0, 2);
		ttop.lb = thx.lb, ttop.extent = 2 * thx.extent;
		tm_check_counts(top, &ttop, "contiguous of hindexed of resized struct");
		CHECK_MPI(MPI_Type_free(&st));
		CHECK_MPI(MPI_Type_free(&rs));
		CHECK_MPI(MPI_Type_free(&hx));
		CHECK_MPI(MPI_Type_free(&top));
		tm_free(&trs);
		tm_free(&thx);
		tm_free(&ttop);
	}

	CHECK_MPI(MPI_Type_free(&vec));
	tm_free(&in);
	tm_free(&dbl);
	tm_free(&tsub);
	tm_free(&tst);
	tm_free(&tvec);
	MPI_Finalize();
	return 0;
}
