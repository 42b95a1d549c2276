/* attr_copy_delete_callbacks_counted: MPI_Comm_dup calls each keyval's copy callback once
 * and keeps the attribute only if it says so; set over an existing value, delete_attr and
 * Comm_free call the delete callback once per value; freed keyvals outlive their uses. */
/* ranks: 1 2 4 */
#include "check.h"

static int copies, deletes, last_deleted;

static int copy_cb(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
	copies++;
	CHECK_INT(*(int *)extra, 42);
	*(void **)out = (void *)((char *)in + 1);
	*flag = 1;
	return MPI_SUCCESS;
}

static int delete_cb(MPI_Comm comm, int key, void *val, void *extra)
{
	deletes++;
	last_deleted = (int)(intptr_t)val;
	return MPI_SUCCESS;
}

static int failing_delete(MPI_Comm comm, int key, void *val, void *extra)
{
	return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
	int extra = 42, k1, k2, k3, flag;
	void *v;
	MPI_Comm a, b;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_create_keyval(copy_cb, delete_cb, &k1, &extra));
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &k2, NULL));
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k3, NULL));
	CHECK(k1 != k2 && k2 != k3);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));

	CHECK_MPI(MPI_Comm_set_attr(a, k1, (void *)100));
	CHECK_MPI(MPI_Comm_set_attr(a, k2, (void *)200));
	CHECK_MPI(MPI_Comm_set_attr(a, k3, (void *)300));
	/* Replacing calls delete on the old value. */
	CHECK_MPI(MPI_Comm_set_attr(a, k2, (void *)201));
	CHECK_INT(deletes, 1);
	CHECK_INT(last_deleted, 200);

	CHECK_MPI(MPI_Comm_dup(a, &b));
	CHECK_INT(copies, 1);
	CHECK_MPI(MPI_Comm_get_attr(b, k1, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 101);
	CHECK_MPI(MPI_Comm_get_attr(b, k2, &v, &flag));
	CHECK_INT(flag, 0);   /* MPI_COMM_NULL_COPY_FN: not copied */
	CHECK_MPI(MPI_Comm_get_attr(b, k3, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 300);
	CHECK_MPI(MPI_Comm_get_attr(a, k2, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 201);

	/* delete_attr: once, and then it is gone. */
	CHECK_MPI(MPI_Comm_delete_attr(a, k2));
	CHECK_INT(deletes, 2);
	CHECK_INT(last_deleted, 201);
	CHECK_MPI(MPI_Comm_get_attr(a, k2, &v, &flag));
	CHECK_INT(flag, 0);
	MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
	CHECK_CLASS(MPI_Comm_delete_attr(a, k2), MPI_ERR_KEYVAL);

	/* Freeing the keyval keeps the attributes using it; the callbacks still run. */
	CHECK_MPI(MPI_Comm_free_keyval(&k1));
	CHECK_INT(k1, MPI_KEYVAL_INVALID);

	/* Comm_free: one delete per attribute with a delete callback (k1 on a, k1 on b). */
	deletes = 0;
	CHECK_MPI(MPI_Comm_free(&a));
	CHECK_INT(deletes, 1);
	CHECK_INT(last_deleted, 100);
	CHECK_MPI(MPI_Comm_free(&b));
	CHECK_INT(deletes, 2);
	CHECK_INT(last_deleted, 101);
	CHECK_INT(copies, 1);

	/* A failing delete callback makes Comm_free fail and keeps the communicator. */
	int k4;
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &k4, NULL));
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
	MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Comm_set_attr(a, k4, NULL));
	CHECK_CLASS(MPI_Comm_free(&a), MPI_ERR_OTHER);
	CHECK(a != MPI_COMM_NULL);
	CHECK_MPI(MPI_Comm_free_keyval(&k2));
	CHECK_MPI(MPI_Comm_free_keyval(&k3));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
