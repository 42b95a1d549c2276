#!/bin/bash
# mpiexec_binds_and_copies_output_across_hosts: on 2 hosts (network namespaces), --map-by ppr:1:node puts one rank on each host, --bind-to hwthread binds each to its host's first usable CPU, --report-bindings names the host of each, and --output-filename DIR gets every rank's files, whichever host it ran on.
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build where <<'SRC'
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
	cpu_set_t s;
	int rank, first = -1, count;
	char host[MPI_MAX_PROCESSOR_NAME];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Get_processor_name(host, &count);
	sched_getaffinity(0, sizeof(s), &s);
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, &s))
			first = c;
	printf("rank %d on %s: %d cpus, first %d\n", rank, host, CPU_COUNT(&s), first);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
first=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
run -t 60 "${NETNS_MPIEXEC[@]}" -H "${NS_HOSTS[0]}:2,${NS_HOSTS[1]}:2" --map-by ppr:1:node \
	--bind-to hwthread --report-bindings --output-filename "$TEST_TMP/outdir" "$TEST_TMP/where"
expect_rc 0
expect_out_count "^rank [01] on .*: 1 cpus, first $first\$" 2
expect_err "host ${NS_HOSTS[0]}: rank 0 bound to hwthread 0"
expect_err "host ${NS_HOSTS[1]}: rank 1 bound to hwthread 0"
for k in 0 1; do
	grep -q "^rank $k on .*: 1 cpus" "$TEST_TMP/outdir/1/rank.$k/stdout" ||
		{ show; fail "no output file for rank $k"; }
done
netns_nothing_left
exit 0
