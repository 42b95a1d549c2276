/* large_count_negative_or_overflowing_is_err_count: with MPI_ERRORS_RETURN, each _c send and
 * receive fails with MPI_ERR_COUNT for a negative count and one of more bytes than size_t or
 * PTRDIFF_MAX holds; so do the int calls for an int count of a huge datatype. */
/* ranks: 1 2 */
#include <limits.h>
#include "check.h"

static int rank;

/* Every _c point-to-point call with (count, type) must fail with MPI_ERR_COUNT and leave
 * its request and message arguments alone. */
static void c_calls_refuse(MPI_Count count, MPI_Datatype type)
{
	MPI_Request q = MPI_REQUEST_NULL;
	MPI_Message msg = MPI_MESSAGE_NO_PROC;
	MPI_Status st;
	int v[4] = { 0 };
	MPI_Comm w = MPI_COMM_WORLD;

	CHECK_CLASS(MPI_Send_c(v, count, type, rank, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Ssend_c(v, count, type, rank, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Bsend_c(v, count, type, rank, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Rsend_c(v, count, type, rank, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Recv_c(v, count, type, rank, 0, w, &st), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Isend_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Issend_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Ibsend_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Irsend_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Irecv_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Send_init_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Ssend_init_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Bsend_init_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Rsend_init_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Recv_init_c(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK(q == MPI_REQUEST_NULL);
	CHECK_CLASS(MPI_Sendrecv_c(v, count, type, rank, 0, v + 2, 1, MPI_INT, rank, 0, w, &st),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Sendrecv_c(v, 1, MPI_INT, rank, 0, v + 2, count, type, rank, 0, w, &st),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Sendrecv_replace_c(v, count, type, rank, 0, rank, 0, w, &st),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Mrecv_c(v, count, type, &msg, &st), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Imrecv_c(v, count, type, &msg, &q), MPI_ERR_COUNT);
	CHECK(msg == MPI_MESSAGE_NO_PROC);
	CHECK(q == MPI_REQUEST_NULL);
}

/* The int calls share the check: an int count of a datatype of 2^62 bytes overflows. */
static void int_calls_refuse(int count, MPI_Datatype type)
{
	MPI_Request q = MPI_REQUEST_NULL;
	MPI_Message msg = MPI_MESSAGE_NO_PROC;
	MPI_Status st;
	int v[4] = { 0 };
	MPI_Comm w = MPI_COMM_WORLD;

	CHECK_CLASS(MPI_Send(v, count, type, rank, 0, w), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Recv(v, count, type, rank, 0, w, &st), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Isend(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Irecv(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Send_init(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Recv_init(v, count, type, rank, 0, w, &q), MPI_ERR_COUNT);
	CHECK(q == MPI_REQUEST_NULL);
	CHECK_CLASS(MPI_Sendrecv(v, count, type, rank, 0, v + 2, 1, MPI_INT, rank, 0, w, &st),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Sendrecv_replace(v, count, type, rank, 0, rank, 0, w, &st),
		    MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Mrecv(v, count, type, &msg, &st), MPI_ERR_COUNT);
	CHECK(msg == MPI_MESSAGE_NO_PROC);
}

int main(int argc, char **argv)
{
	MPI_Datatype huge;
	MPI_Count huge_size;
	int v = 7;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	c_calls_refuse(-1, MPI_INT);
	c_calls_refuse(LLONG_MIN, MPI_BYTE);
	/* 2^62 ints are 2^64 bytes: one more than SIZE_MAX. */
	c_calls_refuse((MPI_Count)1 << 62, MPI_INT);
	c_calls_refuse(LLONG_MAX, MPI_INT);
	/* 2^63 bytes fit size_t, but no buffer (nor a status's MPI_Count) holds them. */
	c_calls_refuse((MPI_Count)1 << 62, MPI_SHORT);

	CHECK_MPI(MPI_Type_contiguous_c((MPI_Count)1 << 60, MPI_INT, &huge));
	CHECK_MPI(MPI_Type_commit(&huge));
	CHECK_MPI(MPI_Type_size_c(huge, &huge_size));
	CHECK_INT(huge_size, (MPI_Count)1 << 62);
	int_calls_refuse(4, huge);
	c_calls_refuse(4, huge);
	CHECK_MPI(MPI_Type_free(&huge));

	/* The largest counts within PTRDIFF_MAX bytes are not count errors (MPI_PROC_NULL
	 * touches no buffer). */
	CHECK_MPI(MPI_Send_c(&v, LLONG_MAX, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Recv_c(&v, LLONG_MAX / 2, MPI_SHORT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE));

	/* Nothing was sent: the first message each rank gets from itself is this one. */
	CHECK_MPI(MPI_Sendrecv_c(&v, 1, MPI_INT, rank, 3, &v, 1, MPI_INT, rank, MPI_ANY_TAG,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
