/* win_get_info_reports_defaults_and_set_hints: MPI_Win_get_info returns every hint of
 * MPI 4.1 12.2.1 with its value in effect: the defaults for a window made without info;
 * the values given at creation, normalised; values given by MPI_Win_set_info, the other
 * hints keeping theirs; a recognised key with an invalid value keeps its value. */
/* ranks: 1 2 */
#include <string.h>
#include "check.h"

static void expect(MPI_Win win, const char *key, const char *value)
{
	MPI_Info info;
	char got[MPI_MAX_INFO_VAL + 1];
	int flag = 0;

	CHECK_MPI(MPI_Win_get_info(win, &info));
	CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, got, &flag));
	if (!flag)
		fprintf(stderr, "no key %s\n", key);
	CHECK_INT(flag, 1);
	CHECK_STR(got, value);
	CHECK_MPI(MPI_Info_free(&info));
}

int main(int argc, char **argv)
{
	MPI_Info info;
	MPI_Win win;
	int buf[4], nkeys;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win));
	expect(win, "no_locks", "false");
	expect(win, "accumulate_ordering", "rar,raw,war,waw");
	expect(win, "accumulate_ops", "same_op_no_op");
	expect(win, "same_size", "false");
	expect(win, "same_disp_unit", "false");
	expect(win, "alloc_shared_noncontig", "false");
	expect(win, "mpi_accumulate_granularity", "0");
	CHECK_MPI(MPI_Win_get_info(win, &info));
	CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
	CHECK_INT(nkeys, 7);
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Win_free(&win));

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "no_locks", "TRUE"));
	CHECK_MPI(MPI_Info_set(info, "accumulate_ordering", "waw, rar"));
	CHECK_MPI(MPI_Info_set(info, "accumulate_ops", "same_op"));
	CHECK_MPI(MPI_Info_set(info, "same_size", "true"));
	CHECK_MPI(MPI_Info_set(info, "mpi_accumulate_granularity", "64"));
	CHECK_MPI(MPI_Info_set(info, "same_disp_unit", "perhaps"));
	CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), info, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Info_free(&info));
	expect(win, "no_locks", "true");
	expect(win, "accumulate_ordering", "rar,waw");
	expect(win, "accumulate_ops", "same_op");
	expect(win, "same_size", "true");
	expect(win, "same_disp_unit", "false");
	expect(win, "mpi_accumulate_granularity", "64");

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "accumulate_ordering", "none"));
	CHECK_MPI(MPI_Info_set(info, "accumulate_ops", "sometimes"));
	CHECK_MPI(MPI_Info_set(info, "no_locks", "false"));
	CHECK_MPI(MPI_Win_set_info(win, info));
	CHECK_MPI(MPI_Info_free(&info));
	expect(win, "no_locks", "false");
	expect(win, "accumulate_ordering", "none");
	expect(win, "accumulate_ops", "same_op");
	expect(win, "same_size", "true");
	expect(win, "mpi_accumulate_granularity", "64");

	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Win_set_info(win, MPI_INFO_NULL), MPI_ERR_INFO);
	CHECK_CLASS(MPI_Win_get_info(win, NULL), MPI_ERR_ARG);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
