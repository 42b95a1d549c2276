/* request_get_status_all_any_some_leave_requests: MPI_Request_get_status_all, _any and
 * _some report completion as MPI_Testall, _any and _some do (flag, index, outcount,
 * indices, statuses; MPI_UNDEFINED and empty statuses for null entries) but free and
 * deactivate nothing: the requests complete again under MPI_Waitall with the same
 * statuses. The status fields' setters and getters (MPI_Status_set_source, _tag, _error,
 * _cancelled, MPI_Status_get_source, _tag, _error) write and read them. */
/* ranks: 1 2 4 16 64 */
#include "check.h"

static void status_fields(void)
{
	MPI_Status st;
	int v = 0;

	CHECK_MPI(MPI_Status_set_source(&st, 3));
	CHECK_MPI(MPI_Status_set_tag(&st, 99));
	CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TAG));
	CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 2));
	CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
	CHECK_INT(st.MPI_SOURCE, 3);
	CHECK_INT(st.MPI_TAG, 99);
	CHECK_INT(st.MPI_ERROR, MPI_ERR_TAG);
	CHECK_MPI(MPI_Status_get_source(&st, &v));
	CHECK_INT(v, 3);
	CHECK_MPI(MPI_Status_get_tag(&st, &v));
	CHECK_INT(v, 99);
	CHECK_MPI(MPI_Status_get_error(&st, &v));
	CHECK_INT(v, MPI_ERR_TAG);
	CHECK_MPI(MPI_Test_cancelled(&st, &v));
	CHECK_INT(v, 1);
	CHECK_MPI(MPI_Status_set_cancelled(&st, 0));
	CHECK_MPI(MPI_Test_cancelled(&st, &v));
	CHECK_INT(v, 0);
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &v));
	CHECK_INT(v, 2);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Status_get_tag(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Status_set_source(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
	int rank, size, flag, index, outcount, indices[3];
	MPI_Status st, sts[3];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	status_fields();

	/* Only null entries: done at once, nothing to report. */
	MPI_Request nulls[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	sts[0].MPI_ERROR = sts[1].MPI_ERROR = 4444;
	CHECK_MPI(MPI_Request_get_status_all(2, nulls, &flag, sts));
	CHECK_INT(flag, 1);
	CHECK_EMPTY_STATUS(&sts[0], MPI_ANY_SOURCE);
	CHECK_INT(sts[1].MPI_ERROR, MPI_SUCCESS);
	st.MPI_ERROR = 4444;
	CHECK_MPI(MPI_Request_get_status_any(2, nulls, &index, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_INT(index, MPI_UNDEFINED);
	CHECK_EMPTY_STATUS(&st, MPI_ANY_SOURCE);
	CHECK_INT(st.MPI_ERROR, MPI_SUCCESS);
	CHECK_MPI(MPI_Request_get_status_some(2, nulls, &outcount, indices, sts));
	CHECK_INT(outcount, MPI_UNDEFINED);

	/* Two receives from the previous rank (tags 1, 2) and a null entry: nothing arrives
	 * until this rank says so, through a message of tag 3 to its sender. */
	int from = (rank + size - 1) % size, to = (rank + 1) % size, in[2] = { -1, -1 }, go;
	int out[2] = { rank * 10 + 1, rank * 10 + 2 };
	MPI_Request reqs[3];
	CHECK_MPI(MPI_Irecv(&in[0], 1, MPI_INT, from, 1, MPI_COMM_WORLD, &reqs[0]));
	reqs[1] = MPI_REQUEST_NULL;
	CHECK_MPI(MPI_Irecv(&in[1], 1, MPI_INT, from, 2, MPI_COMM_WORLD, &reqs[2]));
	CHECK_MPI(MPI_Request_get_status_all(3, reqs, &flag, sts));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
	CHECK_INT(flag, 0);
	CHECK_INT(index, MPI_UNDEFINED);
	CHECK_MPI(MPI_Request_get_status_some(3, reqs, &outcount, indices, sts));
	CHECK_INT(outcount, 0);

	/* Let the sender send tag 2 only, and wait until get_status_any sees it. */
	CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, from, 3, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, to, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Send(&out[1], 1, MPI_INT, to, 2, MPI_COMM_WORLD));
	do
		CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
	while (!flag);
	CHECK_INT(index, 2);
	CHECK_INT(st.MPI_SOURCE, from);
	CHECK_INT(st.MPI_TAG, 2);
	CHECK_MPI(MPI_Request_get_status_some(3, reqs, &outcount, indices, sts));
	CHECK_INT(outcount, 1);
	CHECK_INT(indices[0], 2);
	CHECK_INT(sts[0].MPI_TAG, 2);
	CHECK_MPI(MPI_Request_get_status_all(3, reqs, &flag, sts));
	CHECK_INT(flag, 0);
	CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[2] != MPI_REQUEST_NULL);

	/* Then tag 1, once the receiver has seen tag 2 alone (tag 4): all done, and still
	 * there for MPI_Waitall. */
	CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, from, 4, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, to, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Send(&out[0], 1, MPI_INT, to, 1, MPI_COMM_WORLD));
	do
		CHECK_MPI(MPI_Request_get_status_all(3, reqs, &flag, sts));
	while (!flag);
	CHECK_INT(sts[0].MPI_TAG, 1);
	CHECK_INT(sts[0].MPI_SOURCE, from);
	CHECK_INT(sts[0].MPI_ERROR, MPI_SUCCESS);
	CHECK_EMPTY_STATUS(&sts[1], MPI_ANY_SOURCE);
	CHECK_INT(sts[2].MPI_TAG, 2);
	CHECK_MPI(MPI_Request_get_status_some(3, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
	CHECK_INT(outcount, 2);
	CHECK_INT(indices[0], 0);
	CHECK_INT(indices[1], 2);
	CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[2] != MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Waitall(3, reqs, sts));
	CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[2] == MPI_REQUEST_NULL);
	CHECK_INT(sts[0].MPI_TAG, 1);
	CHECK_INT(sts[2].MPI_TAG, 2);
	CHECK_INT(in[0], from * 10 + 1);
	CHECK_INT(in[1], from * 10 + 2);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
