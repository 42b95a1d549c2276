#!/bin/bash
# comm_creation_across_hosts_fails_clearly: on an intercommunicator spanning 2 hosts (network namespaces; MPI_Intercomm_create, merge, dup, split, create, point-to-point and the collectives that only move data work there), a collective that is not written there yet (the reductions: MPI_Reduce, MPI_Iallreduce, MPI_Reduce_scatter_block) ends the job at once with a message naming the call, never hangs or returns.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

# -ppn 2 by slot: ranks 0, 1 on the first host and 2, 3 on the second; groups of even and
# odd ranks, each on both hosts.
build comm <<'SRC'
#include <stdio.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Comm local, ic;
	MPI_Request q;
	int v = 1, sum = 0, rank, all[4] = { 1, 1, 1, 1 };
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
	MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - rank % 2, 0, &ic);
	MPI_Barrier(ic);
	printf("barrier\n");
	fflush(stdout);
	if (strcmp(argv[1], "reduce") == 0)
		MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM,
			   rank % 2 ? 0 : (rank == 0 ? MPI_ROOT : MPI_PROC_NULL), ic);
	else if (strcmp(argv[1], "iallreduce") == 0) {
		MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, ic, &q);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
	} else
		MPI_Reduce_scatter_block(all, &sum, 1, MPI_INT, MPI_SUM, ic);
	printf("returned\n");
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
for call in reduce iallreduce reduce_scatter_block; do
	start=$(date +%s)
	run -t 30 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/comm" $call
	expect_nonzero
	[ "$RC" != 124 ] || { show; fail "$call: the job hung"; }
	[ $(($(date +%s) - start)) -le 15 ] || { show; fail "$call: took over 15 s to end"; }
	case $call in
	reduce) fn=MPI_Reduce ;;
	iallreduce) fn=MPI_Iallreduce ;;
	reduce_scatter_block) fn=MPI_Reduce_scatter_block ;;
	esac
	expect_err "$fn: not implemented yet on an intercommunicator spanning nodes"
	grep -q barrier "$OUT" || { show; fail "$call: MPI_Barrier on the intercommunicator did not return"; }
	grep -q returned "$OUT" && { show; fail "$call returned"; }
done
exit 0
