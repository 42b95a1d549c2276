/* error_classes_codes_strings_removed: MPI_Remove_error_string, _code and _class give back
 * what MPI_Add_error_* made (MPI 4.1, 9.5): a removed string reads as empty, a removed
 * code or class is no longer one (MPI_Error_class, MPI_Error_string, MPI_Add_error_code
 * fail) and is not handed out again; removing a predefined class or code, a class that a
 * code still belongs to, a class as a code, a code as a class, something removed already or
 * a string that is not there is MPI_ERR_ARG. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int cls, code, code2, got, len;
	char text[MPI_MAX_ERROR_STRING];

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Add_error_class(&cls));
	CHECK_MPI(MPI_Add_error_code(cls, &code));
	CHECK_MPI(MPI_Add_error_string(code, "a code of ours"));
	CHECK_MPI(MPI_Add_error_string(cls, "a class of ours"));

	CHECK_CLASS(MPI_Remove_error_class(MPI_ERR_ARG), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Remove_error_code(MPI_ERR_TAG), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Remove_error_string(MPI_ERR_TAG), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG);   /* `code` belongs to it */
	CHECK_CLASS(MPI_Remove_error_class(code), MPI_ERR_ARG);  /* a code */
	CHECK_CLASS(MPI_Remove_error_code(cls), MPI_ERR_ARG);    /* a class */
	CHECK_CLASS(MPI_Remove_error_code(code + 1000), MPI_ERR_ARG);

	CHECK_MPI(MPI_Remove_error_string(code));
	CHECK_MPI(MPI_Error_string(code, text, &len));
	CHECK_INT(len, 0);
	CHECK_CLASS(MPI_Remove_error_string(code), MPI_ERR_ARG);  /* no string now */
	CHECK_MPI(MPI_Error_class(code, &got));
	CHECK_INT(got, cls);

	CHECK_MPI(MPI_Remove_error_code(code));
	CHECK_CLASS(MPI_Error_class(code, &got), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Error_string(code, text, &len), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Remove_error_code(code), MPI_ERR_ARG);

	CHECK_MPI(MPI_Remove_error_class(cls));  /* takes its string along */
	CHECK_CLASS(MPI_Error_class(cls, &got), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Add_error_code(cls, &code2), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG);

	/* New ones get new values. */
	CHECK_MPI(MPI_Add_error_class(&code2));
	CHECK_CMP(code2, >, code);
	CHECK_MPI(MPI_Error_class(code2, &got));
	CHECK_INT(got, code2);
	CHECK_MPI(MPI_Remove_error_class(code2));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
