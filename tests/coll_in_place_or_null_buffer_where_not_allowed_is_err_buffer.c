/* coll_in_place_or_null_buffer_where_not_allowed_is_err_buffer: with MPI_ERRORS_RETURN,
 * MPI_IN_PLACE where a call does not take it (any recvbuf but a Gather non-root's, Bcast's
 * buffer, a Scatter root's sendbuf, a Gather non-root's sendbuf) and NULL as a buffer with
 * data (collectives, MPI_Pack's inbuf, MPI_Unpack's outbuf, MPI_Reduce_local) fail with
 * MPI_ERR_BUFFER at the call instead of being used as an address; NULL with a count of 0
 * and MPI_BOTTOM with absolute addresses stay valid. Every rank makes the same erroneous
 * call, so none waits for another, and correct collectives afterwards give right values. */
/* ranks: 1 2 3 8 */
#include "check.h"

#define N 4

int main(int argc, char **argv)
{
	int rank, size, pos;
	double s[N], r[N], *all;
	char packed[64];
	MPI_Request q;
	MPI_Comm w = MPI_COMM_WORLD;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(w, &rank);
	MPI_Comm_size(w, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
	all = malloc(sizeof *all * N * size);
	CHECK(all != NULL);
	for (int i = 0; i < N; i++)
		s[i] = rank + i;
	const int root = size - 1, is_root = rank == root;

	/* MPI_IN_PLACE as a receive buffer. */
	CHECK_CLASS(MPI_Allreduce(s, MPI_IN_PLACE, N, MPI_DOUBLE, MPI_SUM, w), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Iallreduce(s, MPI_IN_PLACE, N, MPI_DOUBLE, MPI_SUM, w, &q),
		    MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Allreduce_init(s, MPI_IN_PLACE, N, MPI_DOUBLE, MPI_SUM, w, MPI_INFO_NULL,
				       &q), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Allgather(s, 1, MPI_DOUBLE, MPI_IN_PLACE, 1, MPI_DOUBLE, w),
		    MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Alltoall(s, 1, MPI_DOUBLE, MPI_IN_PLACE, 1, MPI_DOUBLE, w),
		    MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Reduce_scatter_block(all, MPI_IN_PLACE, 1, MPI_DOUBLE, MPI_SUM, w),
		    MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Scan(s, MPI_IN_PLACE, N, MPI_DOUBLE, MPI_SUM, w), MPI_ERR_BUFFER);
	/* Rooted: the root's recvbuf (Gather) or sendbuf (Scatter) is MPI_IN_PLACE; the
	 * others' sendbuf (Gather) or recvbuf (Scatter), where they do not take it either. */
	CHECK_CLASS(is_root ? MPI_Gather(s, 1, MPI_DOUBLE, MPI_IN_PLACE, 1, MPI_DOUBLE, root, w)
			    : MPI_Gather(MPI_IN_PLACE, 1, MPI_DOUBLE, r, 1, MPI_DOUBLE, root, w),
		    MPI_ERR_BUFFER);
	CHECK_CLASS(is_root ? MPI_Scatter(MPI_IN_PLACE, 1, MPI_DOUBLE, r, 1, MPI_DOUBLE, root, w)
			    : MPI_Scatter(all, 1, MPI_DOUBLE, MPI_IN_PLACE, 1, MPI_DOUBLE, root, w),
		    MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Bcast(MPI_IN_PLACE, N, MPI_DOUBLE, root, w), MPI_ERR_BUFFER);

	/* NULL with data to hold. */
	CHECK_CLASS(MPI_Allreduce(NULL, r, N, MPI_DOUBLE, MPI_SUM, w), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Allreduce(s, NULL, N, MPI_DOUBLE, MPI_SUM, w), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Alltoall(NULL, N, MPI_DOUBLE, all, N, MPI_DOUBLE, w), MPI_ERR_BUFFER);
	pos = 0;
	CHECK_CLASS(MPI_Pack(NULL, N, MPI_DOUBLE, packed, sizeof packed, &pos, w), MPI_ERR_BUFFER);
	CHECK_INT(pos, 0);
	CHECK_MPI(MPI_Pack(s, N, MPI_DOUBLE, packed, sizeof packed, &pos, w));
	pos = 0;
	CHECK_CLASS(MPI_Unpack(packed, sizeof packed, &pos, NULL, N, MPI_DOUBLE, w),
		    MPI_ERR_BUFFER);
	CHECK_INT(pos, 0);
	/* MPI_Reduce_local has no communicator: its errors are raised on MPI_COMM_SELF. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Reduce_local(NULL, r, N, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Reduce_local(s, NULL, N, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));

	/* Still valid: NULL without data, MPI_BOTTOM with absolute addresses. */
	CHECK_MPI(MPI_Allreduce(NULL, NULL, 0, MPI_DOUBLE, MPI_SUM, w));
	CHECK_MPI(MPI_Alltoall(NULL, 0, MPI_DOUBLE, all, 0, MPI_DOUBLE, w));
	MPI_Aint at;
	MPI_Datatype abs_r;
	CHECK_MPI(MPI_Get_address(r, &at));
	CHECK_MPI(MPI_Type_create_hindexed_block(1, N, &at, MPI_DOUBLE, &abs_r));
	CHECK_MPI(MPI_Type_commit(&abs_r));
	for (int i = 0; i < N; i++)
		r[i] = is_root ? 10 * i : -1;
	CHECK_MPI(MPI_Bcast(MPI_BOTTOM, 1, abs_r, root, w));
	for (int i = 0; i < N; i++)
		CHECK_DBL_CMP(r[i], ==, 10 * i);
	CHECK_MPI(MPI_Type_free(&abs_r));

	/* Correct collectives after the errors. */
	CHECK_MPI(MPI_Allreduce(s, r, N, MPI_DOUBLE, MPI_SUM, w));
	for (int i = 0; i < N; i++)
		CHECK_DBL_CMP(r[i], ==, (double)size * (size - 1) / 2 + (double)size * i);
	for (int k = 0; k < size; k++)
		all[k] = is_root ? 100 + k : -1;
	r[0] = -1;
	CHECK_MPI(MPI_Scatter(all, 1, MPI_DOUBLE, r, 1, MPI_DOUBLE, root, w));
	CHECK_DBL_CMP(r[0], ==, 100 + rank);
	CHECK_MPI(MPI_Gather(s, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, root, w));
	if (is_root)
		for (int k = 0; k < size; k++)
			CHECK_DBL_CMP(all[k], ==, k);

	free(all);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
