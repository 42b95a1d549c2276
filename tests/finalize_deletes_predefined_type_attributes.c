/* finalize_deletes_predefined_type_attributes: attributes a rank sets on predefined
 * datatypes are per rank, and MPI_Finalize runs their delete callbacks (with the type's
 * handle), while the attributes deleted earlier are not deleted again. */
/* ranks: 1 2 4 */
#include "check.h"

static int calls, on_int, on_double;

static int del(MPI_Datatype t, int key, void *val, void *extra)
{
	int done;

	MPI_Finalized(&done);
	CHECK_INT(done, 0);
	calls++;
	if (t == MPI_INT)
		on_int = (int)(intptr_t)val;
	else if (t == MPI_DOUBLE)
		on_double = (int)(intptr_t)val;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int k, rank, flag;
	void *v;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, del, &k, NULL));
	CHECK_MPI(MPI_Type_set_attr(MPI_INT, k, (void *)(intptr_t)(100 + rank)));
	CHECK_MPI(MPI_Type_set_attr(MPI_DOUBLE, k, (void *)(intptr_t)(200 + rank)));
	CHECK_MPI(MPI_Type_set_attr(MPI_CHAR, k, (void *)1));
	CHECK_MPI(MPI_Type_delete_attr(MPI_CHAR, k));
	CHECK_INT(calls, 1);
	CHECK_MPI(MPI_Type_get_attr(MPI_INT, k, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((int)(intptr_t)v, 100 + rank);    /* every rank sees its own value */
	CHECK_MPI(MPI_Type_free_keyval(&k));        /* the attributes keep the keyval alive */
	CHECK_MPI(MPI_Finalize());
	if (calls != 3 || on_int != 100 + rank || on_double != 200 + rank) {
		fprintf(stderr, "rank %d: %d delete calls, int %d, double %d\n", rank, calls,
			on_int, on_double);
		return 1;
	}
	return 0;
}
