#!/bin/bash
# comm_creation_across_hosts_fails_clearly: until communicator creation works across nodes, MPI_Comm_dup and MPI_Comm_split on a communicator spanning 2 hosts (network namespaces) end the job at once with a message naming the call, never hang.
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build comm <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Comm c;
	int one = 1, sum = 0;
	MPI_Init(&argc, &argv);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("sum %d\n", sum);
	fflush(stdout);
	if (strcmp(argv[1], "dup") == 0)
		MPI_Comm_dup(MPI_COMM_WORLD, &c);
	else
		MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c);
	printf("returned\n");
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
for call in dup split; do
	start=$(date +%s)
	run -t 30 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/comm" $call
	expect_nonzero
	[ "$RC" != 124 ] || { show; fail "$call: the job hung"; }
	[ $(($(date +%s) - start)) -le 15 ] || { show; fail "$call: took over 15 s to end"; }
	case $call in
	dup) fn=MPI_Comm_dup ;;
	split) fn=MPI_Comm_split ;;
	esac
	expect_err "$fn: collectives and communicator creation are not implemented across nodes yet"
	grep -q returned "$OUT" && { show; fail "$call returned"; }
done
exit 0
