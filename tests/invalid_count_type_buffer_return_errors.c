/* invalid_count_type_buffer_return_errors: with MPI_ERRORS_RETURN, a negative count fails
 * with MPI_ERR_COUNT, MPI_DATATYPE_NULL with MPI_ERR_TYPE, and a NULL buffer with count > 0
 * with MPI_ERR_BUFFER; a NULL buffer with count 0 is fine. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, v = 1, count;
	MPI_Request r;
	MPI_Status st;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	CHECK_CLASS(MPI_Send(&v, -1, MPI_INT, rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Isend(&v, -7, MPI_INT, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Recv(&v, -1, MPI_INT, rank, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Irecv(&v, -1, MPI_INT, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Send_init(&v, -1, MPI_INT, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);

	CHECK_CLASS(MPI_Send(&v, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Isend(&v, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Recv(&v, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Irecv(&v, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_size(MPI_DATATYPE_NULL, &count), MPI_ERR_TYPE);

	CHECK_CLASS(MPI_Send(NULL, 1, MPI_INT, rank, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Isend(NULL, 4, MPI_INT, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Recv(NULL, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &st), MPI_ERR_BUFFER);
	CHECK_CLASS(MPI_Irecv(NULL, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &r), MPI_ERR_BUFFER);

	/* None of those sent anything. */
	int flag = 1;
	CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
	CHECK_INT(flag, 0);

	/* NULL with count 0 is a valid empty message. */
	CHECK_MPI(MPI_Isend(NULL, 0, MPI_INT, rank, 3, MPI_COMM_WORLD, &r));
	CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, rank, 3, MPI_COMM_WORLD, &st));
	CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
	CHECK_INT(count, 0);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
