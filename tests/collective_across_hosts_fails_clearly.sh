#!/bin/bash
# collective_across_hosts_fails_clearly: until collectives and communicator creation work across nodes, MPI_Barrier and MPI_Comm_dup on a communicator spanning 2 hosts (network namespaces) end the job at once with a message naming the call, never hang.
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build coll <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Comm c;
	MPI_Init(&argc, &argv);
	/* MPI_COMM_SELF is on one node: its collectives still work. */
	MPI_Barrier(MPI_COMM_SELF);
	if (strcmp(argv[1], "barrier") == 0)
		MPI_Barrier(MPI_COMM_WORLD);
	else
		MPI_Comm_dup(MPI_COMM_WORLD, &c);
	printf("returned\n");
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
for call in barrier dup; do
	start=$(date +%s)
	run -t 30 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/coll" $call
	expect_nonzero
	[ "$RC" != 124 ] || { show; fail "$call: the job hung"; }
	[ $(($(date +%s) - start)) -le 15 ] || { show; fail "$call: took over 15 s to end"; }
	case $call in
	barrier) fn=MPI_Barrier ;;
	dup) fn=MPI_Comm_dup ;;
	esac
	expect_err "$fn: collectives and communicator creation are not implemented across nodes yet"
	grep -q returned "$OUT" && { show; fail "$call returned"; }
done
exit 0
