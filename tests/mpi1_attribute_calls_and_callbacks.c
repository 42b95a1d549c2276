/* mpi1_attribute_calls_and_callbacks: MPI-1's MPI_Keyval_create, MPI_Attr_put,
 * MPI_Attr_get, MPI_Attr_delete and MPI_Keyval_free behave as the MPI_Comm_* calls on the
 * same keyvals; the predefined callbacks are functions (their addresses can be taken and
 * they can be called): MPI_DUP_FN and MPI_COMM_DUP_FN copy the value, MPI_NULL_COPY_FN and
 * MPI_COMM_NULL_COPY_FN ask for no copy, MPI_NULL_DELETE_FN does nothing, and the
 * MPI_TYPE_* and MPI_WIN_* ones do the same. */
/* ranks: 1 2 4 */
#include "check.h"

static int deletes;

static int count_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
	deletes++;
	CHECK(extra == &deletes);
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int dup_kv, null_kv, value = 7, *got, flag, out_flag;
	void *out;
	MPI_Comm dup;
	MPI_Copy_function *copy_fns[] = { &MPI_DUP_FN, &MPI_NULL_COPY_FN };
	MPI_Delete_function *del_fn = &MPI_NULL_DELETE_FN;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, count_delete, &dup_kv, &deletes));
	CHECK_MPI(MPI_Keyval_create(copy_fns[1], del_fn, &null_kv, NULL));
	CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, dup_kv, &value));
	CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, null_kv, &value));
	CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, dup_kv, &got, &flag));
	CHECK_INT(flag, 1);
	CHECK(got == &value);
	/* The same keyvals through MPI-2's calls. */
	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, null_kv, &got, &flag));
	CHECK_INT(flag, 1);
	CHECK(got == &value);
	/* Predefined attributes answer MPI_Attr_get too. */
	CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &got, &flag));
	CHECK_INT(flag, 1);
	CHECK_CMP(*got, >=, 32767);

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Attr_get(dup, dup_kv, &got, &flag));
	CHECK_INT(flag, 1);
	CHECK(got == &value);
	CHECK_MPI(MPI_Attr_get(dup, null_kv, &got, &flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Attr_delete(dup, dup_kv));
	CHECK_INT(deletes, 1);
	CHECK_MPI(MPI_Attr_get(dup, dup_kv, &got, &flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_INT(deletes, 1);

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Attr_delete(MPI_COMM_WORLD, 12345), MPI_ERR_KEYVAL);
	CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, dup_kv));
	CHECK_INT(deletes, 2);
	CHECK_MPI(MPI_Keyval_free(&dup_kv));
	CHECK_INT(dup_kv, MPI_KEYVAL_INVALID);
	CHECK_CLASS(MPI_Keyval_free(&dup_kv), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Attr_put(MPI_COMM_WORLD, dup_kv, &value), MPI_ERR_KEYVAL);
	CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, null_kv));
	CHECK_MPI(MPI_Keyval_free(&null_kv));

	/* The callbacks are functions: their addresses can be taken. */
	MPI_Comm_copy_attr_function *comm_copy[] = { &MPI_COMM_DUP_FN, &MPI_COMM_NULL_COPY_FN };
	MPI_Type_copy_attr_function *type_copy[] = { &MPI_TYPE_DUP_FN, &MPI_TYPE_NULL_COPY_FN };
	MPI_Win_copy_attr_function *win_copy[] = { &MPI_WIN_DUP_FN, &MPI_WIN_NULL_COPY_FN };
	MPI_Comm_delete_attr_function *comm_del = &MPI_COMM_NULL_DELETE_FN;
	MPI_Type_delete_attr_function *type_del = &MPI_TYPE_NULL_DELETE_FN;
	MPI_Win_delete_attr_function *win_del = &MPI_WIN_NULL_DELETE_FN;
	CHECK(comm_copy[0] != comm_copy[1] && type_copy[0] != type_copy[1] &&
	      win_copy[0] != win_copy[1]);
	CHECK(comm_del != NULL && type_del != NULL && win_del != NULL);
	CHECK_MPI(comm_copy[0](MPI_COMM_WORLD, 0, NULL, &value, &out, &out_flag));
	CHECK(out == &value && out_flag == 1);

	/* The callbacks called directly. */
	out = NULL;
	out_flag = 0;
	CHECK_MPI(MPI_DUP_FN(MPI_COMM_WORLD, 0, NULL, &value, &out, &out_flag));
	CHECK(out == &value && out_flag == 1);
	CHECK_MPI(MPI_COMM_DUP_FN(MPI_COMM_WORLD, 0, NULL, &value, &out, &out_flag));
	CHECK(out == &value && out_flag == 1);
	CHECK_MPI(MPI_TYPE_DUP_FN(MPI_INT, 0, NULL, &deletes, &out, &out_flag));
	CHECK(out == &deletes && out_flag == 1);
	CHECK_MPI(MPI_WIN_DUP_FN(MPI_WIN_NULL, 0, NULL, &value, &out, &out_flag));
	CHECK(out == &value && out_flag == 1);
	CHECK_MPI(MPI_NULL_COPY_FN(MPI_COMM_WORLD, 0, NULL, &value, &out, &out_flag));
	CHECK_INT(out_flag, 0);
	out_flag = 1;
	CHECK_MPI(MPI_COMM_NULL_COPY_FN(MPI_COMM_WORLD, 0, NULL, &value, &out, &out_flag));
	CHECK_INT(out_flag, 0);
	out_flag = 1;
	CHECK_MPI(MPI_TYPE_NULL_COPY_FN(MPI_INT, 0, NULL, &value, &out, &out_flag));
	CHECK_INT(out_flag, 0);
	out_flag = 1;
	CHECK_MPI(MPI_WIN_NULL_COPY_FN(MPI_WIN_NULL, 0, NULL, &value, &out, &out_flag));
	CHECK_INT(out_flag, 0);
	CHECK_MPI(MPI_NULL_DELETE_FN(MPI_COMM_WORLD, 0, &value, NULL));
	CHECK_MPI(MPI_COMM_NULL_DELETE_FN(MPI_COMM_WORLD, 0, &value, NULL));
	CHECK_MPI(MPI_TYPE_NULL_DELETE_FN(MPI_INT, 0, &value, NULL));
	CHECK_MPI(MPI_WIN_NULL_DELETE_FN(MPI_WIN_NULL, 0, &value, NULL));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
