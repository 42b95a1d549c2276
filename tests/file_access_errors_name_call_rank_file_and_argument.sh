#!/bin/bash
# file_access_errors_name_call_rank_file_and_argument: with MPI_ERRORS_ARE_FATAL on the file, a write to a file opened MPI_MODE_RDONLY ends the job with a message naming MPI_File_write_at, the rank, the file and the access mode; a view with an uncommitted filetype names MPI_File_set_view and the argument; a bad count names MPI_File_read and count. 2 ranks.
. "$SHOAL_TESTS/lib/common.bash"

build fileerr <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
#include "check.h"
/* fileerr WHAT PATH: do WHAT wrong on PATH with a fatal file error handler. */
int main(int argc, char **argv)
{
	MPI_File fh;
	MPI_Datatype t;
	int v = 0, rank;
	const char *what = argv[1];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, argv[2], MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_close(&fh));
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, argv[2],
				strcmp(what, "write") == 0 ? MPI_MODE_RDONLY : MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL));
	if (strcmp(what, "write") == 0 && rank == 1)
		MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
	if (strcmp(what, "view") == 0) {
		MPI_Type_contiguous(2, MPI_INT, &t);
		MPI_File_set_view(fh, 0, MPI_INT, t, "native", MPI_INFO_NULL);
	}
	if (strcmp(what, "count") == 0 && rank == 1)
		MPI_File_read(fh, &v, -3, MPI_INT, MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
	printf("survived\n");
	MPI_File_close(&fh);
	MPI_Finalize();
	return 0;
}
SRC

T=$TEST_TMP
run -t 60 "$MPIEXEC" -n 2 "$T/fileerr" write "$T/data.bin"
expect_nonzero
expect_err "rank 1: MPI_File_write_at: .*MPI_MODE_RDONLY.* $T/data.bin"
expect_err 'MPI_ERR_READ_ONLY'
run -t 60 "$MPIEXEC" -n 2 "$T/fileerr" view "$T/data.bin"
expect_nonzero
expect_err "rank [01]: MPI_File_set_view: filetype is not committed.* $T/data.bin"
expect_err 'MPI_ERR_TYPE'
run -t 60 "$MPIEXEC" -n 2 "$T/fileerr" count "$T/data.bin"
expect_nonzero
expect_err "rank 1: MPI_File_read: count is -3.* $T/data.bin"
expect_err 'MPI_ERR_COUNT'
exit 0
