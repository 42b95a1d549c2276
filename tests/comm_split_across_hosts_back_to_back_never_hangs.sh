#!/bin/bash
# comm_split_across_hosts_back_to_back_never_hangs: on 4 hosts (network namespaces), 12 ranks, 2000 MPI_Comm_split calls of MPI_COMM_WORLD in a row (at least 500 where the machine is too loaded for 2000 in a few seconds: check_budget; colors rotating, keys reversing), each new communicator checked (size, an Allreduce of world ranks) and freed. Nodes finish a creation's rounds at different times, so a leader often finds the next round's messages already waiting; the job must end, with every value right (it hung about one run in two when such a round went unseen).
# timeout: 420
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build splits <<'SRC'
#include <mpi.h>
#include <stdio.h>
#include "check.h"

enum { ROUNDS = 2000, ROUNDS_MIN = 500 };

int main(int argc, char **argv)
{
	int rank, size, bad = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	struct check_budget b;
	for (check_budget_start(&b, MPI_COMM_WORLD, ROUNDS_MIN, ROUNDS); check_budget_more(&b);) {
		int i = b.round;
		MPI_Comm c;
		int color = (rank + i) % 3, n = 0, want = 0, sum = -1, cs = -1, cr = -1;
		MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &c);
		for (int w = 0; w < size; w++)
			if ((w + i) % 3 == color) {
				n++;
				want += w;
			}
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
		MPI_Comm_size(c, &cs);
		MPI_Comm_rank(c, &cr);
		/* Keys reverse world order: the highest world rank of the color is rank 0. */
		int above = 0;
		for (int w = rank + 1; w < size; w++)
			above += (w + i) % 3 == color;
		bad += cs != n || sum != want || cr != above;
		MPI_Comm_free(&c);
	}
	printf("rank %d %s %d\n", rank, bad ? "BAD" : "ok", bad);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 4
for run_no in 1 2 3; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 3 --map-by node "$TEST_TMP/splits"
	expect_rc 0
	expect_out_count '^rank [0-9]+ ok 0$' 12
done
exit 0
