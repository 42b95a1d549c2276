#!/bin/bash
# bench/memory.sh: what a job costs in memory per rank. Builds programs of a given size with
# bench/bigprog.py (about CODE MB of code and DATA MB of initialised data, all of it run and
# written by every rank), runs each at several rank counts with Shoal and, where installed,
# Open MPI and MPICH, and prints a table: the program file's size, the ranks, the bytes of the
# job directory (Shoal's rank copies, as du counts them; "-" for an MPI that runs the program
# file itself), the Pss of the job's rank processes at a barrier with every rank alive (Shoal:
# the node process, whose threads the ranks are; the peers: the sum over the ranks' own
# processes, launchers and daemons not counted), Pss per rank, and the growth of Pss per
# rank from the first rank count to this one. Never judges a figure; a launch that fails
# is shown as such. `make bench-memory` runs it; run from anywhere.
#
# Environment:
#   BUILD=dir             Shoal's build tree (default build)
#   MEMORY_OUT=dir        builds, logs, results and table (default <BUILD>/bench/memory)
#   MEMORY_SHAPES="C:D …" programs, CODE:DATA in MB each (default "2:0.2 20:0.2")
#   MEMORY_RANKS="N …"    rank counts (default "16 64 256")
#   MEMORY_IMPLS="…"      of shoal openmpi mpich (default all three; a peer whose mpicc is
#                         missing is skipped with a note)
#   MEMORY_TIMEOUT=s      seconds before a launch is killed (default 600)
#
# Output: the table on stdout and in MEMORY_OUT/table; MEMORY_OUT/results has a line per
# launch, "impl code_mb data_mb program_bytes" then the program's MEMORY line (or
# "FAIL why"); each launch's output is in MEMORY_OUT/<impl>-<code>mb.n<ranks>.log.
# Exit 0 when every launch printed its MEMORY line and exited 0, 1 otherwise (a launch that
# measured and then failed is in the table with its exit status), 77 when Shoal is not built.
set -u

