/* sendrecv_and_replace_shift_ring: MPI_Sendrecv and MPI_Sendrecv_replace shift values around
 * a ring without deadlock (small and large), with correct statuses. */
/* ranks: 1 2 4 64 */
#include "check.h"

#define LARGE (100 * 1000)

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int right = (rank + 1) % size, left = (rank + size - 1) % size;

	int out = rank * 10, in = -1;
	MPI_Status st;
	int count = -1;
	CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 5, &in, 1, MPI_INT, left, 5,
			       MPI_COMM_WORLD, &st));
	CHECK_INT(in, left * 10);
	CHECK_INT(st.MPI_SOURCE, left);
	CHECK_INT(st.MPI_TAG, 5);
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
	CHECK_INT(count, 1);

	/* Different send and receive tags and types. */
	double dout[3] = { rank, rank + 0.5, -rank }, din[3] = { 0 };
	CHECK_MPI(MPI_Sendrecv(dout, 3, MPI_DOUBLE, left, 7, din, 3, MPI_DOUBLE, right, 7,
			       MPI_COMM_WORLD, &st));
	CHECK(din[0] == right && din[1] == right + 0.5 && din[2] == -right);

	/* Sendrecv_replace, shifted size times: every value comes home. */
	int *buf = malloc(LARGE * sizeof(int));
	for (int i = 0; i < LARGE; i++)
		buf[i] = rank * 7 + i;
	for (int step = 1; step <= size; step++) {
		CHECK_MPI(MPI_Sendrecv_replace(buf, LARGE, MPI_INT, right, step, left, step,
					       MPI_COMM_WORLD, &st));
		int from = ((rank - step) % size + size) % size;
		CHECK_INT(st.MPI_SOURCE, left);
		CHECK_INT(st.MPI_TAG, step);
		CHECK_INT(buf[0], from * 7);
		CHECK_INT(buf[LARGE - 1], from * 7 + LARGE - 1);
		if (size > 8 && step == 3)
			break; /* enough at large rank counts */
	}
	free(buf);

	/* Small Sendrecv_replace with ANY_SOURCE. */
	int v = rank;
	CHECK_MPI(MPI_Sendrecv_replace(&v, 1, MPI_INT, right, 9, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD,
				       &st));
	CHECK_INT(v, left);
	CHECK_INT(st.MPI_SOURCE, left);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
