/* ranks: 1 4 64 */
/* file_errhandlers_info_size_and_sync: file error handlers (MPI_ERRORS_RETURN by default; a
 * user handler set on MPI_FILE_NULL is called by a failed MPI_File_open with MPI_FILE_NULL and
 * is inherited by files opened after; call_errhandler passes the file's handle), c2f/f2c,
 * delete, get_group, the hints in use (defaults, open's info, set_info, file_perm), set_size
 * and preallocate (bytes in the file; sizes that differ are MPI_ERR_NOT_SAME), sync,
 * atomicity, and MPI_Register_datarep's MPI_ERR_DUP_DATAREP. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <mpi.h>
#include "check.h"

static int calls, last_class;
static MPI_File last_file = (MPI_File)1;

static void on_error(MPI_File *fh, int *code, ...)
{
	calls++;
	last_file = *fh;
	MPI_Error_class(*code, &last_class);
}

static int extent_fn(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
	MPI_Aint lb;
	return MPI_Type_get_extent(t, &lb, extent);
}

/* The value of `key` in `info`, or "" if unset. */
static const char *hint(MPI_Info info, const char *key)
{
	static char v[MPI_MAX_INFO_VAL + 1];
	int flag = 0, len = sizeof(v) - 1;

	v[0] = '\0';
	CHECK_MPI(MPI_Info_get_string(info, key, &len, v, &flag));
	if (!flag)
		v[0] = '\0';
	return v;
}

