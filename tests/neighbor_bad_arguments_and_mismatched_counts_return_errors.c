/* neighbor_bad_arguments_and_mismatched_counts_return_errors: under MPI_ERRORS_RETURN each
 * neighborhood collective (blocking, MPI_Ineighbor_*, MPI_Neighbor_*_init) on a
 * communicator without a topology returns MPI_ERR_TOPOLOGY; bad counts, types, buffers,
 * requests and info return their classes; counts that disagree between neighbours (rank
 * 0 sends and expects 2 ints a block, the others 1) return MPI_ERR_TRUNCATE or
 * MPI_ERR_COUNT on rank 0 and its two neighbours, blocking and nonblocking, and
 * MPI_SUCCESS on every other rank: no rank hangs, and the next call works. */
/* ranks: 1 2 4 16 64 */
#include <stdbool.h>
#include <stdint.h>
#include "check.h"

static int both(int rc)
{
	int cls;

	MPI_Error_class(rc, &cls);
	return cls;
}

int main(int argc, char **argv)
{
	int me, n, s[8] = { 0 }, r[8] = { 0 }, cnt[2] = { 1, 1 }, dis[2] = { 0, 1 };
	int neg[2] = { -1, 1 };
	MPI_Aint bd[2] = { 0, 4 };
	MPI_Datatype ty[2] = { MPI_INT, MPI_INT }, bad[2] = { MPI_INT, MPI_DATATYPE_NULL };
	MPI_Request rq;
	MPI_Comm w = MPI_COMM_WORLD, ring;
	long stack[8] = { 0 };   /* no info object */
	MPI_Info info = (MPI_Info)stack;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(w, &me);
	MPI_Comm_size(w, &n);
	MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);

	/* no topology: all 15 calls */
	CHECK_CLASS(MPI_Neighbor_allgather(s, 1, MPI_INT, r, 1, MPI_INT, w), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Ineighbor_allgather(s, 1, MPI_INT, r, 1, MPI_INT, w, &rq), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_allgather_init(s, 1, MPI_INT, r, 1, MPI_INT, w, MPI_INFO_NULL, &rq),
		    MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_allgatherv(s, 1, MPI_INT, r, cnt, dis, MPI_INT, w), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Ineighbor_allgatherv(s, 1, MPI_INT, r, cnt, dis, MPI_INT, w, &rq),
		    MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_allgatherv_init(s, 1, MPI_INT, r, cnt, dis, MPI_INT, w,
						 MPI_INFO_NULL, &rq), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, w), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Ineighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, w, &rq), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, r, 1, MPI_INT, w, MPI_INFO_NULL, &rq),
		    MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_alltoallv(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, w),
		    MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Ineighbor_alltoallv(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, w, &rq),
		    MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_alltoallv_init(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, w,
						MPI_INFO_NULL, &rq), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_alltoallw(s, cnt, bd, ty, r, cnt, bd, ty, w), MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Ineighbor_alltoallw(s, cnt, bd, ty, r, cnt, bd, ty, w, &rq),
		    MPI_ERR_TOPOLOGY);
	CHECK_CLASS(MPI_Neighbor_alltoallw_init(s, cnt, bd, ty, r, cnt, bd, ty, w, MPI_INFO_NULL,
						&rq), MPI_ERR_TOPOLOGY);

	/* a ring of every rank: 2 sources, 2 destinations */
	int dims[1] = { n }, periods[1] = { 1 };
	CHECK_MPI(MPI_Cart_create(w, 1, dims, periods, 0, &ring));
	MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
	CHECK_CLASS(MPI_Neighbor_alltoall(s, -1, MPI_INT, r, 1, MPI_INT, ring), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Neighbor_alltoall(s, 1, MPI_DATATYPE_NULL, r, 1, MPI_INT, ring),
		    MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Neighbor_allgather(s, 1, MPI_INT, NULL, 1, MPI_INT, ring), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, r, 1, MPI_INT, ring),
		    MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Ineighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, ring, NULL),
		    MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Neighbor_alltoallv(s, neg, dis, MPI_INT, r, cnt, dis, MPI_INT, ring),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Neighbor_alltoallw(s, cnt, bd, bad, r, cnt, bd, ty, ring), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Neighbor_alltoallw(s, cnt, bd, NULL, r, cnt, bd, ty, ring), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Neighbor_alltoall_init(s, 1, MPI_INT, r, 1, MPI_INT, ring, info, &rq),
		    MPI_ERR_INFO);
	/* receive blocks that overlap */
	CHECK_CLASS(MPI_Neighbor_allgatherv(s, 2, MPI_INT, r, (int[]){ 2, 2 }, (int[]){ 0, 1 },
					    MPI_INT, ring), MPI_ERR_ARG);

	/* counts that disagree: rank 0 sends and expects 2 ints a block, the others 1 */
	int k = me == 0 ? 2 : 1;
	bool involved = me == 0 || me == 1 || me == n - 1;
	for (int round = 0; round < 2; round++) {
		int rc;
		if (round == 0) {
			rc = MPI_Neighbor_alltoall(s, k, MPI_INT, r, k, MPI_INT, ring);
		} else {
			CHECK_MPI(MPI_Ineighbor_alltoall(s, k, MPI_INT, r, k, MPI_INT, ring, &rq));
			rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
		}
		if (n == 1) {
			CHECK_MPI(rc);  /* rank 0 is its own neighbour: its counts agree */
		} else if (involved) {
			int cls = both(rc);
			if (cls != MPI_ERR_TRUNCATE)
				CHECK_CLASS(rc, MPI_ERR_COUNT);
		} else {
			CHECK_MPI(rc);
		}
	}
	/* the same communicator still works */
	for (int i = 0; i < 2; i++)
		s[i] = me;
	CHECK_MPI(MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, ring));
	CHECK_INT(r[0], (me + n - 1) % n);
	CHECK_INT(r[1], (me + 1) % n);
	MPI_Comm_free(&ring);
	MPI_Barrier(w);
	MPI_Finalize();
	return 0;
}
