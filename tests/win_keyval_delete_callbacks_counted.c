/* win_keyval_delete_callbacks_counted: a window keyval's delete callback runs once per
 * value replaced by MPI_Win_set_attr, deleted by MPI_Win_delete_attr, and left on the
 * window at MPI_Win_free, with the window's handle and the keyval's extra state; a freed
 * keyval outlives the attributes using it; a communicator keyval is not a window keyval. */
/* ranks: 1 2 4 */
#include "check.h"

static int deletes, last_deleted, bad_extra;
static MPI_Win expect_win;

static int delete_cb(MPI_Win win, int key, void *val, void *extra)
{
	deletes++;
	last_deleted = (int)(intptr_t)val;
	if (win != expect_win || *(int *)extra != 42)
		bad_extra++;
	return MPI_SUCCESS;
}

static int copy_cb(MPI_Win win, int key, void *extra, void *in, void *out, int *flag)
{
	*flag = 0;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int extra = 42, k1, k2, k3, ck, flag, buf[4];
	void *v;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win));
	expect_win = win;
	CHECK_MPI(MPI_Win_create_keyval(copy_cb, delete_cb, &k1, &extra));
	CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_cb, &k2, &extra));
	CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &k3, NULL));
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck,
					 NULL));
	CHECK(k1 != k2 && k2 != k3 && k3 != ck);

	CHECK_MPI(MPI_Win_get_attr(win, k1, &v, &flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Win_set_attr(win, k1, (void *)100));
	CHECK_MPI(MPI_Win_set_attr(win, k2, (void *)200));
	CHECK_MPI(MPI_Win_set_attr(win, k3, (void *)300));
	CHECK_INT(deletes, 0);
	/* Replacing a value deletes the old one. */
	CHECK_MPI(MPI_Win_set_attr(win, k2, (void *)201));
	CHECK_INT(deletes, 1);
	CHECK_INT(last_deleted, 200);
	CHECK_MPI(MPI_Win_get_attr(win, k2, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT((intptr_t)v, 201);

	/* delete_attr: once, and then it is gone. */
	CHECK_MPI(MPI_Win_delete_attr(win, k2));
	CHECK_INT(deletes, 2);
	CHECK_INT(last_deleted, 201);
	CHECK_MPI(MPI_Win_get_attr(win, k2, &v, &flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Win_delete_attr(win, k2), MPI_ERR_KEYVAL);
	/* Keyvals belong to one kind of object. */
	CHECK_CLASS(MPI_Win_set_attr(win, ck, (void *)1), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Win_get_attr(win, ck, &v, &flag), MPI_ERR_KEYVAL);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, (void *)1), MPI_ERR_KEYVAL);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));

	/* A freed keyval stays alive for its attribute; MPI_Win_free runs its callback. */
	CHECK_MPI(MPI_Win_free_keyval(&k1));
	CHECK_INT(k1, MPI_KEYVAL_INVALID);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_INT(deletes, 3);
	CHECK_INT(last_deleted, 100);
	CHECK_INT(bad_extra, 0);

	CHECK_MPI(MPI_Win_free_keyval(&k2));
	CHECK_MPI(MPI_Win_free_keyval(&k3));
	CHECK_MPI(MPI_Comm_free_keyval(&ck));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
