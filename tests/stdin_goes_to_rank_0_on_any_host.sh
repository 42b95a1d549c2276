#!/bin/bash
# stdin_goes_to_rank_0_on_any_host: mpiexec's stdin reaches rank 0 alone, line for line and to its end-of-file, whether rank 0 runs in mpiexec's own node process, in a node started by --launcher local, shares its node with other ranks or not, or lives in another network namespace; every other rank reads end-of-file as from /dev/null; a megabyte arrives whole; a rank 0 that never reads does not stop the job.
# timeout: 150
. "$SHOAL_TESTS/lib/common.bash"

build reader <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, token = 1;
	const char *mode = argc > 1 ? argv[1] : "lines";
	char line[256];
	long n = 0, sum = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(mode, "none")) {
		MPI_Finalize();
		return 0;
	}
	if (rank == 0) {
		while (fgets(line, sizeof(line), stdin)) {
			n++;
			if (!strcmp(mode, "lines"))
				printf("rank 0 line %ld: %s", n, line);
			else
				sum += atol(line);
		}
		printf("rank 0 eof after %ld lines sum %ld\n", n, sum);
		fflush(stdout);
		for (int r = 1; r < size; r++)  /* then the others read */
			MPI_Send(&token, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		while (fgets(line, sizeof(line), stdin))
			n++;
		printf("rank %d eof after %ld lines\n", rank, n);
	}
	MPI_Finalize();
	return 0;
}
SRC

# check NRANKS WHERE: rank 0 read a and b then end-of-file; every other rank only EOF.
check() {
	expect_rc 0
	expect_out_count '^rank 0 line 1: a$' 1
	expect_out_count '^rank 0 line 2: b$' 1
	expect_out_count '^rank 0 eof after 2 lines' 1
	for r in $(seq 1 $(($1 - 1))); do
		expect_out_count "^rank $r eof after 0 lines\$" 1
	done
	[ "$(wc -l <"$OUT")" = $(($1 + 2)) ] || { show; fail "$2: unexpected lines"; }
}

feed "printf 'a\nb\n'" "$MPIEXEC" -n 3 "$TEST_TMP/reader"
check 3 "one node"
# rank 0 alone on its node, then with rank 1 beside it.
feed "printf 'a\nb\n'" "$MPIEXEC" --launcher local -H a:1,b:2 "$TEST_TMP/reader"
check 3 "local launcher, rank 0 alone"
feed "printf 'a\nb\n'" "$MPIEXEC" --launcher local -H a:2,b:2 "$TEST_TMP/reader"
check 4 "local launcher, rank 0 with rank 1"

# More than the window mpiexec keeps in flight (256 KiB): every line, in order.
want=20000100000  # the sum of 1..200000
feed "seq 1 200000" "$MPIEXEC" --launcher local -H a,b "$TEST_TMP/reader" sum
expect_rc 0
expect_out "^rank 0 eof after 200000 lines sum $want\$"
# A rank 0 that never reads: the job ends anyway, fed for ever.
feed "yes" "$MPIEXEC" --launcher local -H a,b "$TEST_TMP/reader" none
expect_rc 0
feed "yes" "$MPIEXEC" -n 2 "$TEST_TMP/reader" none
expect_rc 0

# rank 0 in another network namespace than mpiexec.
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
	. "$SHOAL_TESTS/lib/netns.bash"
	netns_up 2
	feed "printf 'a\nb\n'" "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/reader"
	check 4 "namespaces"
	feed "seq 1 200000" "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" "$TEST_TMP/reader" sum
	expect_rc 0
	expect_out "^rank 0 eof after 200000 lines sum $want\$"
fi
exit 0
