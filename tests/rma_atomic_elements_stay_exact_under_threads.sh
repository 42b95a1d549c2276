#!/bin/bash
# rma_atomic_elements_stay_exact_under_threads: the element-wise atomics of RMA (runtime/rma/atomic.c, shl_rma_atomic and shl_rma_cas) keep elements exact while 8 threads update them at once, for every way an element is updated: integers by instruction (fetch-and-add, -and, -or, -xor, exchange and load: MPI_SUM on integers of 1 to 8 bytes, BAND/BOR/BXOR, REPLACE with NO_OP readers; compare-and-swap around the op's kernel: LXOR on C_BOOL and int, MAX/MIN), and everything else under the striped locks of their granule (float, double and float complex SUM, MAX on double, MAXLOC/MINLOC on MPI_2INT and MPI_FLOAT_INT, compare-and-swap increments of a double mixed with sums, long double, double and long double complex, MPI_DOUBLE_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, elements off their alignment), with compare-and-swap increments mixed with sums on one counter, and runs of 160 doubles straddling granules summed by threads alongside single-double sums and NO_OP reads of runs; sums are exact, every fetched old value is fetched once, reads never go back, no element is torn. Built from the sources with the kernels of datatype/op.c, without a job (tests/lib/rma_atomic_driver.c).
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
root=$(cd "$SHOAL_TESTS/.." && pwd)
command -v cc >/dev/null || skip "no cc"
[ -f "$SHOAL_BUILD/include/mpi.h" ] || fail "no $SHOAL_BUILD/include/mpi.h: build first"

# The driver includes op.c and query.c for the kernels' table and the predefined types;
# unused functions go with their sections, so the rest of the runtime is not linked.
driver=$TEST_TMP/rma_atomic_driver
cc -std=c17 -O2 -g -Wall -Wextra -Wno-unused-parameter -pthread -D_GNU_SOURCE \
	-I"$root" -I"$SHOAL_BUILD/include" -ffunction-sections -fdata-sections -Wl,--gc-sections \
	-o "$driver" "$root/tests/lib/rma_atomic_driver.c" "$root/runtime/rma/atomic.c" -lm \
	>"$TEST_TMP/driver.build" 2>&1 || { cat "$TEST_TMP/driver.build"; fail "cannot build the driver"; }

run -t 150 "$driver" 8 100000
[ "$RC" = 0 ] || { cat "$OUT" "$ERR"; fail "an element lost or tore an update (exit $RC)"; }
expect_out "^0 of 42 cases failed$"
echo "42 cases exact under 8 threads"
