# Helpers for Shoal's shell tests (sourced, never run).  A test sources this file, builds its
# small programs into $TEST_TMP, runs them and checks exit codes and output.
# Exit convention: 0 pass, 1 fail (fail), 77 skip (skip).
set -u
: "${SHOAL_BUILD:?SHOAL_BUILD must name the build directory}"
: "${TEST_TMP:?TEST_TMP must name a scratch directory}"
MPICC=$SHOAL_BUILD/bin/mpicc
MPICXX=$SHOAL_BUILD/bin/mpicxx
MPIEXEC=$SHOAL_BUILD/bin/mpiexec
OUT=$TEST_TMP/out
ERR=$TEST_TMP/err
RC=0

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# build NAME [mpicc flags...] < source: compile C source from stdin into $TEST_TMP/NAME.
build() {
	local name=$1
	shift
	cat >"$TEST_TMP/$name.c"
	"$MPICC" -g -I"$SHOAL_TESTS" -o "$TEST_TMP/$name" "$TEST_TMP/$name.c" "$@" >"$TEST_TMP/$name.build" 2>&1 ||
		{ cat "$TEST_TMP/$name.build"; fail "mpicc could not build $name"; }
}

# build_fortran NAME [mpifort flags and files...]: compile with mpifort into $TEST_TMP/NAME,
# module files (.mod) in $TEST_TMP; the compiler's output is shown when it fails.
build_fortran() {
	local name=$1
	shift
	"$SHOAL_BUILD/bin/mpifort" -J "$TEST_TMP" -o "$TEST_TMP/$name" "$@" >"$TEST_TMP/$name.build" 2>&1 ||
		{ cat "$TEST_TMP/$name.build"; fail "mpifort could not build $name"; }
}

# run [-t SECONDS] CMD...: run CMD with stdout in $OUT, stderr in $ERR, status in $RC.
# stdout is a file, not a terminal, as in a batch job.  Default limit 30 s.
run() {
	local t=30
	if [ "$1" = -t ]; then t=$2; shift 2; fi
	timeout -k 5 "$t" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	[ "$RC" = 124 ] && { show; fail "timed out after ${t}s: $*"; }
	return 0
}

# show: print the last run's output (for failure reports).
show() {
	echo "--- exit status $RC; stdout:"
	tail -n 20 "$OUT"
	echo "--- stderr:"
	tail -n 20 "$ERR"
}

expect_rc() { [ "$RC" = "$1" ] || { show; fail "expected exit status $1, got $RC"; }; }
expect_nonzero() { [ "$RC" != 0 ] || { show; fail "expected a non-zero exit status"; }; }
# expect_out REGEX / expect_err REGEX: stdout / stderr must contain a line matching REGEX.
expect_out() { grep -Eq -- "$1" "$OUT" || { show; fail "stdout lacks /$1/"; }; }
expect_err() { grep -Eq -- "$1" "$ERR" || { show; fail "stderr lacks /$1/"; }; }
# expect_out_count REGEX N: exactly N stdout lines match REGEX.
expect_out_count() {
	local n
	n=$(grep -Ec -- "$1" "$OUT")
	[ "$n" = "$2" ] || { show; fail "expected $2 stdout lines matching /$1/, got $n"; }
}

# await_out_count REGEX N [SECONDS]: wait (60 s unless SECONDS: a limit for a job that
# never prints them, however loaded the machine) until exactly N stdout lines match REGEX,
# as a job in the background prints them; false if they never do.
await_out_count() {
	local tenths=$((${3:-60} * 10))
	for _ in $(seq "$tenths"); do
		[ "$(grep -Ec -- "$1" "$OUT")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# feed INPUT-COMMAND CMD...: like run, with stdin from INPUT-COMMAND (60 s limit).
feed() {
	local input=$1
	shift
	timeout -k 5 60 bash -c "$input | \"\$@\"" feed "$@" >"$OUT" 2>"$ERR"
	RC=$?
	[ "$RC" = 124 ] && { show; fail "timed out: $*"; }
	return 0
}

# await_exit PID WHAT: wait (a minute at most, for a loaded machine) for PID, a job started
# in the background, to end, and set RC to its status; fail naming WHAT if it never ends.
await_exit() {
	for _ in $(seq 600); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$1" 2>/dev/null && { kill -KILL "$1"; fail "$2"; }
	wait "$1"
	RC=$?
}

# need_fibers: ranks switched in user space whatever the number of cores (SHOAL_FIBERS=1),
# or skip where the CPU cannot switch them (no FSGSBASE).
need_fibers() {
	export SHOAL_FIBERS=1
	grep -qw fsgsbase /proc/cpuinfo || skip "no FSGSBASE: ranks are not switched in user space"
}

# start_job N PROG [ARGS...]: run PROG on N ranks in the background, output discarded; sets
# $mpx (mpiexec's pid, killed when the test ends) and $node (its node process's pid).
start_job() {
	local n=$1
	shift
	"$MPIEXEC" -n "$n" "$@" >/dev/null 2>&1 </dev/null &
	mpx=$!
	trap 'kill -TERM $mpx 2>/dev/null; wait' EXIT
	node=
	for _ in $(seq 600); do  # a minute at most, for a loaded machine
		# mpiexec forks the node's proxy (shoal-node --connect), which forks the node.
		node=$(pgrep -P "$(pgrep -P "$mpx" shoal-node)" shoal-node) && break
		sleep 0.1
	done
	[ -n "$node" ] || fail "no node process"
}

# mpir_gate_script MARKS INDEX...: write $TEST_TMP/cmds, the gdb script of the MPIR gate
# tests (under gdb, mpiexec is told a debugger is attached). At MPIR_Breakpoint it prints
# the table's size and state, waits 2 s for any rank to (wrongly) enter main and prints
# "before=" the count of files in MARKS (tests/lib/mpir_marked.c leaves one per rank), then
# opens MPIR_debug_gate with another gdb in the node process of each MPIR_proctable INDEX,
# as a parallel debugger does, and lets the job go on.
mpir_gate_script() {
	local marks=$1 i
	shift
	{
		printf '%s\n' 'break main' run 'set var MPIR_being_debugged = 1' \
			'break MPIR_Breakpoint' continue \
			'printf "size=%d state=%d\n", MPIR_proctable_size, MPIR_debug_state' \
			"shell sleep 2; echo \"before=\$(ls $marks | wc -l)\""
		for i in "$@"; do
			printf '%s\n' "eval \"shell gdb -batch -nx -p %d -ex 'set var MPIR_debug_gate = 1' >/dev/null 2>&1\", MPIR_proctable[$i].pid"
		done
		echo continue
	} >"$TEST_TMP/cmds"
}
