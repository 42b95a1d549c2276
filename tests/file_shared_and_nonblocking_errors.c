/* file_shared_and_nonblocking_errors: error classes of shared-pointer, ordered and
 * nonblocking access. A write failing in an I/O worker (past RLIMIT_FSIZE: EFBIG, no space)
 * is raised at completion on the file's handler (a user handler sees the file), its class
 * in Waitall's statuses (MPI_ERR_IN_STATUS); writes to a read-only file MPI_ERR_READ_ONLY
 * (write_ordered on every rank), reads of a write-only one MPI_ERR_ACCESS; MPI_MODE_SEQUENTIAL
 * takes shared-pointer access only (explicit offsets, the individual pointer, seek_shared
 * and get_position_shared: MPI_ERR_UNSUPPORTED_OPERATION); NULL request, negative count. */
/* ranks: 1 4 */
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include "check.h"

#define LIMIT (1 << 20)  /* the file size limit: a write past it fails */

static int handled, handled_class;
static MPI_File handled_file;

static void on_error(MPI_File *fh, int *code, ...)
{
	handled++;
	handled_file = *fh;
	MPI_Error_class(*code, &handled_class);
}

int main(int argc, char **argv)
{
	int rank, size, rc;
	char path[4096];
	MPI_File fh;
	MPI_Request q, qs[2];
	MPI_Status st, sts[2];
	char buf[64] = "record";

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		const char *dir = argc > 1 ? argv[1] : getenv("TEST_TMP");
		snprintf(path, sizeof path, "%s/errors.%d", dir ? dir : "/tmp", (int)getpid());
	}
	MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);

	/* A failure in a worker: raised at completion, on the file's handler. The ranks of a
	 * node share one process, and so its limit. */
	struct rlimit old, lim;
	int local;
	MPI_Comm node;
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &local);
	CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
	if (local == 0) {
		lim = old;
		lim.rlim_cur = LIMIT;
		signal(SIGXFSZ, SIG_IGN);  /* the write fails with EFBIG instead */
		CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	}
	MPI_Barrier(node);
	{
		char full[4200];
		MPI_Errhandler eh;
		snprintf(full, sizeof full, "%s.full.%d", path, rank);
		CHECK_MPI(MPI_File_open(MPI_COMM_SELF, full, MPI_MODE_WRONLY | MPI_MODE_CREATE |
					MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
		CHECK_MPI(MPI_File_create_errhandler(on_error, &eh));
		CHECK_MPI(MPI_File_set_errhandler(fh, eh));
		CHECK_MPI(MPI_File_iwrite_at(fh, 2 * LIMIT, buf, 64, MPI_BYTE, &q));
		rc = MPI_Wait(&q, &st);
		CHECK_CLASS(rc, MPI_ERR_NO_SPACE);
		CHECK_INT(handled, 1);
		CHECK_INT(handled_class, MPI_ERR_NO_SPACE);
		CHECK(handled_file == fh);
		CHECK(q == MPI_REQUEST_NULL);
		CHECK_MPI(MPI_File_seek_shared(fh, 2 * LIMIT, MPI_SEEK_SET));
		CHECK_MPI(MPI_File_iwrite_shared(fh, buf, 64, MPI_BYTE, &qs[0]));
		CHECK_MPI(MPI_File_iwrite_at(fh, 0, buf, 8, MPI_BYTE, &qs[1]));
		rc = MPI_Waitall(2, qs, sts);
		CHECK_CLASS(rc, MPI_ERR_IN_STATUS);
		CHECK_INT(sts[0].MPI_ERROR, MPI_ERR_NO_SPACE);
		CHECK_INT(sts[1].MPI_ERROR, MPI_SUCCESS);
		CHECK_INT(handled, 2);
		CHECK_INT(handled_class, MPI_ERR_IN_STATUS);
		rc = MPI_File_write_shared(fh, buf, 64, MPI_BYTE, &st);
		CHECK_CLASS(rc, MPI_ERR_NO_SPACE);
		CHECK_INT(handled, 3);
		CHECK_MPI(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
		CHECK_MPI(MPI_Errhandler_free(&eh));
		CHECK_MPI(MPI_File_close(&fh));
	}
	MPI_Barrier(node);
	if (local == 0)
		CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
	MPI_Comm_free(&node);

	/* Write-only and read-only files. */
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE,
				MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_write_ordered(fh, buf, 8, MPI_BYTE, &st));
	rc = MPI_File_iread_at(fh, 0, buf, 8, MPI_BYTE, &q);
	CHECK_CLASS(rc, MPI_ERR_ACCESS);
	rc = MPI_File_read_shared(fh, buf, 8, MPI_BYTE, &st);
	CHECK_CLASS(rc, MPI_ERR_ACCESS);
	rc = MPI_File_iread_shared(fh, buf, 8, MPI_BYTE, &q);
	CHECK_CLASS(rc, MPI_ERR_ACCESS);
	rc = MPI_File_iwrite_at(fh, 0, buf, 8, MPI_BYTE, NULL);
	CHECK_CLASS(rc, MPI_ERR_REQUEST);
	rc = MPI_File_iwrite_at(fh, 0, buf, -1, MPI_BYTE, &q);
	CHECK_CLASS(rc, MPI_ERR_COUNT);
	rc = MPI_File_write_shared(fh, buf, -1, MPI_BYTE, &st);
	CHECK_CLASS(rc, MPI_ERR_COUNT);
	CHECK_MPI(MPI_File_close(&fh));

	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
	rc = MPI_File_write_shared(fh, buf, 8, MPI_BYTE, &st);
	CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
	rc = MPI_File_iwrite_shared(fh, buf, 8, MPI_BYTE, &q);
	CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
	rc = MPI_File_iwrite_at(fh, 0, buf, 8, MPI_BYTE, &q);
	CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
	rc = MPI_File_iwrite(fh, buf, 8, MPI_BYTE, &q);
	CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
	rc = MPI_File_write_ordered(fh, buf, 8, MPI_BYTE, &st);
	CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
	rc = MPI_File_write_ordered_begin(fh, buf, 8, MPI_BYTE);
	CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
	/* The pointer did not move: the ordered read starts where the writes left it. */
	MPI_Offset pos;
	CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
	CHECK_INT(pos, 0);
	CHECK_MPI(MPI_File_read_ordered(fh, buf, 8, MPI_BYTE, &st));
	CHECK_MPI(MPI_File_close(&fh));

	/* Sequential: the shared pointer only. */
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		unlink(path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE |
				MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
	rc = MPI_File_iwrite_at(fh, 0, buf, 8, MPI_BYTE, &q);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION);
	rc = MPI_File_iwrite(fh, buf, 8, MPI_BYTE, &q);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION);
	rc = MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION);
	rc = MPI_File_get_position_shared(fh, &pos);
	CHECK_CLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION);
	snprintf(buf, sizeof buf, "rank %4d", rank);
	CHECK_MPI(MPI_File_write_ordered(fh, buf, 9, MPI_BYTE, &st));
	CHECK_MPI(MPI_File_iwrite_shared(fh, buf, 9, MPI_BYTE, &q));
	CHECK_MPI(MPI_Wait(&q, &st));
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		/* The ordered records in rank order, then one record per rank. */
		char want[16], got[16];
		int fd = open(path, O_RDONLY);
		CHECK(fd >= 0);
		CHECK_INT(lseek(fd, 0, SEEK_END), 2 * 9 * size);
		for (int r = 0; r < size; r++) {
			snprintf(want, sizeof want, "rank %4d", r);
			CHECK_INT(pread(fd, got, 9, 9 * r), 9);
			CHECK(memcmp(got, want, 9) == 0);
		}
		close(fd);
		unlink(path);
	}
	printf("ok %d\n", rank);
	MPI_Finalize();
	return 0;
}
