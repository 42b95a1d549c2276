/* comm_dup_failed_copy_gives_comm_null: when an attribute copy callback fails,
 * MPI_Comm_dup, MPI_Comm_dup_with_info, MPI_Comm_idup and MPI_Comm_idup_with_info return
 * its error (MPI_ERRORS_RETURN), set *newcomm to MPI_COMM_NULL, and the attributes copied
 * before it are deleted through their delete callback (none is left behind); afterwards
 * the parent still duplicates once the failing attribute is gone. */
/* ranks: 1 2 4 16 64 */
#include "check.h"

static int copies, deletes;

static int copy_ok(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
	copies++;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

static int copy_fails(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
	return MPI_ERR_OTHER;
}

static int count_delete(MPI_Comm c, int kv, void *val, void *extra)
{
	deletes++;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int ok_kv, bad_kv, value = 1, rc, rank;
	MPI_Comm dup;
	MPI_Request req;
	MPI_Info info;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_create_keyval(copy_ok, count_delete, &ok_kv, NULL));
	CHECK_MPI(MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &bad_kv, NULL));
	/* Both attributes on a communicator of its own; copied newest first or oldest first,
	 * the good one is copied in one of the calls' runs before the bad one fails, or not:
	 * copies == deletes holds either way. */
	MPI_Comm base;
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));
	CHECK_MPI(MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_attr(base, bad_kv, &value));
	CHECK_MPI(MPI_Comm_set_attr(base, ok_kv, &value));
	CHECK_MPI(MPI_Info_create(&info));

	for (int form = 0; form < 4; form++) {
		dup = MPI_COMM_WORLD;
		req = MPI_REQUEST_NULL;
		copies = deletes = 0;
		switch (form) {
		case 0: rc = MPI_Comm_dup(base, &dup); break;
		case 1: rc = MPI_Comm_dup_with_info(base, info, &dup); break;
		case 2: rc = MPI_Comm_idup(base, &dup, &req); break;
		default: rc = MPI_Comm_idup_with_info(base, info, &dup, &req); break;
		}
		CHECK_CLASS(rc, MPI_ERR_OTHER);
		CHECK(dup == MPI_COMM_NULL);
		CHECK(req == MPI_REQUEST_NULL);
		CHECK_INT(deletes, copies);
	}
	/* Without the failing attribute the parent duplicates, and the good one is copied. */
	CHECK_MPI(MPI_Comm_delete_attr(base, bad_kv));
	copies = deletes = 0;
	CHECK_MPI(MPI_Comm_dup(base, &dup));
	CHECK_INT(copies, 1);
	int *got, flag = 0;
	CHECK_MPI(MPI_Comm_get_attr(dup, ok_kv, &got, &flag));
	CHECK_INT(flag, 1);
	CHECK(got == &value);
	int sum = 0, one = 1, size;
	CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup));
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_INT(sum, size);
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_INT(deletes, 1);
	CHECK_MPI(MPI_Comm_free(&base));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Comm_free_keyval(&ok_kv));
	CHECK_MPI(MPI_Comm_free_keyval(&bad_kv));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
