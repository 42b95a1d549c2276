#!/bin/bash
# rank_write_from_its_signal_handler_never_hangs: a rank whose signal handler calls write(1, ...) (async-signal-safe, as in a process) while its own thread is inside a write(1, ...) of its line buffer still ends: the handler's line goes out as it is, every line of the loop comes out whole and labelled, at 1 and 2 ranks (ranks that fit the cores, each on its own thread).
# timeout: 450
. "$SHOAL_TESTS/lib/common.bash"
# Each rank on its own thread throughout: the timer signals the thread rank 0 started on,
# which a rank switched to a carrier (more ranks than cores) leaves.
export SHOAL_FIBERS=0

build sigwrite -lrt <<'SRC'
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
static volatile sig_atomic_t ticks;
static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
	if (write(1, "tick\n", 5) < 0)
		_exit(3);
}
int main(int argc, char **argv)
{
	int rank, lines = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {  /* a timer whose signal goes to this rank's own thread, every 0.1 ms */
		struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGALRM };
		struct itimerspec every = { { 0, 100000 }, { 0, 100000 } };
		timer_t t;
		ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
		signal(SIGALRM, on_alarm);
		if (timer_create(CLOCK_MONOTONIC, &ev, &t) || timer_settime(t, 0, &every, NULL))
			return 4;
	}
	/* Rank 0 writes until 50 ticks have come (each while it may be inside its write), or
	 * 300000 lines (delivery of the timer's signal can stall on a loaded machine). */
	for (; rank == 0 ? ticks < 50 && lines < 300000 : lines < 1000; lines++)
		if (write(1, "line of the loop\n", 17) < 0)
			return 2;
	signal(SIGALRM, SIG_IGN);
	printf("rank %d done\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

for n in 1 2; do
	run -t 200 "$MPIEXEC" -n $n --tag-output "$TEST_TMP/sigwrite"
	expect_rc 0
	expect_out_count '^\[1,[0-9]+\]<stdout>:rank [0-9]+ done$' $n
	[ "$(grep -c 'tick' "$OUT")" -ge 1 ] || { show; fail "no tick came"; }
	grep -v 'tick' "$OUT" | grep -Evq '^\[1,[0-9]+\]<stdout>:(line of the loop|rank [0-9]+ done)$' &&
		{ show; fail "a line that is not whole and labelled"; }
done
exit 0
