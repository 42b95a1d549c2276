#!/bin/bash
# shoal_program_started_by_a_process_rank_is_refused_at_init: a program built by mpicc that a process rank starts (a wrapper script that execs it, as job scripts do) or a program linked with Shoal's libmpi by plain gcc never runs as a silent singleton: its MPI_Init ends it with a non-zero status and a message naming the rank and saying to start it with mpiexec itself, and the job's status is non-zero; the same program started by mpiexec directly, by a wrapper in a job of one rank (rank 0 of 1 is a singleton), by an mpiexec inside a process rank (whose ranks do not see the outer rank's SHOAL_RANK), or alone with SHOAL_RANK unset runs.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"

build hello <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* Thread ranks share one environment: an outer job's rank variables must be gone. */
	printf("hello %d of %d%s\n", rank, size, getenv("SHOAL_RANK") ? " SHOAL_RANK set" : "");
	MPI_Finalize();
	return 0;
}
SRC
printf '#!/bin/sh\nexec ./hello "$@"\n' >wrapper.sh
chmod +x wrapper.sh

run "$MPIEXEC" -n 2 ./wrapper.sh
expect_nonzero
grep -q '^hello' "$OUT" && { show; fail "the program ran as a singleton"; }
for r in 0 1; do
	expect_err "^shoal: MPI_Init: hello was built with Shoal's mpicc but was started by rank $r of 2 .*mpiexec -n 2 "
done

# Under mpiexec directly, the same program is a job of 2.
run "$MPIEXEC" -n 2 ./hello
expect_rc 0
expect_out_count '^hello [01] of 2$' 2
# An mpiexec run by a process rank starts a job of its own: its ranks are not refused.
run "$MPIEXEC" -n 1 sh -c "\"$MPIEXEC\" -n 3 ./hello"
expect_rc 0
expect_out_count '^hello [012] of 3$' 3
# In a job of one rank, the singleton is that rank.
run "$MPIEXEC" -n 1 ./wrapper.sh
expect_rc 0
expect_out_count '^hello 0 of 1 SHOAL_RANK set$' 1
# Alone on purpose.
run "$MPIEXEC" -n 1 sh -c 'unset SHOAL_RANK; exec ./hello'
expect_rc 0
expect_out_count '^hello 0 of 1$' 1

# Linked with Shoal's libmpi by plain gcc (no .note.shoal): a process rank, refused at MPI_Init.
gcc -I"$SHOAL_BUILD/include" -o plainmpi hello.c -L"$SHOAL_BUILD/lib" \
	-Wl,-rpath,"$SHOAL_BUILD/lib" -lmpi || fail "gcc could not link with libmpi"
run "$MPIEXEC" -n 2 ./plainmpi
expect_nonzero
expect_err 'mpicc'
grep -q '^hello' "$OUT" && { show; fail "the plain MPI program ran as singletons"; }
exit 0
