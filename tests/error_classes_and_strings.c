/* error_classes_and_strings: every error class maps to itself through MPI_Error_class and
 * has a non-empty MPI_Error_string distinct from every other class's. */
/* ranks: 1 2 */
#include "check.h"

int main(int argc, char **argv)
{
	static char strs[MPI_ERR_LASTCODE + 1][MPI_MAX_ERROR_STRING];

	CHECK_MPI(MPI_Init(&argc, &argv));
	for (int c = 0; c <= MPI_ERR_LASTCODE; c++) {
		int cls = -1, len = -1;
		CHECK_MPI(MPI_Error_class(c, &cls));
		CHECK_INT(cls, c);
		memset(strs[c], 0, MPI_MAX_ERROR_STRING);
		CHECK_MPI(MPI_Error_string(c, strs[c], &len));
		CHECK(len > 0 && len < MPI_MAX_ERROR_STRING);
		CHECK_INT(strlen(strs[c]), len);
		for (int d = 0; d < c; d++)
			if (strcmp(strs[c], strs[d]) == 0) {
				fprintf(stderr, "classes %d and %d share \"%s\"\n", d, c, strs[c]);
				CHECK(!"error strings must be distinct");
			}
	}
	/* A few well-known classes are spelled as users know them. */
	CHECK_INT(MPI_SUCCESS, 0);
	CHECK(MPI_ERR_LASTCODE >= MPI_ERR_ERRHANDLER);

	/* An error code returned by a failing call has a class and a string too. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	int v = 0, rc = MPI_Send(&v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
	CHECK_CLASS(rc, MPI_ERR_TAG);
	char s[MPI_MAX_ERROR_STRING];
	int len = -1;
	CHECK_MPI(MPI_Error_string(rc, s, &len));
	CHECK(len > 0);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
