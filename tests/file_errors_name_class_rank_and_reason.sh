#!/bin/bash
# file_errors_name_class_rank_and_reason: MPI-IO's I/O error classes come from what the system said, on every rank of 4: a file of mode 000 without DAC override is MPI_ERR_ACCESS; a read-only bind mount (private mount namespace) is MPI_ERR_READ_ONLY; a full 64 KiB tmpfs makes MPI_File_preallocate MPI_ERR_NO_SPACE; a directory or an overlong name is MPI_ERR_BAD_FILE; and with MPI_ERRORS_ARE_FATAL on MPI_FILE_NULL the job's message names the function, the rank, the file and the system's reason.
. "$SHOAL_TESTS/lib/common.bash"

build ferr <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "check.h"
/* ferr WHAT PATH: the class of what WHAT does to PATH, printed by rank 0 and the same on
 * every rank. */
int main(int argc, char **argv)
{
	MPI_File fh = MPI_FILE_NULL;
	int rc = MPI_SUCCESS, cls, rank, all[2];
	const char *what = argv[1], *path = argv[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (strcmp(what, "read") == 0)
		rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
	else if (strcmp(what, "write") == 0)
		rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
	else if (strcmp(what, "create") == 0)
		rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
				   MPI_INFO_NULL, &fh);
	else if (strcmp(what, "prealloc") == 0) {
		CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
					MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
		rc = MPI_File_preallocate(fh, 16 << 20);
	} else if (strcmp(what, "fatal") == 0) {
		MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
		rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
	}
	MPI_Error_class(rc, &cls);
	MPI_Allreduce(&cls, &all[0], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(&cls, &all[1], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	CHECK_INT(all[0], all[1]);
	if (rank == 0) {
		char s[MPI_MAX_ERROR_STRING];
		int len;
		MPI_Error_string(cls, s, &len);
		printf("class %s\n", s);
	}
	if (fh != MPI_FILE_NULL)
		MPI_File_close(&fh);
	MPI_Finalize();
	return 0;
}
SRC

T=$TEST_TMP
: >"$T/locked"
chmod 000 "$T/locked"
# Root reads anything with CAP_DAC_OVERRIDE; a job without it (and without
# CAP_DAC_READ_SEARCH) meets the permissions.
run -t 60 setpriv --bounding-set=-dac_override,-dac_read_search "$MPIEXEC" -n 4 "$T/ferr" read "$T/locked"
expect_rc 0
expect_out '^class MPI_ERR_ACCESS:'

mkdir -p "$T/ro" "$T/small"
echo data >"$T/ro/existing"
unshare -m true 2>/dev/null || skip "no private mount namespace (unshare -m)"
for what in write create; do
	name=existing
	[ $what = create ] && name=new
	run -t 60 unshare -m sh -c "mount --bind -o ro '$T/ro' '$T/ro' && exec '$MPIEXEC' -n 4 '$T/ferr' $what '$T/ro/$name'"
	expect_rc 0
	expect_out '^class MPI_ERR_READ_ONLY:'
done
run -t 60 unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$T/small' && exec '$MPIEXEC' -n 4 '$T/ferr' prealloc '$T/small/f'"
expect_rc 0
expect_out '^class MPI_ERR_NO_SPACE:'

run -t 60 "$MPIEXEC" -n 4 "$T/ferr" read "$T"
expect_rc 0
expect_out '^class MPI_ERR_BAD_FILE:'
run -t 60 "$MPIEXEC" -n 4 "$T/ferr" read "$T/$(printf 'x%.0s' $(seq 300))"
expect_rc 0
expect_out '^class MPI_ERR_BAD_FILE:'

# A fatal handler ends the job naming the call, a rank, the file and the system's reason.
run -t 60 "$MPIEXEC" -n 4 "$T/ferr" fatal "$T/nothing-here.dat"
expect_nonzero
expect_err "rank [0-3]: MPI_File_open: .*$T/nothing-here.dat.*No such file or directory"
expect_err 'MPI_ERR_NO_SUCH_FILE'
exit 0
