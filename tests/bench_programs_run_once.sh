#!/bin/bash
# bench_programs_run_once: every benchmark program of bench/benchmarks.conf runs once under
# Shoal with tiny sizes, exits 0 and prints well-formed RESULT lines (no timing is judged).
# timeout: 240
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$SHOAL_BUILD "$root/bench/smoke.sh"
