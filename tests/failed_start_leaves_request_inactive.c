/* failed_start_leaves_request_inactive: an MPI_Start or MPI_Startall of an MPI_Bsend_init
 * request that fails (MPI_ERR_BUFFER, no buffer attached) leaves the request inactive:
 * MPI_Test and MPI_Request_get_status give flag 1 and an empty status at once, MPI_Wait
 * returns, and once a buffer is attached the same request starts and delivers. */
/* ranks: 1 2 4 */
#include <stdbool.h>
#include "check.h"

#define TAG 5
#define COUNT 10

/* The failed request r must behave as inactive, then start and deliver once a buffer is
 * attached; the caller receives what rank `from` sent the same way. */
static void check_inactive_then_restart(MPI_Request *r, int from)
{
	MPI_Request kept = *r;
	MPI_Status st;
	int flag = 0;

	/* An inactive request tests complete at the first MPI_Test (an active one that can
	 * never complete would make MPI_Wait hang, so the test asks this first)... */
	st.MPI_SOURCE = st.MPI_TAG = -99;
	CHECK_MPI(MPI_Test(r, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK(*r == kept);                    /* ...and a persistent handle is kept */
	CHECK_EMPTY_STATUS(&st, MPI_ANY_SOURCE);

	st.MPI_SOURCE = st.MPI_TAG = -99;
	CHECK_MPI(MPI_Request_get_status(*r, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_EMPTY_STATUS(&st, MPI_ANY_SOURCE);

	st.MPI_SOURCE = st.MPI_TAG = -99;
	CHECK_MPI(MPI_Wait(r, &st));
	CHECK(*r == kept);
	CHECK_EMPTY_STATUS(&st, MPI_ANY_SOURCE);

	/* With a buffer attached the same request starts: not MPI_ERR_REQUEST for "active". */
	int bufsize = COUNT * sizeof(int) + MPI_BSEND_OVERHEAD;
	char *attach = malloc(bufsize);
	CHECK_MPI(MPI_Buffer_attach(attach, bufsize));
	CHECK_MPI(MPI_Start(r));
	CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));

	int got[COUNT] = { 0 }, count = -1;
	CHECK_MPI(MPI_Recv(got, COUNT, MPI_INT, from, TAG, MPI_COMM_WORLD, &st));
	CHECK_INT(st.MPI_SOURCE, from);
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
	CHECK_INT(count, COUNT);
	for (int i = 0; i < COUNT; i++)
		CHECK_INT(got[i], from * 100 + i);

	CHECK_MPI(MPI_Request_free(r));
	CHECK(*r == MPI_REQUEST_NULL);
	CHECK_DETACH(attach, bufsize);
	free(attach);
}

int main(int argc, char **argv)
{
	int rank, size, data[COUNT];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	for (int i = 0; i < COUNT; i++)
		data[i] = rank * 100 + i;

	/* MPI_Start with no buffer attached. */
	MPI_Request r;
	CHECK_MPI(MPI_Bsend_init(data, COUNT, MPI_INT, to, TAG, MPI_COMM_WORLD, &r));
	CHECK_CLASS(MPI_Start(&r), MPI_ERR_BUFFER);
	check_inactive_then_restart(&r, from);

	/* Every rank is through the first round before anyone sends again. */
	check_barrier(MPI_COMM_WORLD, 99);

	/* MPI_Startall: a receive from MPI_PROC_NULL (complete whether or not it was started),
	 * then the Bsend that cannot start. */
	MPI_Request rs[2];
	int sink = -1;
	CHECK_MPI(MPI_Recv_init(&sink, 1, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, &rs[0]));
	CHECK_MPI(MPI_Bsend_init(data, COUNT, MPI_INT, to, TAG, MPI_COMM_WORLD, &rs[1]));
	CHECK_CLASS(MPI_Startall(2, rs), MPI_ERR_BUFFER);
	int all = 0;
	CHECK_MPI(MPI_Testall(2, rs, &all, MPI_STATUSES_IGNORE));
	CHECK_INT(all, 1);
	CHECK(rs[0] != MPI_REQUEST_NULL && rs[1] != MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Request_free(&rs[0]));
	check_inactive_then_restart(&rs[1], from);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
