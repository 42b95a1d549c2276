/* coll_large_count_bad_counts_return_err_count: with MPI_ERRORS_RETURN, a negative count, a count (or v/w array entry) whose bytes overflow, or more than INT_MAX elements for a user op's int length, make the MPI_…_c collectives (blocking, nonblocking, persistent) and the int twins fail with MPI_ERR_COUNT, and the calls still work afterwards */
/* ranks: 1 2 4 */
#include <stdint.h>

#include "check.h"

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
	for (int i = 0; i < *len; i++)
		((char *)inout)[i] += ((char *)in)[i];
}

int main(int argc, char **argv)
{
	MPI_Comm w = MPI_COMM_WORLD, self = MPI_COMM_SELF;
	MPI_Request q;
	MPI_Op op;
	MPI_Datatype big;
	int n, me, a[8] = { 0 }, b[8] = { 0 };
	/* 2^62 doubles: 2^65 bytes wrap size_t; PTRDIFF_MAX / 4 + 1 ints: past PTRDIFF_MAX. */
	const MPI_Count wrap = (MPI_Count)1 << 62, past = PTRDIFF_MAX / 4 + 1;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_size(w, &n);
	MPI_Comm_rank(w, &me);
	CHECK_MPI(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN));
	CHECK_CMP(n, <=, 8);

	/* Scalar counts: every member passes the bad count, so none joins a meeting. */
	CHECK_CLASS(MPI_Bcast_c(a, -1, MPI_INT, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Ibcast_c(a, wrap, MPI_DOUBLE, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Bcast_init_c(a, past, MPI_INT, 0, w, MPI_INFO_NULL, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Gather_c(a, -2, MPI_INT, b, 1, MPI_INT, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Scatter_c(a, 1, MPI_INT, b, past, MPI_INT, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Allgather_c(a, 1, MPI_INT, b, wrap, MPI_DOUBLE, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Ialltoall_c(a, -1, MPI_INT, b, 1, MPI_INT, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Alltoall_init_c(a, 1, MPI_INT, b, past, MPI_INT, w, MPI_INFO_NULL, &q),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Reduce_c(a, b, -1, MPI_INT, MPI_SUM, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Allreduce_c(a, b, past, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Iallreduce_c(a, b, wrap, MPI_DOUBLE, MPI_SUM, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Reduce_scatter_block_c(a, b, -3, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Scan_init_c(a, b, past, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &q),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Exscan_c(a, b, wrap, MPI_DOUBLE, MPI_SUM, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Reduce_local_c(a, b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Reduce_local_c(a, b, past, MPI_INT, MPI_SUM), MPI_ERR_COUNT);

	/* An int count can overflow too, of a datatype larger than 2^40 bytes. */
	CHECK_MPI(MPI_Type_contiguous_c((MPI_Count)1 << 40, MPI_INT, &big));
	CHECK_MPI(MPI_Type_commit(&big));
	CHECK_CLASS(MPI_Bcast(a, 1 << 23, big, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Bcast_c(a, 1 << 23, big, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Allreduce(a, b, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);

	/* Array entries: everyone sends or receives with every array, so every member
	 * checks them; the rooted v forms run on MPI_COMM_SELF, where every rank is root. */
	MPI_Count cnt[8], bad[8];
	MPI_Aint dsp[8];
	MPI_Datatype t[8];
	for (int j = 0; j < 8; j++)
		cnt[j] = 1, bad[j] = 1, dsp[j] = j, t[j] = MPI_INT;
	bad[n - 1] = -1;
	CHECK_CLASS(MPI_Allgatherv_c(a, 1, MPI_INT, b, bad, dsp, MPI_INT, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Alltoallv_c(a, bad, dsp, MPI_INT, b, cnt, dsp, MPI_INT, w),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Ireduce_scatter_c(a, b, bad, MPI_INT, MPI_SUM, w, &q), MPI_ERR_COUNT);
	bad[n - 1] = past;
	CHECK_CLASS(MPI_Ialltoallw_c(a, cnt, dsp, t, b, bad, dsp, t, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Allgatherv_init_c(a, 1, MPI_INT, b, bad, dsp, MPI_INT, w,
					  MPI_INFO_NULL, &q), MPI_ERR_COUNT);
	bad[0] = -1;
	CHECK_CLASS(MPI_Gatherv_c(a, 1, MPI_INT, b, bad, dsp, MPI_INT, 0, self), MPI_ERR_COUNT);
	bad[0] = wrap;
	CHECK_CLASS(MPI_Scatterv_c(a, bad, dsp, MPI_DOUBLE, b, 1, MPI_DOUBLE, 0, self),
		    MPI_ERR_COUNT);

	/* A user function takes an int length: INT_MAX + 1 bytes is one too many. */
	CHECK_MPI(MPI_Op_create(user_sum, 1, &op));
	CHECK_CLASS(MPI_Allreduce_c(a, b, (MPI_Count)INT32_MAX + 1, MPI_BYTE, op, w),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Reduce_local_c(a, b, (MPI_Count)INT32_MAX + 1, MPI_BYTE, op),
		    MPI_ERR_COUNT);

	/* Nothing above joined a collective: the next ones line up on every member. */
	a[0] = me + 1;
	CHECK_MPI(MPI_Allreduce_c(a, b, 1, MPI_INT, MPI_SUM, w));
	CHECK_INT(b[0], n * (n + 1) / 2);
	CHECK_MPI(MPI_Allreduce_c(a, b, 1, MPI_BYTE, op, w));
	CHECK_INT(b[0] & 0xff, (n * (n + 1) / 2) & 0xff);
	CHECK_MPI(MPI_Op_free(&op));
	CHECK_MPI(MPI_Type_free(&big));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
