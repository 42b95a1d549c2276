/* info_set_get_delete_round_trip: MPI_Info keeps keys in insertion order, replaces values,
 * reports lengths, truncates on get, deletes, duplicates independently, and MPI_INFO_ENV and
 * MPI_Comm_set_info/get_info/dup_with_info report what was set. */
/* ranks: 1 2 */
#include "check.h"

int main(int argc, char **argv)
{
	MPI_Info info, dup;
	int n = -1, flag = -1, len = -1;
	char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_get_nkeys(info, &n));
	CHECK_INT(n, 0);
	CHECK_MPI(MPI_Info_set(info, "alpha", "one"));
	CHECK_MPI(MPI_Info_set(info, "beta", "two"));
	CHECK_MPI(MPI_Info_set(info, "gamma", "three"));
	CHECK_MPI(MPI_Info_set(info, "alpha", "uno"));
	CHECK_MPI(MPI_Info_get_nkeys(info, &n));
	CHECK_INT(n, 3);
	CHECK_MPI(MPI_Info_get_nthkey(info, 0, key));
	CHECK_STR(key, "alpha");
	CHECK_MPI(MPI_Info_get_nthkey(info, 2, key));
	CHECK_STR(key, "gamma");
	CHECK_MPI(MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "uno");
	CHECK_MPI(MPI_Info_get_valuelen(info, "gamma", &len, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(len, 5);
	CHECK_MPI(MPI_Info_get(info, "gamma", 2, value, &flag));
	CHECK_STR(value, "th");
	len = sizeof(value);
	CHECK_MPI(MPI_Info_get_string(info, "beta", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "two");
	CHECK_INT(len, 4);
	len = 0;
	CHECK_MPI(MPI_Info_get_string(info, "gamma", &len, NULL, &flag));
	CHECK_INT(len, 6);
	CHECK_MPI(MPI_Info_get(info, "missing", MPI_MAX_INFO_VAL, value, &flag));
	CHECK_INT(flag, 0);

	CHECK_MPI(MPI_Info_dup(info, &dup));
	CHECK_MPI(MPI_Info_delete(info, "beta"));
	CHECK_MPI(MPI_Info_get_nkeys(info, &n));
	CHECK_INT(n, 2);
	CHECK_MPI(MPI_Info_get_nthkey(info, 1, key));
	CHECK_STR(key, "gamma");
	CHECK_MPI(MPI_Info_get_nkeys(dup, &n));
	CHECK_INT(n, 3);

	/* Errors: missing key, bad nth, too-long key, MPI_INFO_NULL. */
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	CHECK_CLASS(MPI_Info_delete(info, "beta"), MPI_ERR_INFO_NOKEY);
	CHECK_CLASS(MPI_Info_get_nthkey(info, 2, key), MPI_ERR_ARG);
	char longkey[MPI_MAX_INFO_KEY + 10];
	memset(longkey, 'k', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	CHECK_CLASS(MPI_Info_set(info, longkey, "v"), MPI_ERR_INFO_KEY);
	CHECK_CLASS(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);

	/* Hints on communicators. */
	MPI_Comm c, d;
	MPI_Info used;
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
	CHECK_MPI(MPI_Comm_set_info(c, info));
	CHECK_MPI(MPI_Comm_get_info(c, &used));
	CHECK_MPI(MPI_Info_get(used, "alpha", MPI_MAX_INFO_VAL, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "uno");
	CHECK_MPI(MPI_Info_free(&used));
	CHECK_MPI(MPI_Comm_dup_with_info(c, dup, &d));
	CHECK_MPI(MPI_Comm_get_info(d, &used));
	CHECK_MPI(MPI_Info_get_nkeys(used, &n));
	CHECK_INT(n, 3);
	CHECK_MPI(MPI_Info_get(used, "beta", MPI_MAX_INFO_VAL, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Info_free(&used));
	CHECK_MPI(MPI_Comm_free(&d));
	CHECK_MPI(MPI_Comm_free(&c));

	/* The environment. */
	CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, value, &flag));
	CHECK_INT(flag, 1);
	int size;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_INT(atoi(value), size);
	MPI_Info env;
	CHECK_MPI(MPI_Info_create_env(argc, argv, &env));
	CHECK_MPI(MPI_Info_get(env, "command", MPI_MAX_INFO_VAL, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, argv[0]);
	CHECK_MPI(MPI_Info_free(&env));

	CHECK_MPI(MPI_Info_free(&dup));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK(info == MPI_INFO_NULL);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
