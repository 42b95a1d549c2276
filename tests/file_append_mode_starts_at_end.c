/* ranks: 1 4 */
/* file_append_mode_starts_at_end: MPI_MODE_APPEND puts the individual file pointer at the
 * end of the file; a write there extends it (bytes checked with pread). Uses access.c's
 * individual pointer calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <fcntl.h>
#include <unistd.h>
#include "check.h"

/* `name` in $TEST_TMP (or /tmp), as rank 0 of MPI_COMM_WORLD spells it. */
static void file_path(MPI_Comm comm, const char *name, char *path, int len)
{
	const char *dir = getenv("TEST_TMP");
	int rank;

	MPI_Comm_rank(comm, &rank);
	if (rank == 0)
		snprintf(path, (size_t)len, "%s/%s.%d", dir ? dir : "/tmp", name, (int)getpid());
	CHECK_MPI(MPI_Bcast(path, len, MPI_CHAR, 0, comm));
}

/* `len` bytes at `off` of the file, with pread(2), not through MPI: how many there were. */
static long long file_pread(const char *path, void *buf, long long len, long long off)
{
	int fd = open(path, O_RDONLY);
	long long n;

	CHECK(fd >= 0);
	n = pread(fd, buf, (size_t)len, off);
	close(fd);
	return n;
}

int main(int argc, char **argv)
{
	int rank, size;
	char path[512];
	MPI_File fh;
	MPI_Offset pos;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "append.dat", path, sizeof(path));
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
				MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_set_size(fh, 1000));
	CHECK_MPI(MPI_File_close(&fh));
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND |
				MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_get_position(fh, &pos));
	CHECK_INT((int)pos, 1000);
	CHECK_MPI(MPI_File_seek(fh, rank, MPI_SEEK_CUR));
	char c = (char)('a' + rank);
	CHECK_MPI(MPI_File_write(fh, &c, 1, MPI_CHAR, MPI_STATUS_IGNORE));
	MPI_Barrier(MPI_COMM_WORLD);
	char got[64];
	CHECK_INT((int)file_pread(path, got, size, 1000), size);
	for (int r = 0; r < size; r++)
		CHECK_INT(got[r], 'a' + r);
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Finalize();
	return 0;
}
