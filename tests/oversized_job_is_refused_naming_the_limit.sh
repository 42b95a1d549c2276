#!/bin/bash
# oversized_job_is_refused_naming_the_limit: a job larger than its host can hold is refused before any rank is loaded, with a message giving the limit and the figure, and a non-zero exit: more ranks than vm.max_map_count allows (memory maps), 64 ranks in a cgroup whose pids.max is 40 (threads), 64 ranks of a program with 8 MiB of writable data in a cgroup whose memory limit is 256 MiB (memory), while 64 ranks of one with 8 MiB of read-only data run there; the cgroup parts are skipped where cgroups cannot be made.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"

build tiny <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Barrier(MPI_COMM_WORLD);  /* every rank alive at once */
	printf("ran\n");
	MPI_Finalize();
	return 0;
}
SRC

# Memory maps: 8 a rank at least, so max_map_count / 8 + 500 ranks cannot fit.
maps=$(cat /proc/sys/vm/max_map_count)
n=$((maps / 8 + 500))
run -t 60 "$MPIEXEC" -n "$n" "$TEST_TMP/tiny"
expect_nonzero
expect_err "^shoal: $n ranks on host [^ ]+ need about [0-9]+ memory maps \(vm\.max_map_count is $maps\)"
[ -s "$OUT" ] && { show; fail "a rank ran"; }

# cg_make CONTROLLER: a fresh cgroup of CONTROLLER under this shell's own (v1, or v2 where
# the controller is enabled); prints its directory, or nothing.
cgs=()
cg_make() {
	local cur dir
	if [ -d "/sys/fs/cgroup/$1" ]; then
		cur=$(awk -F: -v c="$1" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' /proc/self/cgroup)
		dir=/sys/fs/cgroup/$1$cur/shoal-test-$$
	elif grep -qw "$1" /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		dir=/sys/fs/cgroup/shoal-test-$1-$$
	else
		return 0
	fi
	mkdir "$dir" 2>/dev/null || return 0
	cgs+=("$dir")
	echo "$dir"
}
trap 'for d in "${cgs[@]}"; do rmdir "$d" 2>/dev/null; done' EXIT
# "${IN_CGROUP[@]}" DIR CMD...: CMD as a process of cgroup DIR (an array, so `run` takes it).
IN_CGROUP=(bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"')

# Threads: 64 ranks need more than 40 thread ids.
dir=$(cg_make pids)
if [ -n "$dir" ] && echo 40 >"$dir/pids.max" 2>/dev/null; then
	run -t 60 "${IN_CGROUP[@]}" "$dir" "$MPIEXEC" -n 64 "$TEST_TMP/tiny"
	expect_nonzero
	expect_err "^shoal: 64 ranks on host [^ ]+ need about [0-9]+ threads \(the cgroup's pids\.max is 40, [0-9]+ in use\)"
	[ -s "$OUT" ] && { show; fail "a rank ran"; }
	rmdir "$dir"
else
	echo "no pids cgroup: the threads part is skipped"
fi

# Memory: 64 ranks' own copies of 8 MiB of data the program writes do not fit in 256 MiB,
# while 8 MiB of read-only data, in memory once per node, do.
for kind in writable readonly; do
	qual=; [ $kind = readonly ] && qual=const
	build "big_$kind" <<SRC
#include <stdio.h>
#include <mpi.h>
static $qual char big[8 << 20] = { 1 };
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	printf("ran %d\n", big[argc]);
	MPI_Finalize();
	return 0;
}
SRC
done
dir=$(cg_make memory)
if [ -n "$dir" ] && { echo $((256 << 20)) >"$dir/memory.limit_in_bytes" || echo $((256 << 20)) >"$dir/memory.max"; } 2>/dev/null; then
	run -t 60 "${IN_CGROUP[@]}" "$dir" "$MPIEXEC" -n 64 "$TEST_TMP/big_writable"
	expect_nonzero
	expect_err "^shoal: 64 ranks on host [^ ]+ need about [0-9]+ MiB of memory \(the cgroup's memory limit is 256 MiB, [0-9]+ [KMG]iB of it free\)"
	[ -s "$OUT" ] && { show; fail "a rank ran"; }
	run -t 120 "${IN_CGROUP[@]}" "$dir" "$MPIEXEC" -n 64 "$TEST_TMP/big_readonly"
	expect_rc 0
	expect_out_count '^ran 0$' 64
	rmdir "$dir"
else
	echo "no memory cgroup: the memory part is skipped"
fi
exit 0