root=$(cd -- "$(dirname -- "$(readlink -f -- "$0")")/.." && pwd -P)
build=$root/${BUILD:-build}
case ${BUILD:-build} in /*) build=$BUILD ;; esac
out=${MEMORY_OUT:-$build/bench/memory}
shapes=${MEMORY_SHAPES:-"2:0.2 20:0.2"}
ranks=${MEMORY_RANKS:-"16 64 256"}
impls=${MEMORY_IMPLS:-"shoal openmpi mpich"}
limit=${MEMORY_TIMEOUT:-600}
jobs=$(nproc 2>/dev/null || echo 2)

if [ ! -x "$build/bin/mpicc" ] || [ ! -x "$build/bin/mpiexec" ]; then
	echo "skip: $build/bin/mpicc or mpiexec missing (run make all)"
	exit 77
fi
mkdir -p "$out"
: >"$out/results"

compiler() {
	case $1 in
	shoal) echo "$build/bin/mpicc" ;;
	openmpi) echo mpicc.openmpi ;;
	mpich) echo mpicc.mpich ;;
	esac
}

launcher() {
	case $1 in
	shoal) echo "$build/bin/mpiexec -n $2" ;;
	openmpi) echo "mpirun.openmpi --oversubscribe $([ "$(id -u)" = 0 ] && echo --allow-run-as-root) -n $2" ;;
	mpich) echo "mpiexec.mpich -n $2" ;;
	esac
}

# build IMPL SRCDIR EXE: compile SRCDIR's parts side by side (objects kept while their source
# is older) and link EXE; the link is always redone (Shoal's start file changes often).
build() {
	local cc objdir=$3.obj f o
	cc=$(compiler "$1")
	mkdir -p "$objdir"
	# shellcheck disable=SC2016 # the inner shell (sh -c) expands them
	for f in "$2"/*.c; do
		o=$objdir/$(basename "${f%.c}").o
		[ "$o" -nt "$f" ] && [ "$o" -nt "$cc" ] || printf '%s\0%s\0' "$f" "$o"
	done | xargs -0 -r -n 2 -P "$jobs" sh -c '"$0" -O1 -c "$1" -o "$2"' "$cc" || return 1
	"$cc" -O1 -o "$3" "$objdir"/*.o
}

# field NAME LINE: the value of NAME=VALUE in a MEMORY line.
field() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

mb() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1e6 }'; }

status=0
table=$out/table
printf '%-8s %6s %6s %13s %6s %13s %9s %9s %11s\n' impl code_MB data_MB program_bytes ranks \
	jobdir_bytes pss_MB pss/rank growth/rank >"$table"
for shape in $shapes; do
	code=${shape%%:*}
	data=${shape#*:}
	src=$out/src-${code}mb-${data}mb
	if [ ! -f "$src/main.c" ] || [ "$root/bench/bigprog.py" -nt "$src/main.c" ]; then
		rm -rf "$src"
		python3 "$root/bench/bigprog.py" --code-mb "$code" --data-mb "$data" "$src" || exit 1
	fi
	for impl in $impls; do
		cc=$(compiler "$impl")
		if ! command -v "$cc" >/dev/null; then
			echo "bench/memory.sh: $impl skipped: no $cc (Debian: $([ "$impl" = mpich ] && echo mpich libmpich-dev || echo openmpi-bin libopenmpi-dev))" >&2
			continue
		fi
		exe=$out/$impl-${code}mb-${data}mb/bigprog
		mkdir -p "$(dirname "$exe")"
		start=$(date +%s)
		if ! build "$impl" "$src" "$exe" >"$exe.build" 2>&1; then
			echo "bench/memory.sh: building the ${code} MB program with $impl failed ($exe.build)" >&2
			tail -n 5 "$exe.build" >&2
			status=1
			continue
		fi
		echo "bench/memory.sh: built $exe in $(($(date +%s) - start)) s" >&2
		size=$(stat -c %s "$exe")
		first_pss='' first_n=''
		for n in $ranks; do
			log=$out/$impl-${code}mb-${data}mb.n$n.log
			# shellcheck disable=SC2046 # the launcher is several words
			OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
				timeout -k 10 "$limit" $(launcher "$impl" "$n") "$exe" >"$log" 2>&1 </dev/null
			rc=$?
			line=$(grep -m1 '^MEMORY ' "$log")
			note=
			if [ -z "$line" ]; then
				why="exit status $rc$([ "$rc" = 124 ] && echo " (timed out after $limit s)"), no MEMORY line"
				echo "$impl $code $data $size FAIL $why" >>"$out/results"
				printf '%-8s %6s %6s %13s %6s  FAIL: %s (%s)\n' "$impl" "$code" "$data" "$size" \
					"$n" "$why" "$log" >>"$table"
				status=1
				continue
			elif [ "$rc" -ne 0 ]; then
				# Measured, but the job ended badly afterwards (its log says how).
				note="  (exit status $rc)"
				status=1
			fi
			echo "$impl $code $data $size $line" >>"$out/results"
			pss=$(($(field pss_kb "$line") * 1024))
			jd=$(field jobdir_bytes "$line")
			[ "$jd" = -1 ] && jd=-
			if [ -z "$first_pss" ]; then
				first_pss=$pss first_n=$n growth=-
			else
				growth=$(mb $(((pss - first_pss) / (n - first_n))))
			fi
			printf '%-8s %6s %6s %13s %6s %13s %9s %9s %11s%s\n' "$impl" "$code" "$data" "$size" \
				"$n" "$jd" "$(mb "$pss")" "$(mb $((pss / n)))" "$growth" "$note" >>"$table"
		done
	done
done
cat "$table"
read -r n0 _ <<<"$ranks"
echo "MB = 10^6 bytes; Pss per rank = Pss / ranks; growth/rank = (Pss - Pss at $n0 ranks) / (ranks - $n0)"
exit $status
