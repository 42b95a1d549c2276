/* Helpers of the MPI-IO tests of views and independent access: a file name in the test's
 * scratch directory that every rank of a communicator agrees on, and the file's bytes read
 * with plain system calls (never through MPI), so that the tests judge what MPI wrote by
 * what is on the disk. Entered by rank threads; public MPI interface and libc only. */
#ifndef SHOAL_TESTS_FILE_BYTES_H
#define SHOAL_TESTS_FILE_BYTES_H

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* `name` in $TEST_TMP (or /tmp, with rank 0's pid, outside tests/run), the same string on
 * every rank of `comm` (rank 0 chooses it). */
static inline void file_path(MPI_Comm comm, const char *name, char *path, int len)
{
	int rank;
	const char *dir = getenv("TEST_TMP");

	MPI_Comm_rank(comm, &rank);
	if (rank == 0) {
		if (dir != NULL)
			snprintf(path, (size_t)len, "%s/%s", dir, name);
		else
			snprintf(path, (size_t)len, "/tmp/%s.%d", name, (int)getpid());
	}
	CHECK_MPI(MPI_Bcast(path, len, MPI_CHAR, 0, comm));
}

/* The size of the file at `path` (stat(2)). */
static inline long long file_size_of(const char *path)
{
	struct stat sb;

	CHECK(stat(path, &sb) == 0);
	return (long long)sb.st_size;
}

/* `len` bytes at `off` of the file at `path`, with pread(2): returns how many there were
 * (fewer at the end of the file). */
static inline long long file_pread(const char *path, void *buf, long long len, long long off)
{
	int fd = open(path, O_RDONLY);
	long long got = 0;

	CHECK(fd >= 0);
	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, (size_t)(len - got), (off_t)(off + got));
		CHECK(n >= 0);
		if (n == 0)
			break;
		got += n;
	}
	close(fd);
	return got;
}

/* The whole file at `path`, malloc'ed; its size in *len. */
static inline unsigned char *file_slurp(const char *path, long long *len)
{
	long long n = file_size_of(path);
	unsigned char *b = malloc((size_t)n + 1);

	CHECK(b != NULL);
	CHECK_INT(file_pread(path, b, n, 0), n);
	*len = n;
	return b;
}

/* Rank 0 removes a file the test made (MPI_File_delete belongs to other tests). */
static inline void file_remove(MPI_Comm comm, const char *path)
{
	int rank;

	MPI_Barrier(comm);
	MPI_Comm_rank(comm, &rank);
	if (rank == 0)
		unlink(path);
	MPI_Barrier(comm);
}

#endif
