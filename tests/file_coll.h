/* Helpers of the collective file access tests (file_coll_*.c): a file name every rank agrees
 * on, the file's bytes read back with plain pread, and the image a set of views should leave
 * in the file, built with MPI_Unpack (the datatype layer places each rank's data where its
 * filetype says, independently of the file code). Entered by rank threads. */
#ifndef SHOAL_TESTS_FILE_COLL_H
#define SHOAL_TESTS_FILE_COLL_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* A path in rank 0's $TEST_TMP (or /tmp) named `what` and rank 0's pid, the same on every
 * rank of `comm` (ranks on other hosts may have another environment). */
static inline void coll_path(MPI_Comm comm, const char *what, char *path, size_t size)
{
	int rank;
	char p[512];
	const char *dir = getenv("TEST_TMP");

	MPI_Comm_rank(comm, &rank);
	if (rank == 0)
		snprintf(p, sizeof p, "%s/%s.%ld", dir != NULL && *dir ? dir : "/tmp", what,
			 (long)getpid());
	CHECK_MPI(MPI_Bcast(p, sizeof p, MPI_CHAR, 0, comm));
	snprintf(path, size, "%s", p);
}

/* The first `size` bytes of the file at `path`, by pread; bytes past its end read as 0xEE.
 * Returns malloc'ed memory; *got the file's length. */
static inline unsigned char *coll_file_bytes(const char *path, size_t size, size_t *got)
{
	unsigned char *b = malloc(size ? size : 1);
	int fd = open(path, O_RDONLY);
	size_t at = 0;

	CHECK(b != NULL);
	CHECK(fd >= 0);
	memset(b, 0xEE, size);
	while (at < size) {
		ssize_t n = pread(fd, b + at, size - at, (off_t)at);
		CHECK(n >= 0);
		if (n == 0)
			break;
		at += (size_t)n;
	}
	*got = (size_t)lseek(fd, 0, SEEK_END);
	close(fd);
	return b;
}

/* Place `bytes` bytes of contiguous data `data` into `image` as a view with displacement
 * `disp` and filetype `ft` (tiled as needed) lays them out: what a write of them through the
 * view leaves in the file. */
static inline void coll_place(unsigned char *image, size_t image_size, MPI_Offset disp,
			      MPI_Datatype ft, const void *data, int bytes)
{
	int tsize, pos = 0, n;

	if (bytes == 0)
		return;
	MPI_Type_size(ft, &tsize);
	n = (bytes + tsize - 1) / tsize;
	{
		/* Whole filetypes, then the partial last one through a copy of its first bytes. */
		int whole = bytes / tsize;
		MPI_Aint lb, ext;
		MPI_Type_get_extent(ft, &lb, &ext);
		if (whole > 0)
			CHECK_MPI(MPI_Unpack(data, bytes, &pos, image + disp, whole, ft,
					     MPI_COMM_SELF));
		if (whole < n) {
			/* The rest: unpack a full filetype's worth from a padded copy into a
			 * scratch image, then keep only the bytes the partial tile covers. */
			unsigned char *pad = calloc((size_t)tsize, 1), *scratch, *mark;
			size_t span = image_size;
			int p2 = 0, p3 = 0, rest = bytes - whole * tsize;
			CHECK(pad != NULL);
			memcpy(pad, (const char *)data + whole * tsize, (size_t)rest);
			scratch = calloc(span, 1);
			mark = calloc(span, 1);
			CHECK(scratch != NULL && mark != NULL);
			CHECK_MPI(MPI_Unpack(pad, tsize, &p2, scratch, 1, ft, MPI_COMM_SELF));
			/* Which bytes of the tile the first `rest` data bytes land on. */
			memset(pad, 0, (size_t)tsize);
			memset(pad, 1, (size_t)rest);
			CHECK_MPI(MPI_Unpack(pad, tsize, &p3, mark, 1, ft, MPI_COMM_SELF));
			for (size_t i = 0; i < span; i++) {
				size_t at = (size_t)disp + (size_t)whole * (size_t)ext + i;
				if (at < image_size && mark[i])
					image[at] = scratch[i];
			}
			free(pad);
			free(scratch);
			free(mark);
		}
	}
}

/* Compare the file's first `size` bytes to `image`; on a difference name the first byte
 * that differs. */
static inline void coll_check_file(const char *path, const unsigned char *image, size_t size)
{
	size_t got;
	unsigned char *b = coll_file_bytes(path, size, &got);

	for (size_t i = 0; i < size; i++)
		if (b[i] != image[i]) {
			char m[256];
			snprintf(m, sizeof m, "file byte %zu is 0x%02x, expected 0x%02x (file %zu bytes)",
				 i, b[i], image[i], got);
			check_fail(__FILE__, __LINE__, m);
		}
	free(b);
}

#endif
