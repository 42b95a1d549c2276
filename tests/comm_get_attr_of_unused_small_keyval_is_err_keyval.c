/* comm_get_attr_of_unused_small_keyval_is_err_keyval: MPI_Comm_get_attr with a keyval above
 * the predefined ones (MPI_TAG_UB .. MPI_LASTUSEDCODE are 1..7 in mpi.h) that no
 * MPI_Comm_create_keyval returned fails with MPI_ERR_KEYVAL on MPI_COMM_WORLD, a dup of it
 * and MPI_COMM_SELF, rather than answering flag 0; a keyval that was created and has no
 * value on the communicator still answers flag 0. */
/* ranks: 1 2 */
#include "check.h"

int main(int argc, char **argv)
{
	MPI_Comm dup, comms[3];
	int flag, kv, *v;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	comms[0] = MPI_COMM_WORLD;
	comms[1] = dup;
	comms[2] = MPI_COMM_SELF;
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
	/* 8: the first id after the predefined keyvals, never handed out by create_keyval. */
	CHECK(kv != 8);
	for (int i = 0; i < 3; i++) {
		CHECK_MPI(MPI_Comm_set_errhandler(comms[i], MPI_ERRORS_RETURN));
		flag = -1;
		v = NULL;
		CHECK_CLASS(MPI_Comm_get_attr(comms[i], 8, &v, &flag), MPI_ERR_KEYVAL);
		CHECK(v == NULL);
		/* The predefined and the created ones still answer. */
		CHECK_MPI(MPI_Comm_get_attr(comms[i], MPI_LASTUSEDCODE, &v, &flag));
		CHECK_INT(flag, 1);
		CHECK_MPI(MPI_Comm_get_attr(comms[i], kv, &v, &flag));
		CHECK_INT(flag, 0);
	}
	CHECK_MPI(MPI_Comm_free_keyval(&kv));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
