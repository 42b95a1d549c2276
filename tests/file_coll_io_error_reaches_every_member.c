/* file_coll_io_error_reaches_every_member: a collective write whose aggregator fails (the
 * file-size limit, RLIMIT_FSIZE, cuts it; one aggregator through cb_nodes 1, so the other
 * members never touch the file) returns the same error class on every member; the file stays usable for a collective below the limit;
 * a collective write on a file opened read-only is MPI_ERR_READ_ONLY and a collective read
 * on a write-only one MPI_ERR_ACCESS, on every member. */
/* ranks: 1 4 16 64 */
#include <signal.h>
#include <sys/resource.h>

#include "file_coll.h"

#define BLK 65536
#define LIMIT (1 << 20)

int main(int argc, char **argv)
{
	int rank, size, rc, cls, lo, hi;
	char path[512];
	MPI_File fh;
	MPI_Info info;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	unsigned char *a = malloc(BLK);
	CHECK(a != NULL);
	memset(a, rank + 1, BLK);
	if (rank == 0) {
		/* Process-wide: every rank of this node process shares them. */
		struct rlimit rl = { LIMIT, LIMIT };
		struct sigaction sa = { .sa_handler = SIG_IGN };
		CHECK(sigaction(SIGXFSZ, &sa, NULL) == 0);
		CHECK(setrlimit(RLIMIT_FSIZE, &rl) == 0);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	coll_path(MPI_COMM_WORLD, "file_coll_err", path, sizeof path);
	MPI_Info_create(&info);
	MPI_Info_set(info, "cb_nodes", "1");
	MPI_Info_set(info, "romio_cb_write", "enable");
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
	MPI_Info_free(&info);

	/* Straddles the limit: the aggregator's write stops at it. */
	rc = MPI_File_write_at_all(fh, LIMIT - BLK / 2 + (MPI_Offset)rank * BLK, a, BLK, MPI_BYTE,
				   &st);
	CHECK(rc != MPI_SUCCESS);
	MPI_Error_class(rc, &cls);
	MPI_Allreduce(&cls, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(&cls, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	CHECK_INT(lo, hi);
	CHECK(cls == MPI_ERR_IO || cls == MPI_ERR_NO_SPACE);

	/* Below the limit it works. */
	CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * (LIMIT / 32 / size), a,
					LIMIT / 32 / size, MPI_BYTE, &st));
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);

	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
	CHECK_CLASS(MPI_File_write_all(fh, a, 16, MPI_BYTE, &st), MPI_ERR_READ_ONLY);
	CHECK_MPI(MPI_File_close(&fh));
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
	CHECK_CLASS(MPI_File_read_all(fh, a, 16, MPI_BYTE, &st), MPI_ERR_ACCESS);
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		unlink(path);
	free(a);
	if (rank == 0)
		printf("ok\n");
	MPI_Finalize();
	return 0;
}
