#!/bin/bash
# session_private_library_opens_its_own_session: a library built with Shoal's mpicc -shared, loaded once per rank, opens a session of its own, makes a communicator of mpi://WORLD and sums the ranks on it, then finalizes its session, without the program's help: in a program that calls MPI_Init and MPI_Finalize around it (MPI_Initialized true inside, the world model unaffected: MPI_COMM_WORLD's Allreduce after), and in one that never calls MPI itself (MPI_Initialized false after); at 1 (a singleton too), 4 and 64 ranks. Twice in a row per rank: a session ends and a new one opens.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP" || fail "no scratch directory"

cat >libranksum.c <<'SRC'
#include <mpi.h>
/* The sum of the job's world ranks and the caller's, through a session of the library's. */
int ranksum(int *rank)
{
	MPI_Session s;
	MPI_Group g;
	MPI_Comm c;
	int sum = -1;

	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
	MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
	MPI_Comm_create_from_group(g, "org.example.ranksum", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL,
				   &c);
	MPI_Group_free(&g);
	MPI_Comm_rank(c, rank);
	MPI_Allreduce(rank, &sum, 1, MPI_INT, MPI_SUM, c);
	MPI_Comm_free(&c);
	MPI_Session_finalize(&s);
	return sum;
}
SRC
"$MPICC" -g -shared -o libranksum.so libranksum.c || fail "mpicc -shared cannot build libranksum"

build withinit -L"$TEST_TMP" -lranksum -Wl,-rpath,"$TEST_TMP" <<'SRC'
#include <stdio.h>
#include <mpi.h>
int ranksum(int *rank);
int main(int argc, char **argv)
{
	int rank, size, inited, sum, all;
	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 0; i < 2; i++) {
		sum = ranksum(&rank);
		MPI_Initialized(&inited);
		printf("rank %d: sum %d expected %d initialized %d\n", rank, sum,
		       size * (size - 1) / 2, inited);
	}
	MPI_Allreduce(&rank, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d: world sum %d\n", rank, all);
	MPI_Finalize();
	return 0;
}
SRC

build plain -L"$TEST_TMP" -lranksum -Wl,-rpath,"$TEST_TMP" <<'SRC'
#include <stdio.h>
#include <mpi.h>
int ranksum(int *rank);
int main(void)
{
	int rank, sum, inited;
	for (int i = 0; i < 2; i++) {
		sum = ranksum(&rank);
		MPI_Initialized(&inited);
		printf("rank %d: library sum %d initialized %d\n", rank, sum, inited);
	}
	return 0;
}
SRC

if [ -z "${SAN:-}" ]; then
	run ./plain
	expect_rc 0
	expect_out_count '^rank 0: library sum 0 initialized 0$' 2
fi
for n in 1 4 64; do
	sum=$((n * (n - 1) / 2))
	run -t 240 "$MPIEXEC" -n $n ./withinit
	expect_rc 0
	expect_out_count "^rank [0-9]+: sum $sum expected $sum initialized 1\$" $((2 * n))
	expect_out_count "^rank [0-9]+: world sum $sum\$" $n
	run -t 240 "$MPIEXEC" -n $n ./plain
	expect_rc 0
	expect_out_count "^rank [0-9]+: library sum $sum initialized 0\$" $((2 * n))
	for r in 0 $((n - 1)); do
		expect_out_count "^rank $r: library sum" 2
	done
done
exit 0
