/* pack_null_position_or_size_raised_on_the_communicator: a NULL position in MPI_Pack and
 * MPI_Unpack (and their _c forms) and a NULL size in MPI_Pack_size (and _c) fail with
 * MPI_ERR_ARG raised on the call's communicator: with MPI_ERRORS_RETURN on MPI_COMM_WORLD
 * only (MPI_COMM_SELF keeps MPI_ERRORS_ARE_FATAL) the check_handler_calls return, a user handler on
 * another communicator is called with it, and nothing is written. */
/* ranks: 1 2 */
#include "check.h"

int main(int argc, char **argv)
{
	int a[2] = { 5, 6 }, b[2] = { -1, -1 }, pos = 0;
	char packed[64];
	MPI_Comm dup;
	MPI_Errhandler eh;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	memset(packed, 0x11, sizeof packed);

	CHECK_CLASS(MPI_Pack(a, 2, MPI_INT, packed, sizeof packed, NULL, MPI_COMM_WORLD),
		    MPI_ERR_ARG);
	CHECK_INT(packed[0], 0x11);
	CHECK_CLASS(MPI_Pack_c(a, 2, MPI_INT, packed, sizeof packed, NULL, MPI_COMM_WORLD),
		    MPI_ERR_ARG);
	CHECK_INT(packed[0], 0x11);
	CHECK_CLASS(MPI_Pack_size(2, MPI_INT, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Pack_size_c(2, MPI_INT, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);

	CHECK_MPI(MPI_Pack(a, 2, MPI_INT, packed, sizeof packed, &pos, MPI_COMM_WORLD));
	CHECK_INT(pos, 2 * sizeof(int));
	CHECK_CLASS(MPI_Unpack(packed, pos, NULL, b, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Unpack_c(packed, pos, NULL, b, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
	CHECK_INT(b[0], -1);
	CHECK_INT(b[1], -1);

	/* A user handler on a dup is given the dup. */
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Comm_create_errhandler(check_recording_handler, &eh));
	CHECK_MPI(MPI_Comm_set_errhandler(dup, eh));
	CHECK_CLASS(MPI_Pack(a, 2, MPI_INT, packed, sizeof packed, NULL, dup), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Unpack(packed, pos, NULL, b, 2, MPI_INT, dup), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Pack_size(2, MPI_INT, dup, NULL), MPI_ERR_ARG);
	CHECK_INT(check_handler_calls, 3);
	CHECK_INT(check_handler_class, MPI_ERR_ARG);
	CHECK(check_handler_comm == dup);

	/* With a position, the same check_handler_calls work. */
	int p = 0, n = -1;
	CHECK_MPI(MPI_Unpack(packed, pos, &p, b, 2, MPI_INT, dup));
	CHECK_INT(b[0], 5);
	CHECK_INT(b[1], 6);
	CHECK_MPI(MPI_Pack_size(2, MPI_INT, dup, &n));
	CHECK_CMP(n, >=, 2 * (int)sizeof(int));

	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
