#!/bin/bash
# file_write_to_full_disk_is_err_no_space: on a full file system (a 64 KiB tmpfs in a private mount namespace), MPI_File_write_at, MPI_File_write and a sieved strided write through a view fail with MPI_ERR_NO_SPACE on the rank that wrote (never a short write that succeeds), at 1 and 4 ranks.
. "$SHOAL_TESTS/lib/common.bash"

build nospace <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "check.h"
/* nospace PATH: rank 0 writes 256 KiB into a 64 KiB file system three ways; each must be
 * MPI_ERR_NO_SPACE. Prints "class NAME" per way. */
static void say(int rc, const char *how)
{
	char s[MPI_MAX_ERROR_STRING];
	int cls, len;

	MPI_Error_class(rc, &cls);
	MPI_Error_string(cls, s, &len);
	printf("%s: class %s\n", how, s);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	MPI_File fh;
	MPI_Datatype one;
	int rank, n = 256 * 1024;
	char *buf = malloc((size_t)n);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	memset(buf, 'x', (size_t)n);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	if (rank == 0) {
		say(MPI_File_write_at(fh, 0, buf, n, MPI_BYTE, MPI_STATUS_IGNORE), "write_at");
		say(MPI_File_write(fh, buf, n, MPI_BYTE, MPI_STATUS_IGNORE), "write");
	}
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_File_set_size(fh, 0));
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &one));
	CHECK_MPI(MPI_Type_commit(&one));
	CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, one, "native", MPI_INFO_NULL));
	if (rank == 0)
		say(MPI_File_write_at(fh, 0, buf, n / 4, MPI_INT, MPI_STATUS_IGNORE), "sieved");
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Type_free(&one);
	free(buf);
	MPI_Finalize();
	return 0;
}
SRC

T=$TEST_TMP
mkdir -p "$T/small"
unshare -m true 2>/dev/null || skip "no private mount namespace (unshare -m)"
for n in 1 4; do
	run -t 60 unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$T/small' && exec '$MPIEXEC' -n $n '$T/nospace' '$T/small/f'"
	expect_rc 0
	for how in write_at write sieved; do
		expect_out "^$how: class MPI_ERR_NO_SPACE:"
	done
done
exit 0
