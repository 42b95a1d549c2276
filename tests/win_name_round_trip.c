/* win_name_round_trip: a window's name is empty until MPI_Win_set_name; MPI_Win_get_name
 * returns the name set and its length; a name of MPI_MAX_OBJECT_NAME characters or more
 * is cut to MPI_MAX_OBJECT_NAME - 1; a NULL argument is MPI_ERR_ARG. */
/* ranks: 1 2 */
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
	char name[MPI_MAX_OBJECT_NAME], longname[MPI_MAX_OBJECT_NAME + 20];
	MPI_Win win;
	int buf[4], len = -1;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win));
	memset(name, 'x', sizeof(name));
	CHECK_MPI(MPI_Win_get_name(win, name, &len));
	CHECK_INT(len, 0);
	CHECK_STR(name, "");

	CHECK_MPI(MPI_Win_set_name(win, "halo window"));
	CHECK_MPI(MPI_Win_get_name(win, name, &len));
	CHECK_INT(len, 11);
	CHECK_STR(name, "halo window");

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_MPI(MPI_Win_set_name(win, longname));
	CHECK_MPI(MPI_Win_get_name(win, name, &len));
	CHECK_INT(len, MPI_MAX_OBJECT_NAME - 1);
	CHECK_INT((int)strlen(name), MPI_MAX_OBJECT_NAME - 1);

	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Win_set_name(win, NULL), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Win_get_name(win, NULL, &len), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Win_get_name(win, name, NULL), MPI_ERR_ARG);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
