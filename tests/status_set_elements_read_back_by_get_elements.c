/* status_set_elements_read_back_by_get_elements: MPI_Status_set_elements(_x, _c) make
 * Get_elements(_c) return the count set (beyond INT_MAX too) and Get_count the whole elements
 * or MPI_UNDEFINED, for predefined, pair and struct types; bad counts are MPI_ERR_COUNT. */
/* ranks: 1 */
#include <limits.h>
#include "check.h"

/* Set `n` basic elements of `t` with the _c binding; Get_elements_c must give n back and
 * Get_count_c `count` (whole elements of t, or MPI_UNDEFINED). */
static void round_trip(MPI_Datatype t, MPI_Count n, MPI_Count count)
{
	MPI_Status st;
	MPI_Count got;

	memset(&st, 0, sizeof(st));
	CHECK_MPI(MPI_Status_set_elements_c(&st, t, n));
	CHECK_MPI(MPI_Get_elements_c(&st, t, &got));
	CHECK_INT(got, n);
	CHECK_MPI(MPI_Get_count_c(&st, t, &got));
	CHECK_INT(got, count);
}

int main(int argc, char **argv)
{
	MPI_Datatype pair_struct, empty;
	MPI_Status st;
	MPI_Count big;
	int n;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	/* The int and _x bindings, read back through every getter. */
	CHECK_MPI(MPI_Status_set_elements(&st, MPI_DOUBLE, 7));
	CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE, &n));
	CHECK_INT(n, 7);
	CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
	CHECK_INT(n, 7);
	CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &n));
	CHECK_INT(n, 56);
	CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_INT, 3));
	CHECK_MPI(MPI_Get_elements_x(&st, MPI_INT, &big));
	CHECK_INT(big, 3);

	round_trip(MPI_INT, 0, 0);
	round_trip(MPI_INT, (MPI_Count)INT_MAX + 10, (MPI_Count)INT_MAX + 10);
	/* A pair is two basic elements: an odd count ends inside one. */
	round_trip(MPI_DOUBLE_INT, 6, 3);
	round_trip(MPI_DOUBLE_INT, 7, MPI_UNDEFINED);
	/* { char, MPI_2INT }: three basic elements, 9 bytes of data. */
	MPI_Datatype types[2] = { MPI_CHAR, MPI_2INT };
	int blens[2] = { 1, 1 };
	MPI_Aint disps[2] = { 0, 4 };
	CHECK_MPI(MPI_Type_create_struct(2, blens, disps, types, &pair_struct));
	CHECK_MPI(MPI_Type_commit(&pair_struct));
	for (MPI_Count k = 0; k < 10; k++)
		round_trip(pair_struct, k, k % 3 == 0 ? k / 3 : MPI_UNDEFINED);
	/* Beyond INT_MAX, the int getters say MPI_UNDEFINED. */
	CHECK_MPI(MPI_Status_set_elements_c(&st, pair_struct, (MPI_Count)INT_MAX * 3 + 3));
	CHECK_MPI(MPI_Get_elements(&st, pair_struct, &n));
	CHECK_INT(n, MPI_UNDEFINED);
	CHECK_MPI(MPI_Get_count(&st, pair_struct, &n));
	CHECK_INT(n, MPI_UNDEFINED);
	CHECK_MPI(MPI_Get_count_c(&st, pair_struct, &big));
	CHECK_INT(big, (MPI_Count)INT_MAX + 1);

	CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
	CHECK_MPI(MPI_Type_commit(&empty));
	round_trip(empty, 0, 0);
	CHECK_CLASS(MPI_Status_set_elements_c(&st, empty, 1), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Status_set_elements(&st, MPI_INT, -1), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Status_set_elements_c(&st, MPI_INT, LLONG_MAX / 2), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Status_set_elements_c(&st, MPI_DATATYPE_NULL, 1), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Status_set_elements_c(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG);

	CHECK_MPI(MPI_Type_free(&empty));
	CHECK_MPI(MPI_Type_free(&pair_struct));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