int main(int argc, char **argv)
{
	int rank, size, flag;
	char p[600], missing[600];
	MPI_File fh;
	MPI_Errhandler eh, got;
	MPI_Info info, used;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	const char *dir = getenv("TEST_TMP") ? getenv("TEST_TMP") : "/tmp";
	snprintf(p, sizeof(p), "%s/handlers.dat", dir);
	snprintf(missing, sizeof(missing), "%s/missing.dat", dir);
	if (rank == 0)
		unlink(p);
	MPI_Barrier(MPI_COMM_WORLD);

	/* A user handler on MPI_FILE_NULL: open failures call it with MPI_FILE_NULL. */
	CHECK_CLASS(MPI_File_create_errhandler(NULL, &eh), MPI_ERR_ARG);
	CHECK_MPI(MPI_File_create_errhandler(on_error, &eh));
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh), MPI_ERR_ARG);
	CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
	CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
	CHECK(got == eh);
	CHECK_MPI(MPI_Errhandler_free(&got));
	CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
		    MPI_ERR_NO_SUCH_FILE);
	CHECK_INT(calls, 1);
	CHECK(last_file == MPI_FILE_NULL);
	CHECK_INT(last_class, MPI_ERR_NO_SUCH_FILE);
	CHECK_CLASS(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);
	CHECK_INT(calls, 2);

	/* A file opened now inherits it; call_errhandler passes the file. */
	MPI_Info_create(&info);
	MPI_Info_set(info, "cb_buffer_size", "1048576");
	MPI_Info_set(info, "romio_cb_write", "disable");
	MPI_Info_set(info, "access_style", "write_once");
	MPI_Info_set(info, "no_such_hint_here", "1");
	MPI_Info_set(info, "file_perm", "0600");
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
	MPI_Info_free(&info);
	CHECK_MPI(MPI_File_get_errhandler(fh, &got));
	CHECK(got == eh);
	CHECK_MPI(MPI_Errhandler_free(&got));
	CHECK_MPI(MPI_File_call_errhandler(fh, MPI_ERR_IO));
	CHECK_INT(calls, 3);
	CHECK(last_file == fh);
	CHECK_INT(last_class, MPI_ERR_IO);
	CHECK_MPI(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK_MPI(MPI_File_call_errhandler(fh, MPI_ERR_IO));
	CHECK_INT(calls, 3);
	struct stat st;
	CHECK_INT(stat(p, &st), 0);
	CHECK_INT(st.st_mode & 0777, 0600);

	/* Handles as integers. */
	MPI_Fint fi = MPI_File_c2f(fh);
	CHECK(fi != 0);
	CHECK(MPI_File_f2c(fi) == fh);
	CHECK(MPI_File_f2c(0) == MPI_FILE_NULL);
	CHECK_INT(MPI_File_c2f(MPI_FILE_NULL), 0);

	/* The group is the opener's. */
	MPI_Group g, wg;
	int cmp;
	CHECK_MPI(MPI_File_get_group(fh, &g));
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_compare(g, wg, &cmp);
	CHECK_INT(cmp, MPI_IDENT);
	MPI_Group_free(&g);
	MPI_Group_free(&wg);

	/* The hints in use: given, defaults, reserved ones kept, unknown ones dropped. */
	CHECK_MPI(MPI_File_get_info(fh, &used));
	CHECK_STR(hint(used, "cb_buffer_size"), "1048576");
	CHECK_STR(hint(used, "romio_cb_write"), "disable");
	CHECK_STR(hint(used, "romio_cb_read"), "automatic");
	/* One aggregator per node of the file's group. */
	MPI_Comm node;
	int node_rank, leaders = 0, lead;
	char nodes[16];
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &node_rank);
	lead = node_rank == 0;
	MPI_Allreduce(&lead, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Comm_free(&node);
	snprintf(nodes, sizeof(nodes), "%d", leaders);
	CHECK_STR(hint(used, "cb_nodes"), nodes);
	CHECK_STR(hint(used, "ind_rd_buffer_size"), "4194304");
	CHECK_STR(hint(used, "ind_wr_buffer_size"), "524288");
	CHECK_STR(hint(used, "access_style"), "write_once");
	CHECK_STR(hint(used, "file_perm"), "0600");
	CHECK_STR(hint(used, "no_such_hint_here"), "");
	MPI_Info_free(&used);
	MPI_Info_create(&info);
	MPI_Info_set(info, "striping_unit", "65536");
	MPI_Info_set(info, "cb_buffer_size", "not a number");
	MPI_Info_set(info, "romio_ds_read", "enable");
	MPI_Info_set(info, "cb_nodes", "100000");
	CHECK_MPI(MPI_File_set_info(fh, info));
	MPI_Info_free(&info);
	CHECK_MPI(MPI_File_get_info(fh, &used));
	CHECK_STR(hint(used, "striping_unit"), "65536");
	CHECK_STR(hint(used, "cb_buffer_size"), "1048576");
	CHECK_STR(hint(used, "romio_ds_read"), "enable");
	char members[16];
	snprintf(members, sizeof(members), "%d", size);
	CHECK_STR(hint(used, "cb_nodes"), members);
	MPI_Info_free(&used);

	/* Sizes: set_size truncates and extends, preallocate only extends. */
	MPI_Offset sz;
	CHECK_MPI(MPI_File_set_size(fh, 12345));
	CHECK_MPI(MPI_File_get_size(fh, &sz));
	CHECK_INT((int)sz, 12345);
	CHECK_INT(stat(p, &st), 0);
	CHECK_INT((int)st.st_size, 12345);
	CHECK_MPI(MPI_File_preallocate(fh, 100));
	CHECK_MPI(MPI_File_get_size(fh, &sz));
	CHECK_INT((int)sz, 12345);
	CHECK_MPI(MPI_File_preallocate(fh, 1 << 20));
	CHECK_MPI(MPI_File_get_size(fh, &sz));
	CHECK_INT((int)sz, 1 << 20);
	CHECK_MPI(MPI_File_set_size(fh, 10));
	CHECK_INT(stat(p, &st), 0);
	CHECK_INT((int)st.st_size, 10);
	CHECK_CLASS(MPI_File_set_size(fh, -1), MPI_ERR_ARG);
	if (size > 1) {
		CHECK_CLASS(MPI_File_set_size(fh, rank == 0 ? 20 : 30), MPI_ERR_NOT_SAME);
		CHECK_CLASS(MPI_File_preallocate(fh, rank), MPI_ERR_NOT_SAME);
		CHECK_CLASS(MPI_File_set_atomicity(fh, rank == 1), MPI_ERR_NOT_SAME);
	}
	CHECK_MPI(MPI_File_get_size(fh, &sz));
	CHECK_INT((int)sz, 10);

	/* Sync and atomicity. */
	CHECK_MPI(MPI_File_sync(fh));
	CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_File_set_atomicity(fh, 1));
	CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_File_close(&fh));
	CHECK(MPI_File_f2c(fi) == MPI_FILE_NULL);
	CHECK_CLASS(MPI_File_get_size(fh, &sz), MPI_ERR_FILE);

	/* set_size on a read-only file and on a sequential one. */
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
	CHECK_CLASS(MPI_File_set_size(fh, 0), MPI_ERR_READ_ONLY);
	CHECK_MPI(MPI_File_close(&fh));
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
				MPI_INFO_NULL, &fh));
	CHECK_CLASS(MPI_File_set_size(fh, 0), MPI_ERR_UNSUPPORTED_OPERATION);
	CHECK_CLASS(MPI_File_preallocate(fh, 0), MPI_ERR_UNSUPPORTED_OPERATION);
	CHECK_MPI(MPI_File_close(&fh));

	/* Delete. */
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		CHECK_MPI(MPI_File_delete(p, MPI_INFO_NULL));
		CHECK(access(p, F_OK) != 0);
	}

	/* Data representations: predefined names and a rank's own names are taken. */
	CHECK_CLASS(MPI_Register_datarep("external32", MPI_CONVERSION_FN_NULL,
					 MPI_CONVERSION_FN_NULL, extent_fn, NULL),
		    MPI_ERR_DUP_DATAREP);
	CHECK_CLASS(MPI_Register_datarep("native", NULL, NULL, extent_fn, NULL),
		    MPI_ERR_DUP_DATAREP);
	CHECK_MPI(MPI_Register_datarep("mine", NULL, NULL, extent_fn, NULL));
	CHECK_CLASS(MPI_Register_datarep("mine", NULL, NULL, extent_fn, NULL),
		    MPI_ERR_DUP_DATAREP);
	CHECK_CLASS(MPI_Register_datarep_c("mine", NULL, NULL, extent_fn, NULL),
		    MPI_ERR_DUP_DATAREP);
	MPI_Finalize();
	return 0;
}
