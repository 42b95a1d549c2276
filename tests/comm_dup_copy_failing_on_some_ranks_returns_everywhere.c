/* comm_dup_copy_failing_on_some_ranks_returns_everywhere: an attribute copy callback that
 * fails on the odd ranks only fails MPI_Comm_dup, _dup_with_info, _idup and
 * _idup_with_info there (the error, MPI_COMM_NULL) while the even ranks get their
 * communicator (the nonblocking forms' requests complete): no rank is left waiting, and
 * the parent's collectives after it still line up (an MPI_Allreduce on it, then a
 * duplicate of it that every rank gets once the attribute is gone). */
/* ranks: 2 4 16 64 */
#include "check.h"

static int copy_fails_on_odd(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
	int rank;

	MPI_Comm_rank(c, &rank);
	if (rank % 2)
		return MPI_ERR_OTHER;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int rank, size, kv, value = 3, rc, one = 1, sum;
	MPI_Comm base, dup;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));
	CHECK_MPI(MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_create_keyval(copy_fails_on_odd, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
	CHECK_MPI(MPI_Comm_set_attr(base, kv, &value));
	for (int form = 0; form < 4; form++) {
		MPI_Request req = MPI_REQUEST_NULL;

		dup = MPI_COMM_WORLD;
		rc = form == 0	 ? MPI_Comm_dup(base, &dup)
		     : form == 1 ? MPI_Comm_dup_with_info(base, MPI_INFO_NULL, &dup)
		     : form == 2 ? MPI_Comm_idup(base, &dup, &req)
				 : MPI_Comm_idup_with_info(base, MPI_INFO_NULL, &dup, &req);
		if (rank % 2) {
			CHECK_CLASS(rc, MPI_ERR_OTHER);
			CHECK(dup == MPI_COMM_NULL);
			CHECK(req == MPI_REQUEST_NULL);
		} else {
			CHECK_MPI(rc);
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
			CHECK(dup != MPI_COMM_NULL && dup != MPI_COMM_WORLD);
			int dsize;
			CHECK_MPI(MPI_Comm_size(dup, &dsize));
			CHECK_INT(dsize, size);
			CHECK_MPI(MPI_Comm_free(&dup));
		}
		sum = 0;
		CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, base));
		CHECK_INT(sum, size);
	}
	CHECK_MPI(MPI_Comm_delete_attr(base, kv));
	CHECK_MPI(MPI_Comm_dup(base, &dup));
	sum = 0;
	CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup));
	CHECK_INT(sum, size);
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&base));
	CHECK_MPI(MPI_Comm_free_keyval(&kv));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
