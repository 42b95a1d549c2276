#!/bin/bash
# comm_creation_across_hosts_fails_clearly: MPI_Intercomm_create with its remote leader on another host (intercommunicators across nodes are not written yet, unlike dup, split, create and create_group) on 2 hosts (network namespaces) ends the job at once with a message naming the call, never hangs.
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

# -ppn 2 by slot: ranks 0, 1 on the first host and 2, 3 on the second, so every
# remote leader, (rank + 2) % 4, is on the other host.
build comm <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Comm c;
	int one = 1, sum = 0, rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("sum %d\n", sum);
	fflush(stdout);
	MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, (rank + 2) % 4, 0, &c);
	printf("returned\n");
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
for call in intercomm; do
	start=$(date +%s)
	run -t 30 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/comm" $call
	expect_nonzero
	[ "$RC" != 124 ] || { show; fail "$call: the job hung"; }
	[ $(($(date +%s) - start)) -le 15 ] || { show; fail "$call: took over 15 s to end"; }
	fn=MPI_Intercomm_create
	expect_err "$fn: .*not implemented across nodes yet"
	grep -q returned "$OUT" && { show; fail "$call returned"; }
done
exit 0
