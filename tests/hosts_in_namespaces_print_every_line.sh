#!/bin/bash
# hosts_in_namespaces_print_every_line: a job on 2 and on 4 hosts (network namespaces, `ip netns exec` as launcher agent) runs each node process in its own namespace, every rank knows its world rank and size, every line of every rank arrives whole, and the job's status is the failing rank's code.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build hosts <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size;
	char ns[64] = "";
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (readlink("/proc/self/ns/net", ns, sizeof(ns) - 1) < 0)
		strcpy(ns, "?");
	/* Long lines, many of them: each must arrive whole, never mixed with another. One
	 * printf a line, as the ranks of a node share one stdout (docs/process-model.md). */
	char pad[161] = "";
	for (int k = 0; k < 40; k++)
		snprintf(pad + 4 * k, 5, "%04d", rank);
	for (int i = 0; i < 50; i++)
		printf("rank %d of %d host %s net %s line %d %s end\n", rank, size,
		       getenv("SHOAL_HOST"), ns, i, pad);
	fprintf(stderr, "rank %d stderr\n", rank);
	MPI_Finalize();
	return argc > 1 && rank == atoi(argv[1]) ? 3 : 0;
}
SRC

netns_up 4
for n in 2 4; do
	hosts=$(IFS=,; echo "${NS_HOSTS[*]:0:$n}")
	run -t 60 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 3 --map-by node "$TEST_TMP/hosts"
	expect_rc 0
	ranks=$((3 * n))
	expect_out_count "^rank [0-9]+ of $ranks host .* end\$" $((50 * ranks))
	expect_out_count ' line ' $((50 * ranks))   # no line lost or merged into another
	grep -q 'stderr' "$OUT" && { show; fail "stderr lines went to stdout"; }
	for r in $(seq 0 $((ranks - 1))); do
		h=${NS_HOSTS[$((r % n))]}  # --map-by node: round-robin
		net=$(ip netns exec "$h" readlink /proc/self/ns/net)
		pad=$(for k in $(seq 40); do printf '%04d' $r; done)
		want="rank $r of $ranks host $h net $net line 49 $pad end"
		[ "$(grep -Fxc "$want" "$OUT")" = 1 ] || { show; fail "no line '$want'"; }
		grep -q "^rank $r stderr\$" "$ERR" || { show; fail "no stderr line from rank $r"; }
	done
done

# A rank's exit code becomes the job's, with the failing rank named.
run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" "$TEST_TMP/hosts" 2
expect_rc 3
expect_err 'rank 2 exited with code 3'
exit 0
