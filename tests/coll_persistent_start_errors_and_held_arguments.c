/* coll_persistent_start_errors_and_held_arguments: starting an active persistent collective fails with MPI_ERR_REQUEST and leaves it running; a bad info is MPI_ERR_INFO; the datatype and user op of a persistent collective outlive MPI_Type_free/MPI_Op_free until the request is freed */
/* ranks: 1 2 4 64 */
#include "check.h"

static void twice(void *in, void *inout, int *len, MPI_Datatype *t)
{
	for (int i = 0; i < *len * 2; i++)
		((int *)inout)[i] = 2 * ((int *)in)[i] + ((int *)inout)[i];
}

int main(int argc, char **argv)
{
	int rank, n, v[2], s[2], r[2];
	MPI_Comm w = MPI_COMM_WORLD;
	MPI_Request q[3];
	MPI_Datatype pair;
	MPI_Op op;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(w, &rank);
	MPI_Comm_size(w, &n);
	CHECK_MPI(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	/* A bad info handle: no request is made. */
	MPI_Info bad = (MPI_Info)&v;
	q[0] = MPI_REQUEST_NULL;
	CHECK_CLASS(MPI_Barrier_init(w, bad, &q[0]), MPI_ERR_INFO);
	CHECK(q[0] == MPI_REQUEST_NULL);

	/* A derived type and a user op freed right after the init calls. */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	CHECK_MPI(MPI_Op_create(twice, 0, &op));
	CHECK_MPI(MPI_Bcast_init(v, 1, pair, 0, w, MPI_INFO_NULL, &q[0]));
	CHECK_MPI(MPI_Allreduce_init(s, r, 1, pair, op, w, MPI_INFO_NULL, &q[1]));
	CHECK_MPI(MPI_Barrier_init(w, MPI_INFO_NULL, &q[2]));
	CHECK_MPI(MPI_Type_free(&pair));
	CHECK_MPI(MPI_Op_free(&op));

	for (int k = 0; k < 4; k++) {
		v[0] = rank == 0 ? 10 * k : -1;
		v[1] = rank == 0 ? 10 * k + 1 : -1;
		s[0] = rank + k;
		s[1] = 1;
		CHECK_MPI(MPI_Startall(3, q));
		/* Already active: refused, and it keeps running. */
		CHECK_CLASS(MPI_Start(&q[2]), MPI_ERR_REQUEST);
		CHECK_CLASS(MPI_Startall(3, q), MPI_ERR_REQUEST);
		CHECK_MPI(MPI_Waitall(3, q, MPI_STATUSES_IGNORE));
		CHECK_INT(v[0], 10 * k);
		CHECK_INT(v[1], 10 * k + 1);
		/* Rank order fold ((a0 op a1) op a2)... with x op y = 2x + y. */
		long long e0 = k, e1 = 1;
		for (int j = 1; j < n; j++)
			e0 = 2 * e0 + (j + k), e1 = 2 * e1 + 1;
		if (n < 31) {
			CHECK_INT(r[0], (int)e0);
			CHECK_INT(r[1], (int)e1);
		}
	}
	for (int i = 0; i < 3; i++)
		CHECK_MPI(MPI_Request_free(&q[i]));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
