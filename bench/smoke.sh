#!/bin/bash
# bench/smoke.sh: every benchmark of bench/benchmarks.conf, built with Shoal's mpicc (mpifort
# for a Fortran one, bench/NAME.f90), runs once with its tiny "smoke" arguments under Shoal,
# exits 0 and prints RESULT lines with numbers.
# Ranks: the first count of the benchmark's line. Times are never judged.
# Run from anywhere; BUILD=dir picks Shoal's build tree (default build). Exit 0 pass,
# 1 fail, 77 skip (Shoal not built). Prints a line per benchmark, then "N passed, N failed".
set -u

root=$(cd -- "$(dirname -- "$(readlink -f -- "$0")")/.." && pwd -P)
build=$root/${BUILD:-build}
case ${BUILD:-build} in /*) build=$BUILD ;; esac
conf=$root/bench/benchmarks.conf
out=$build/bench/smoke
limit=${SMOKE_TIMEOUT:-60}

if [ ! -x "$build/bin/mpicc" ] || [ ! -x "$build/bin/mpiexec" ]; then
	echo "skip: $build/bin/mpicc or mpiexec missing (run make all)"
	exit 77
fi
mkdir -p "$out"

passed=0
failed=0
# Lines of the configuration: name ranks x better reps args; smoke args are the 3rd |-part.
while read -r name ranks _ _ _ args; do
	case $name in *@*) continue ;; esac  # a variant of a program its own line runs
	n=${ranks%%,*}
	smoke=$(printf '%s\n' "$args" | awk -F'|' '{ gsub(/^ +| +$/, "", $3); print $3 }')
	log=$out/$name.log
	verdict=ok
	if [ -f "$root/bench/$name.f90" ]; then
		cc=("$build/bin/mpifort" -O2 -o "$out/$name" "$root/bench/$name.f90")
	else
		cc=("$build/bin/mpicc" -O2 -std=c17 -o "$out/$name" "$root/bench/$name.c")
	fi
	if ! "${cc[@]}" >"$log" 2>&1; then
		verdict="does not build"
	else
		# shellcheck disable=SC2086 # smoke holds several arguments
		timeout -k 5 "$limit" "$build/bin/mpiexec" -n "$n" "$out/$name" $smoke >>"$log" 2>&1 </dev/null
		rc=$?
		pat="^RESULT $name (-?[0-9]+|[A-Za-z][A-Za-z0-9_.+-]*) [-+0-9.eE]+ [^ ]+\$"
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			verdict="timed out after $limit s"
		elif [ "$rc" -ne 0 ]; then
			verdict="exit code $rc (expected 0)"
		elif ! grep -Eq "$pat" "$log"; then
			verdict="no RESULT line with a number"
		elif grep -E "^RESULT $name " "$log" | grep -Evq "$pat" ||
			grep -E "^RESULT $name " "$log" | grep -Eiq ' (nan|-?inf) '; then
			verdict="malformed RESULT line"
		fi
	fi
	if [ "$verdict" = ok ]; then
		echo "ok   $name (-n $n $smoke)"
		passed=$((passed + 1))
	else
		echo "FAIL $name (-n $n $smoke): $verdict; output in $log"
		tail -n 5 "$log" | sed 's/^/     /'
		failed=$((failed + 1))
	fi
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$conf")

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
