#!/bin/bash
# file_open_close_hints_across_hosts: MPI_File_open, close, delete, the hints, set_size, sync, atomicity and the file error handlers behave across 2 hosts (network namespaces, one file system) as on one: the C tests file_open_amodes_and_close and file_errhandlers_info_size_and_sync pass with 4 ranks, 2 per host, placed by node and by slot, and cb_nodes defaults to the 2 nodes.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build nodes <<'SRC'
#include <stdio.h>
#include <mpi.h>
#include "check.h"
int main(int argc, char **argv)
{
	char path[600], v[64];
	int rank, flag, len = sizeof(v) - 1;
	MPI_File fh;
	MPI_Info used;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	snprintf(path, sizeof(path), "%s/nodes.dat", argv[1]);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
				MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_get_info(fh, &used));
	CHECK_MPI(MPI_Info_get_string(used, "cb_nodes", &len, v, &flag));
	CHECK_INT(flag, 1);
	printf("rank %d cb_nodes %s\n", rank, v);
	MPI_Info_free(&used);
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Finalize();
	return 0;
}
SRC

for t in file_open_amodes_and_close file_errhandlers_info_size_and_sync; do
	[ -x "$SHOAL_BUILD/tests/$t" ] || fail "$SHOAL_BUILD/tests/$t is not built (make test-programs)"
done
netns_up 2
hosts=$(netns_hosts)
for map in node slot; do
	for t in file_open_amodes_and_close file_errhandlers_info_size_and_sync; do
		run -t 90 env TEST_TMP="$TEST_TMP" "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 2 -n 4 \
			--map-by $map "$SHOAL_BUILD/tests/$t"
		[ "$RC" = 0 ] || { show; fail "$t, 4 ranks on 2 hosts by $map: exit $RC"; }
	done
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 2 -n 4 --map-by $map "$TEST_TMP/nodes" \
		"$TEST_TMP"
	[ "$RC" = 0 ] || { show; fail "nodes, by $map: exit $RC"; }
	expect_out_count '^rank [0-3] cb_nodes 2$' 4
done
exit 0
