#!/bin/bash
# ranks_reopen_and_close_their_own_stdio: as with a process per rank, a rank's freopen of stdout, stderr or stdin and its fclose(stdout) change that rank's streams only: its output goes to its own file (flushed by fflush(stdout) while the job runs), the other ranks keep printing to mpiexec, a rank reading its reopened stdin gets its file, fileno(stdout) stays 1 and write(fileno(stdout)) reaches mpiexec as one of the rank's lines (labelled as its printf's are); with and without output labels, and with more ranks than cores.
# tsan: a finding not judged yet (issue 42): TSan reports a rank's freopen of its stdout as racing with another rank's write(1, ...) (TSan's model of freopen closes the stream's descriptor, which the ranks of a node share)
. "$SHOAL_TESTS/lib/common.bash"

build reopen <<'SRC'
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size;
	char path[512], err[512], line[64] = "";
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	printf("rank %d before\n", rank);
	if (fileno(stdout) != 1 || fileno(stderr) != 2)
		printf("rank %d: fileno %d %d\n", rank, fileno(stdout), fileno(stderr));
	snprintf(path, sizeof path, "%s/out.%d", argv[1], rank);
	snprintf(err, sizeof err, "%s/err.%d", argv[1], rank);
	if (rank % 3 == 1) {            /* its own stdout and stderr from here on */
		if (!freopen(path, "w", stdout) || !freopen(err, "w", stderr))
			perror("freopen");
		printf("rank %d to its file\n", rank);
		fflush(stdout);             /* must reach the file now */
		FILE *peek = fopen(path, "r");
		if (!peek || !fgets(line, sizeof line, peek) || strcmp(line, "rank 1 to its file\n"))
			if (rank == 1)
				fprintf(stdout, "not flushed\n");
		if (peek)
			fclose(peek);
		fprintf(stderr, "rank %d error to its file\n", rank);
	}
	if (rank % 3 == 2) {            /* its stdout closed: what it prints is lost */
		fclose(stdout);
		printf("rank %d after fclose\n", rank);
	}
	snprintf(path, sizeof path, "%s/in.%d", argv[1], rank);
	if (rank == 1 && freopen(path, "r", stdin) && fgets(line, sizeof line, stdin))
		fprintf(stderr, "rank 1 read: %s", line);   /* to its file: it reopened stderr */
	if (rank == 0 && fgets(line, sizeof line, stdin))
		printf("rank 0 read: %s", line);
	char raw[64];
	snprintf(raw, sizeof raw, "rank %d raw\n", rank);
	if (rank == 0 && write(fileno(stdout), raw, strlen(raw)) < 0)
		perror("write");
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d end\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

# check NRANKS LABEL_PREFIX_OF_RANK0
check() {
	local n=$1 r
	expect_rc 0
	expect_out_count "^$2rank 0 read: from mpiexec$" 1
	expect_out_count "^$2rank 0 raw$" 1
	grep -q 'fileno\|not flushed\|after fclose' "$OUT" && { show; fail "fileno, flush or fclose wrong"; }
	for r in $(seq 0 $((n - 1))); do
		case $((r % 3)) in
		1)	grep -q "rank $r to its file" "$OUT" && { show; fail "rank $r's reopened stdout reached mpiexec"; }
			[ "$(cat "$TEST_TMP/d/out.$r")" = "rank $r to its file
rank $r end" ] || { cat "$TEST_TMP/d/out.$r"; fail "rank $r's stdout file"; }
			[ "$(head -1 "$TEST_TMP/d/err.$r")" = "rank $r error to its file" ] ||
				{ cat "$TEST_TMP/d/err.$r"; fail "rank $r's stderr file"; }
			grep -q "rank $r error" "$ERR" && { show; fail "rank $r's reopened stderr reached mpiexec"; } ;;
		2)	expect_out_count "rank $r before$" 1
			expect_out_count "rank $r end$" 0 ;;
		0)	expect_out_count "rank $r before$" 1
			expect_out_count "rank $r end$" 1 ;;
		esac
	done
}

for args in "-n 4" "-n 4 --tag-output" "-n 24"; do
	rm -rf "$TEST_TMP/d"
	mkdir "$TEST_TMP/d"
	for r in $(seq 0 23); do echo "input of $r" >"$TEST_TMP/d/in.$r"; done
	echo "from mpiexec" >"$TEST_TMP/stdin"
	# run gives its command /dev/null as stdin; this one reads a line.
	run bash -c 'exec "$@" <"$0"' "$TEST_TMP/stdin" "$MPIEXEC" $args "$TEST_TMP/reopen" "$TEST_TMP/d"
	prefix=""
	[[ $args == *tag-output* ]] && prefix='\[1,0\]<stdout>:'
	set -- $args
	check "$2" "$prefix"
	[ "$(cat "$TEST_TMP/d/err.1")" = "rank 1 error to its file
rank 1 read: input of 1" ] || { cat "$TEST_TMP/d/err.1"; fail "rank 1's reopened stdin"; }
done
exit 0
