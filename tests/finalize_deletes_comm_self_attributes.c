/* finalize_deletes_comm_self_attributes: MPI_Finalize runs the delete callbacks of the
 * attributes on MPI_COMM_SELF, newest first, before anything else is torn down. */
/* ranks: 1 2 4 */
#include "check.h"

static int order[2], n;

static int del(MPI_Comm comm, int key, void *val, void *extra)
{
	int done;

	/* MPI is still usable here (MPI 4.1, 11.2.3). */
	MPI_Finalized(&done);
	CHECK_INT(done, 0);
	CHECK(comm == MPI_COMM_SELF);
	if (n < 2)
		order[n] = (int)(intptr_t)val;
	n++;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int k;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del, &k, NULL));
	CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k, (void *)1));
	int k2;
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del, &k2, NULL));
	CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)2));
	CHECK_INT(n, 0);
	CHECK_MPI(MPI_Finalize());
	if (n != 2 || order[0] != 2 || order[1] != 1) {
		fprintf(stderr, "delete callbacks: %d calls, order %d %d\n", n, order[0], order[1]);
		return 1;
	}
	return 0;
}
