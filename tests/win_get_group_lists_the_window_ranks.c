/* win_get_group_lists_the_window_ranks: MPI_Win_get_group returns a new group of the
 * ranks of the communicator the window was made on, in its order (here the odd ranks of
 * MPI_COMM_WORLD, reversed), which the caller frees; a NULL group argument is MPI_ERR_ARG
 * and MPI_WIN_NULL is MPI_ERR_WIN (raised on MPI_COMM_SELF). */
/* ranks: 1 4 8 */
#include "check.h"

int main(int argc, char **argv)
{
	MPI_Group wg, cg;
	MPI_Comm comm;
	MPI_Win win;
	int rank, size, n, r, result, buf[2];

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &comm));
	CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, comm, &win));
	CHECK_MPI(MPI_Win_get_group(win, &wg));
	CHECK_MPI(MPI_Comm_group(comm, &cg));
	CHECK_MPI(MPI_Group_compare(wg, cg, &result));
	CHECK_INT(result, MPI_IDENT);
	CHECK_MPI(MPI_Group_size(wg, &n));
	CHECK_INT(n, rank % 2 ? size / 2 : (size + 1) / 2);
	CHECK_MPI(MPI_Group_rank(wg, &r));
	CHECK_INT(r, (n - 1) - rank / 2);
	CHECK_MPI(MPI_Group_free(&wg));
	CHECK_MPI(MPI_Group_free(&cg));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Win_get_group(win, NULL), MPI_ERR_ARG);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Win_get_group(MPI_WIN_NULL, &wg), MPI_ERR_WIN);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Comm_free(&comm));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
