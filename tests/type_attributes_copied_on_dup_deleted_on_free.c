/* type_attributes_copied_on_dup_deleted_on_free: MPI_Type_dup runs each keyval's copy
 * callback once; MPI_Type_free, delete_attr and overwriting run the delete callback once per
 * value; type and communicator keyvals do not mix; MPI_INT's attributes are per rank. */
/* ranks: 1 2 */
#include "check.h"

static int copies, deletes, last_deleted;
static MPI_Datatype last_type;

static int copy_cb(MPI_Datatype old, int key, void *extra, void *in, void *out, int *flag)
{
	copies++;
	CHECK_INT(*(int *)extra, 42);
	*(void **)out = (void *)((char *)in + 1);
	*flag = 1;
	return MPI_SUCCESS;
}

static int delete_cb(MPI_Datatype type, int key, void *val, void *extra)
{
	deletes++;
	last_deleted = (int)(intptr_t)val;
	last_type = type;
	return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype old, int key, void *extra, void *in, void *out, int *flag)
{
	return MPI_ERR_OTHER;
}

static int failing_delete(MPI_Datatype type, int key, void *val, void *extra)
{
	return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
	int extra = 42, k1, k2, k3, kc, kf, flag, rank, size;
	void *v;
	MPI_Datatype t, d, d2;

	CHECK_MPI(MPI_Init(&argc, &argv));
	/* Errors without a communicator are raised on MPI_COMM_SELF. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Type_create_keyval(copy_cb, delete_cb, &k1, &extra));
	CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_cb, &k2, NULL));
	CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &k3, NULL));
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kc, NULL));
	CHECK(k1 != k2 && k2 != k3 && k3 != kc);

	CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &t));
	CHECK_MPI(MPI_Type_set_attr(t, k1, (void *)100));
	CHECK_MPI(MPI_Type_set_attr(t, k2, (void *)200));
	CHECK_MPI(MPI_Type_set_attr(t, k3, (void *)300));
	/* Replacing calls delete on the old value, with the type's handle. */
	CHECK_MPI(MPI_Type_set_attr(t, k2, (void *)201));
	CHECK_INT(deletes, 1);
	CHECK_INT(last_deleted, 200);
	CHECK(last_type == t);

	/* Dup of an uncommitted type: attributes copied all the same. */
	CHECK_MPI(MPI_Type_dup(t, &d));
	CHECK_INT(copies, 1);
	CHECK_MPI(MPI_Type_get_attr(d, k1, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 101);
	CHECK_MPI(MPI_Type_get_attr(d, k2, &v, &flag));
	CHECK_INT(flag, 0);   /* MPI_TYPE_NULL_COPY_FN: not copied */
	CHECK_MPI(MPI_Type_get_attr(d, k3, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 300);
	CHECK_MPI(MPI_Type_get_attr(t, k2, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 201);

	/* delete_attr: once, and then it is gone. */
	CHECK_MPI(MPI_Type_delete_attr(t, k2));
	CHECK_INT(deletes, 2);
	CHECK_INT(last_deleted, 201);
	CHECK_MPI(MPI_Type_get_attr(t, k2, &v, &flag));
	CHECK_INT(flag, 0);
	CHECK_CLASS(MPI_Type_delete_attr(t, k2), MPI_ERR_KEYVAL);

	/* Keyvals of one kind do not work on the other. */
	CHECK_CLASS(MPI_Type_set_attr(t, kc, NULL), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Type_get_attr(t, kc, &v, &flag), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, NULL), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, k1, &v, &flag), MPI_ERR_KEYVAL);
	int kk = kc;
	CHECK_CLASS(MPI_Type_free_keyval(&kk), MPI_ERR_KEYVAL);
	kk = k1;
	CHECK_CLASS(MPI_Comm_free_keyval(&kk), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Type_get_attr(t, MPI_TAG_UB, &v, &flag), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Type_get_attr(t, 12345, &v, &flag), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Type_set_attr(MPI_DATATYPE_NULL, k1, NULL), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_attr(t, k1, NULL, &flag), MPI_ERR_ARG);

	/* A freed keyval can name no new attribute, but its attributes keep their callbacks. */
	CHECK_MPI(MPI_Type_free_keyval(&k1));
	CHECK_INT(k1, MPI_KEYVAL_INVALID);

	/* Type_free: one delete per attribute with a delete callback (k1 on t, k1 on d). */
	deletes = 0;
	CHECK_MPI(MPI_Type_free(&t));
	CHECK_INT(deletes, 1);
	CHECK_INT(last_deleted, 100);
	CHECK_MPI(MPI_Type_commit(&d));
	CHECK_MPI(MPI_Type_free(&d));
	CHECK_INT(deletes, 2);
	CHECK_INT(last_deleted, 101);
	CHECK_INT(copies, 1);

	/* A failing copy callback fails MPI_Type_dup; a failing delete fails MPI_Type_free and
	 * keeps the type. */
	CHECK_MPI(MPI_Type_create_keyval(failing_copy, failing_delete, &kf, NULL));
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
	CHECK_MPI(MPI_Type_set_attr(t, kf, NULL));
	CHECK_CLASS(MPI_Type_dup(t, &d), MPI_ERR_OTHER);
	CHECK_CLASS(MPI_Type_free(&t), MPI_ERR_OTHER);
	CHECK(t != MPI_DATATYPE_NULL);
	CHECK_CLASS(MPI_Type_set_attr(t, kf, NULL), MPI_ERR_OTHER);   /* overwrite deletes */
	CHECK_CLASS(MPI_Type_delete_attr(t, kf), MPI_ERR_OTHER);

	/* MPI_INT: every rank keyed the same ids, but each sees only its own value. */
	CHECK_MPI(MPI_Type_create_keyval(copy_cb, delete_cb, &k1, &extra));
	CHECK_MPI(MPI_Type_get_attr(MPI_INT, k1, &v, &flag));
	CHECK_INT(flag, 0);
	if (rank == 0)
		CHECK_MPI(MPI_Type_set_attr(MPI_INT, k1, (void *)500));
	check_barrier(MPI_COMM_WORLD, 1);
	CHECK_MPI(MPI_Type_get_attr(MPI_INT, k1, &v, &flag));
	CHECK_INT(flag, rank == 0);
	if (rank == 0)
		CHECK_INT((intptr_t)v, 500);
	check_barrier(MPI_COMM_WORLD, 2);
	CHECK_MPI(MPI_Type_set_attr(MPI_INT, k1, (void *)(intptr_t)(600 + rank)));
	check_barrier(MPI_COMM_WORLD, 3);
	CHECK_MPI(MPI_Type_get_attr(MPI_INT, k1, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 600 + rank);
	CHECK_MPI(MPI_Type_get_attr(MPI_DOUBLE, k1, &v, &flag));
	CHECK_INT(flag, 0);
	/* Dup of a predefined type copies this rank's attribute. */
	copies = 0;
	CHECK_MPI(MPI_Type_dup(MPI_INT, &d2));
	CHECK_INT(copies, 1);
	CHECK_MPI(MPI_Type_get_attr(d2, k1, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 601 + rank);
	deletes = 0;
	CHECK_MPI(MPI_Type_free(&d2));
	CHECK_INT(deletes, 1);
	CHECK_MPI(MPI_Type_delete_attr(MPI_INT, k1));
	CHECK_INT(deletes, 2);
	CHECK_INT(last_deleted, 600 + rank);
	CHECK(last_type == MPI_INT);
	CHECK_MPI(MPI_Type_get_attr(MPI_INT, k1, &v, &flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Type_free_keyval(&k1));
	CHECK_MPI(MPI_Type_free_keyval(&k2));
	CHECK_MPI(MPI_Type_free_keyval(&k3));
	CHECK_MPI(MPI_Comm_free_keyval(&kc));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
