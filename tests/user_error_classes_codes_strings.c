/* user_error_classes_codes_strings: MPI_Add_error_class/code/string make codes above
 * MPI_ERR_LASTCODE whose class and string MPI_Error_class/string report, and raise
 * MPI_LASTUSEDCODE; predefined strings cannot be changed. */
/* ranks: 1 2 */
#include "check.h"

int main(int argc, char **argv)
{
	int cls, cls2, code, code2, got, len, flag, *last;
	char s[MPI_MAX_ERROR_STRING];

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*last, MPI_ERR_LASTCODE);

	CHECK_MPI(MPI_Add_error_class(&cls));
	CHECK_CMP(cls, >, MPI_ERR_LASTCODE);
	CHECK_MPI(MPI_Add_error_code(cls, &code));
	CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &code2));
	CHECK_MPI(MPI_Add_error_class(&cls2));
	CHECK(code != cls && code2 != code && cls2 != cls);
	CHECK_MPI(MPI_Error_class(code, &got));
	CHECK_INT(got, cls);
	CHECK_MPI(MPI_Error_class(cls, &got));
	CHECK_INT(got, cls);
	CHECK_MPI(MPI_Error_class(code2, &got));
	CHECK_INT(got, MPI_ERR_ARG);
	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
	CHECK_INT(*last, cls2);

	/* Strings: empty until set, then what was set. */
	CHECK_MPI(MPI_Error_string(code, s, &len));
	CHECK_INT(len, 0);
	CHECK_MPI(MPI_Add_error_string(code, "my code"));
	CHECK_MPI(MPI_Add_error_string(cls, "my class"));
	CHECK_MPI(MPI_Error_string(code, s, &len));
	CHECK_STR(s, "my code");
	CHECK_INT(len, 7);
	CHECK_MPI(MPI_Error_string(cls, s, &len));
	CHECK_STR(s, "my class");

	/* Errors: class of an unknown code, changing a predefined string, a code's class. */
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	CHECK_CLASS(MPI_Add_error_string(MPI_ERR_ARG, "x"), MPI_ERR_ARG);
	CHECK(MPI_Error_class(cls2 + 1000, &got) != MPI_SUCCESS);
	CHECK_CLASS(MPI_Add_error_code(code, &got), MPI_ERR_ARG);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
