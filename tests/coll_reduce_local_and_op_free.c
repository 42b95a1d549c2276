/* coll_reduce_local_and_op_free: MPI_Reduce_local computes inoutbuf = inbuf op inoutbuf for
 * predefined ops (MPI_REPLACE and MPI_NO_OP included), user ops (operand order kept) and
 * a strided derived type; MPI_Op_free refuses predefined ops. */
/* ranks: 1 */
#include "check.h"

static void sub(void *in, void *inout, int *len, MPI_Datatype *t)
{
	for (int i = 0; i < *len; i++)
		((int *)inout)[i] = ((int *)in)[i] - ((int *)inout)[i];
}

int main(int argc, char **argv)
{
	int in[4] = { 10, 20, 30, 40 }, io[4] = { 1, 2, 3, 4 };

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Reduce_local(in, io, 4, MPI_INT, MPI_SUM));
	CHECK_INT(io[3], 44);
	MPI_Op op;
	CHECK_MPI(MPI_Op_create(sub, 0, &op));
	CHECK_MPI(MPI_Reduce_local(in, io, 4, MPI_INT, op));
	CHECK_INT(io[0], 10 - 11);
	CHECK_MPI(MPI_Op_free(&op));
	CHECK_MPI(MPI_Reduce_local(in, io, 4, MPI_INT, MPI_REPLACE));
	CHECK_INT(io[1], 20);
	io[1] = 5;
	CHECK_MPI(MPI_Reduce_local(in, io, 4, MPI_INT, MPI_NO_OP));
	CHECK_INT(io[1], 5);
	/* Every other double. */
	double x[6] = { 1, 100, 2, 100, 3, 100 }, y[6] = { 5, -1, 5, -1, 5, -1 };
	MPI_Datatype col;
	CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &col));
	CHECK_MPI(MPI_Type_commit(&col));
	CHECK_MPI(MPI_Reduce_local(x, y, 1, col, MPI_MAX));
	CHECK(y[0] == 5 && y[1] == -1 && y[4] == 5);
	CHECK_MPI(MPI_Reduce_local(x, y, 1, col, MPI_PROD));
	CHECK(y[0] == 5 && y[2] == 10 && y[4] == 15 && y[5] == -1);
	CHECK_MPI(MPI_Type_free(&col));
	MPI_Op sum = MPI_SUM;
	CHECK_CLASS(MPI_Op_free(&sum), MPI_ERR_OP);
	CHECK_CLASS(MPI_Reduce_local(in, io, 1, MPI_FLOAT, MPI_BXOR), MPI_ERR_OP);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
