/* get_count_reports_elements_or_undefined: MPI_Get_count/Get_elements give the number of
 * received elements, and MPI_UNDEFINED when the bytes are not a whole number of elements. */
/* ranks: 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		char bytes[64] = { 0 };
		CHECK_MPI(MPI_Send(bytes, 10, MPI_BYTE, 1, 0, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(bytes, 12, MPI_BYTE, 1, 1, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(bytes, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD));
		double d[3] = { 1, 2, 3 };
		CHECK_MPI(MPI_Send(d, 3, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD));
	} else if (rank == 1) {
		char in[64];
		MPI_Status st;
		int count = -1;

		CHECK_MPI(MPI_Recv(in, 64, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
		CHECK_INT(count, 10);
		CHECK_MPI(MPI_Get_count(&st, MPI_SHORT, &count));
		CHECK_INT(count, 5);
		CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count)); /* 10 bytes = 2.5 ints */
		CHECK_INT(count, MPI_UNDEFINED);
		CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
		CHECK_INT(count, MPI_UNDEFINED);
		CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &count));
		CHECK_INT(count, 10);

		CHECK_MPI(MPI_Recv(in, 64, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
		CHECK_INT(count, 3);
		CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
		CHECK_INT(count, MPI_UNDEFINED);

		CHECK_MPI(MPI_Recv(in, 64, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
		CHECK_INT(count, 0);
		CHECK_INT(st.MPI_SOURCE, 0);
		CHECK_INT(st.MPI_TAG, 2);

		CHECK_MPI(MPI_Recv(in, 8, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
		CHECK_INT(count, 3);
		CHECK_MPI(MPI_Get_count(&st, MPI_FLOAT, &count));
		CHECK_INT(count, 6);
		CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
		CHECK_INT(count, 24);
		CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE, &count));
		CHECK_INT(count, 3);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
