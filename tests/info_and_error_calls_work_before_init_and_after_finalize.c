/* info_and_error_calls_work_before_init_and_after_finalize: the calls MPI 4.1's Table 11.1
 * allows at any time work before MPI_Init and after MPI_Finalize with their usual results:
 * info objects (MPI_Info_create, _set, _get_string, _get_nkeys, _get_nthkey, _delete, _dup,
 * _free), MPI_Add_error_class, MPI_Add_error_code and MPI_Add_error_string (read back with
 * MPI_Error_class and MPI_Error_string), and MPI_Errhandler_free of a user handler created
 * between MPI_Init and MPI_Finalize and still held; the program then ends with status 0. */
/* ranks: 1 2 */
#include "check.h"

static void info_round_trip(void)
{
	MPI_Info info = MPI_INFO_NULL, dup = MPI_INFO_NULL;
	char key[MPI_MAX_INFO_KEY + 1], value[16];
	int n = -1, len, flag = -1;

	CHECK_MPI(MPI_Info_create(&info));
	CHECK(info != MPI_INFO_NULL);
	CHECK_MPI(MPI_Info_set(info, "colour", "red"));
	CHECK_MPI(MPI_Info_set(info, "shape", "round"));
	CHECK_MPI(MPI_Info_set(info, "colour", "blue"));
	CHECK_MPI(MPI_Info_get_nkeys(info, &n));
	CHECK_INT(n, 2);
	CHECK_MPI(MPI_Info_get_nthkey(info, 1, key));
	CHECK_STR(key, "shape");
	len = sizeof value;
	CHECK_MPI(MPI_Info_get_string(info, "colour", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "blue");
	CHECK_INT(len, 5);
	CHECK_MPI(MPI_Info_delete(info, "colour"));
	CHECK_MPI(MPI_Info_dup(info, &dup));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK(info == MPI_INFO_NULL);
	CHECK_MPI(MPI_Info_get_nkeys(dup, &n));
	CHECK_INT(n, 1);
	len = sizeof value;
	CHECK_MPI(MPI_Info_get_string(dup, "colour", &len, value, &flag));
	CHECK_INT(flag, 0);
	len = sizeof value;
	CHECK_MPI(MPI_Info_get_string(dup, "shape", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "round");
	CHECK_MPI(MPI_Info_free(&dup));
	CHECK(dup == MPI_INFO_NULL);
}

/* A new class with a code and a string; both read back. */
static void user_error(const char *text)
{
	int cls = -1, code = -1, got = -1, len = -1;
	char s[MPI_MAX_ERROR_STRING];

	CHECK_MPI(MPI_Add_error_class(&cls));
	CHECK_CMP(cls, >, MPI_ERR_LASTCODE);
	CHECK_MPI(MPI_Add_error_code(cls, &code));
	CHECK_CMP(code, >, cls);
	CHECK_MPI(MPI_Add_error_string(code, text));
	CHECK_MPI(MPI_Error_class(code, &got));
	CHECK_INT(got, cls);
	CHECK_MPI(MPI_Error_string(code, s, &len));
	CHECK_STR(s, text);
	CHECK_INT(len, (int)strlen(text));
}

static void handler(MPI_Comm *comm, int *code, ...)
{
	(void)comm;
	(void)code;
}

int main(int argc, char **argv)
{
	MPI_Errhandler eh = MPI_ERRHANDLER_NULL;

	info_round_trip();
	user_error("raised before MPI_Init");

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
	CHECK_MPI(MPI_Finalize());

	info_round_trip();
	user_error("raised after MPI_Finalize");
	CHECK(eh != MPI_ERRHANDLER_NULL);
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK(eh == MPI_ERRHANDLER_NULL);
	return 0;
}
