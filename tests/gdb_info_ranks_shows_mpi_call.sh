#!/bin/bash
# gdb_info_ranks_shows_mpi_call: under mpiexec --gdb, info ranks shows each blocked rank in MPI_Recv with its source, tag, communicator and count, and mpi queues lists a posted receive and an unexpected message.
. "$SHOAL_TESTS/lib/common.bash"
# These jobs stay blocked on purpose while gdb looks at them: no deadlock check.
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"

build hang <<'SRC'
#include <unistd.h>
#include <mpi.h>
void all_blocked(void) {}
int main(int argc, char **argv)
{
	int rank, size, v[10] = {0}, x = 42;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD); /* never received: unexpected */
		usleep(300 * 1000);                             /* the others reach MPI_Recv */
		all_blocked();
	}
	MPI_Recv(v, 10, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC
cat >"$TEST_TMP/cmds" <<'GDB'
info ranks
rank 0 break all_blocked
continue
info ranks
mpi queues 1
kill
GDB
run "$MPIEXEC" --gdb-x "$TEST_TMP/cmds" -n 4 "$TEST_TMP/hang"
expect_rc 0
expect_out 'shoal: 4 ranks loaded, none has entered main yet'
# Before main every rank is loaded and none is in MPI.
expect_out_count '^[ *] [0-3] +[0-9]+ +loaded, before main' 4
expect_out 'Thread [0-9]+ "rank 0" hit Breakpoint'
for r in 1 2 3; do
	expect_out "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=$((r - 1)), tag=7, comm=MPI_COMM_WORLD, count=10\\) +main \\(\\) at hang.c:15"
done
expect_out '^\* 0 +[0-9]+ +running +all_blocked \(\) at hang.c:3'
expect_out '^rank 1: posted receives: 1$'
expect_out '^    recv source=0 tag=7 comm=MPI_COMM_WORLD count=10 '
expect_out '^rank 1: unexpected messages: 1$'
expect_out '^    source=0 tag=9 comm=MPI_COMM_WORLD bytes=4'
exit 0
