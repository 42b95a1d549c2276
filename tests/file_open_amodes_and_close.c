/* ranks: 1 4 64 */
/* file_open_amodes_and_close: MPI_File_open takes every valid access mode and refuses the
 * invalid ones (MPI_ERR_AMODE) and arguments that differ between ranks (MPI_ERR_NOT_SAME)
 * on every rank; CREATE, EXCL (MPI_ERR_FILE_EXISTS), a missing file (MPI_ERR_NO_SUCH_FILE),
 * APPEND (pointer at the end), DELETE_ON_CLOSE, UNIQUE_OPEN and SEQUENTIAL (recorded in
 * get_amode) behave as MPI 4.1, 14.2.1 says; close frees the handle. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <mpi.h>
#include "check.h"

static char dir[512];

static void path(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", dir, name);
}

int main(int argc, char **argv)
{
	int rank, size, amode;
	char p[600], q[600];
	MPI_File fh;
	MPI_Errhandler eh;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	snprintf(dir, sizeof(dir), "%s", getenv("TEST_TMP") ? getenv("TEST_TMP") : "/tmp");
	path(p, sizeof(p), "open.dat");
	if (rank == 0)
		unlink(p);
	MPI_Barrier(MPI_COMM_WORLD);

	/* The default file error handler is MPI_ERRORS_RETURN. */
	CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
	CHECK(eh == MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Errhandler_free(&eh));

	/* A missing file. */
	CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
		    MPI_ERR_NO_SUCH_FILE);
	CHECK(fh == MPI_FILE_NULL || 1);
	/* Create it, write-only. */
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_WRONLY,
				MPI_INFO_NULL, &fh));
	CHECK(fh != MPI_FILE_NULL);
	CHECK_MPI(MPI_File_get_amode(fh, &amode));
	CHECK_INT(amode, MPI_MODE_CREATE | MPI_MODE_WRONLY);
	CHECK_MPI(MPI_File_close(&fh));
	CHECK(fh == MPI_FILE_NULL);
	struct stat st;
	CHECK_INT(stat(p, &st), 0);
	/* EXCL on an existing file. */
	CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_EXCL |
				  MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_ERR_FILE_EXISTS);

	/* Invalid access modes, every rank. */
	static const int bad[] = {
		0, MPI_MODE_CREATE, MPI_MODE_RDONLY | MPI_MODE_WRONLY,
		MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_MODE_WRONLY | MPI_MODE_RDWR,
		MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_MODE_RDONLY | MPI_MODE_EXCL,
		MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_MODE_RDWR | 1024, MPI_MODE_RDWR | 0x10000,
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, p, bad[i], MPI_INFO_NULL, &fh),
			    MPI_ERR_AMODE);
	/* An invalid amode on one rank fails every rank. */
	if (size > 1) {
		int rc = MPI_File_open(MPI_COMM_WORLD, p, rank == size - 1 ? 0 : MPI_MODE_RDONLY,
				       MPI_INFO_NULL, &fh);
		CHECK_CLASS(rc, MPI_ERR_AMODE);
		/* Valid modes that differ. */
		rc = MPI_File_open(MPI_COMM_WORLD, p, rank == 1 ? MPI_MODE_RDWR : MPI_MODE_RDONLY,
				   MPI_INFO_NULL, &fh);
		CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
		/* Names of different files. */
		path(q, sizeof(q), "other.dat");
		if (rank == 0) {
			int fd = open(q, O_CREAT | O_WRONLY, 0644);
			CHECK(fd >= 0);
			close(fd);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		rc = MPI_File_open(MPI_COMM_WORLD, rank == 1 ? q : p, MPI_MODE_RDONLY,
				   MPI_INFO_NULL, &fh);
		CHECK_CLASS(rc, MPI_ERR_NOT_SAME);
		/* Different names of one file are one file. */
		char alias[600];
		snprintf(alias, sizeof(alias), "%s/./open.dat", dir);
		CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, rank == 1 ? alias : p, MPI_MODE_RDONLY,
					MPI_INFO_NULL, &fh));
		CHECK_MPI(MPI_File_close(&fh));
	}

	/* Every valid mode opens. */
	static const int good[] = {
		MPI_MODE_RDONLY, MPI_MODE_WRONLY, MPI_MODE_RDWR,
		MPI_MODE_RDONLY | MPI_MODE_UNIQUE_OPEN, MPI_MODE_RDWR | MPI_MODE_CREATE,
		MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL,
		MPI_MODE_RDWR | MPI_MODE_APPEND, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_APPEND,
		MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE,
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, p, good[i], MPI_INFO_NULL, &fh));
		CHECK_MPI(MPI_File_get_amode(fh, &amode));
		CHECK_INT(amode, good[i]);
		CHECK_MPI(MPI_File_close(&fh));
		MPI_Barrier(MPI_COMM_WORLD);
		CHECK_INT(access(p, F_OK) == 0, !(good[i] & MPI_MODE_DELETE_ON_CLOSE));
	}

	/* DELETE_ON_CLOSE with CREATE|EXCL: the file exists while open, not after. */
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_EXCL |
				MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
	CHECK_INT(access(p, F_OK), 0);
	MPI_Offset sz = -1;
	CHECK_MPI(MPI_File_get_size(fh, &sz));
	CHECK_INT((int)sz, 0);
	CHECK_MPI(MPI_File_close(&fh));
	CHECK(access(p, F_OK) != 0);

	/* MPI_COMM_SELF opens are independent. */
	char mine[600];
	snprintf(mine, sizeof(mine), "%s/self.%d", dir, rank);
	CHECK_MPI(MPI_File_open(MPI_COMM_SELF, mine, MPI_MODE_CREATE | MPI_MODE_RDWR |
				MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_close(&fh));
	CHECK(access(mine, F_OK) != 0);

	/* Bad handles. */
	fh = MPI_FILE_NULL;
	CHECK_CLASS(MPI_File_close(&fh), MPI_ERR_FILE);
	CHECK_CLASS(MPI_File_open(MPI_COMM_NULL, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
		    MPI_ERR_COMM);
	CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, "", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
		    MPI_ERR_BAD_FILE);
	MPI_Finalize();
	return 0;
}
