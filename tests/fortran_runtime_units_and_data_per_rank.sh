#!/bin/bash
# fortran_runtime_units_and_data_per_rank: each rank has its own copy of gfortran's run-time library (libgfortran, private without --private-lib): every rank at once opens unit 10 on a file of its own, writes 2000 records and reads them back intact; COMMON, module and SAVE data stay the rank's own and GET_COMMAND_ARGUMENT gives the rank its arguments (spaces kept), at 1, 4 and 64 ranks, the node maps a copy of libgfortran per rank, and a C program linked with the reference LAPACK (which needs libgfortran, so is loaded per rank with it) runs at 4 and 64 ranks.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
command -v gfortran >/dev/null || skip "gfortran is not installed (make deps)"
MPIFORT=$SHOAL_BUILD/bin/mpifort
"$MPIFORT" -g -I"$SHOAL_TESTS/lib" -J "$TEST_TMP" -o "$TEST_TMP/units" \
	"$SHOAL_TESTS/lib/fortran_runtime_units.f90" "$SHOAL_TESTS/lib/fortran_rank.c" \
	>"$TEST_TMP/units.build" 2>&1 || { cat "$TEST_TMP/units.build"; fail "mpifort could not build units"; }

for n in 1 4 64; do
	rm -rf "$TEST_TMP/d" && mkdir "$TEST_TMP/d"
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/units" "$TEST_TMP/d" "two  words"
	expect_rc 0
	for r in $(seq 0 $((n - 1))); do
		expect_out_count "^rank $r lines 2000 bad 0 arg \[two  words\] data $r $((1000 + r)) $((r % 5 + 1))\$" 1
	done
	[ "$(grep -c '^rank ' "$OUT")" = $n ] || { show; fail "not $n lines at $n ranks"; }
	[ -s "$ERR" ] && { show; fail "stderr at $n ranks"; }
done

# One copy of libgfortran per rank: while a job of 4 ranks waits, the node maps the job
# directory's libgfortran at 4 places (each rank's pages come from that one file), and not
# the system's.
mkfifo "$TEST_TMP/hold.fifo"
cat >"$TEST_TMP/hold.f90" <<'SRC'
program hold
  implicit none
  include 'fortran_rank.inc'
  integer :: rank, size, u
  character(len=512) :: path
  rank = frt_init(size)
  call get_command_argument(1, path)
  if (rank == 0) then
    open(newunit=u, file=path, action='read')  ! blocks until the test opens the fifo
    close(u)
  end if
  call frt_barrier()
  call frt_finalize()
end program hold
SRC
sed -i '1a\  use iso_c_binding, only: c_int' "$TEST_TMP/hold.f90"
"$MPIFORT" -I"$SHOAL_TESTS/lib" -J "$TEST_TMP" -o "$TEST_TMP/hold" "$TEST_TMP/hold.f90" \
	"$SHOAL_TESTS/lib/fortran_rank.c" >"$TEST_TMP/hold.build" 2>&1 ||
	{ cat "$TEST_TMP/hold.build"; fail "mpifort could not build hold"; }
start_job 4 "$TEST_TMP/hold" "$TEST_TMP/hold.fifo"
copies=0
for _ in $(seq 600); do
	copies=$(grep -c ' 00000000 .*/shoal-[^/]*/libgfortran' "/proc/$node/maps")
	[ "$copies" -ge 4 ] && break
	sleep 0.1
done
grep libgfortran "/proc/$node/maps" >"$TEST_TMP/maps"
exec 3>"$TEST_TMP/hold.fifo"  # lets rank 0 go on
exec 3>&-
await_exit $mpx "the job of 4 ranks did not end"
expect_rc 0
grep -q ' /usr/.*libgfortran' "$TEST_TMP/maps" && { cat "$TEST_TMP/maps"; fail "the system's libgfortran is mapped: shared by the ranks"; }
[ "$copies" = 4 ] || { cat "$TEST_TMP/maps"; fail "libgfortran mapped $copies times for 4 ranks"; }

# A C program whose library needs libgfortran (Debian's reference LAPACK): the library is
# private with it, and each rank solves its own system.
if [ -e /usr/lib/x86_64-linux-gnu/liblapack.so ] && readelf -d "$(readlink -f /usr/lib/x86_64-linux-gnu/liblapack.so)" | grep -q libgfortran; then
	build lapack -llapack <<'SRC'
#include <stdio.h>
#include <mpi.h>
void dgesv_(int *n, int *nrhs, double *a, int *lda, int *ipiv, double *b, int *ldb, int *info);
int main(int argc, char **argv)
{
	int rank, n = 2, nrhs = 1, ipiv[2], info;
	double a[4] = { 2, 1, 1, 3 }, b[2];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	b[0] = 3 + 5 * rank;  /* x = (1 + 3 rank, 1 - rank) */
	b[1] = 4;
	dgesv_(&n, &nrhs, a, &n, ipiv, b, &n, &info);
	printf("rank %d info %d x %.0f %.0f\n", rank, info, b[0], b[1]);
	MPI_Finalize();
	return 0;
}
SRC
	for n in 4 64; do
		run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/lapack"
		expect_rc 0
		for r in $(seq 0 $((n - 1))); do
			expect_out_count "^rank $r info 0 x $((1 + 3 * r)) $((1 - r))\$" 1
		done
	done
fi
exit 0
