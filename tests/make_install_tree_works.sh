#!/bin/bash
# make_install_tree_works: `make install PREFIX=...` produces a tree (with mpic++, mpiCC, pkg-config and the .pc files) whose mpicc builds a program and whose mpiexec runs it, without referring back to the build directory.
# timeout: 300
# serial: make install may rebuild the build tree the other tests run from
. "$SHOAL_TESTS/lib/common.bash"
root=$(cd "$SHOAL_TESTS/.." && pwd)
inst=$TEST_TMP/inst

make -C "$root" --no-print-directory BUILD="$SHOAL_BUILD" PREFIX="$inst" install >"$TEST_TMP/make.log" 2>&1 ||
	{ tail -n 20 "$TEST_TMP/make.log"; fail "make install failed"; }
for f in bin/mpicc bin/mpicxx bin/mpic++ bin/mpiCC bin/pkg-config bin/mpiexec bin/mpirun \
	include/mpi.h lib/libmpi.so lib/pkgconfig/mpi.pc lib/pkgconfig/ompi-c.pc \
	lib/pkgconfig/ompi-cxx.pc; do
	[ -e "$inst/$f" ] || fail "$f not installed"
done
for w in mpic++ mpiCC; do
	run "$inst/bin/$w" -showme:version
	expect_rc 0
	expect_out 'Shoal .*C\+\+'
done

run "$inst/bin/mpicc" -show -o x x.c
expect_rc 0
grep -q -- "$SHOAL_BUILD" "$OUT" && { show; fail "installed mpicc refers to the build directory"; }
expect_out "$inst"

cat >"$TEST_TMP/h.c" <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	printf("installed rank %d of %d\n", rank, size);
	MPI_Finalize();
	return 0;
}
SRC
"$inst/bin/mpicc" -o "$TEST_TMP/h" "$TEST_TMP/h.c" || fail "installed mpicc cannot build"
run "$inst/bin/mpiexec" -n 3 "$TEST_TMP/h"
expect_rc 0
expect_out_count '^installed rank [0-2] of 3$' 3
run "$inst/bin/mpirun" -n 2 "$TEST_TMP/h"
expect_rc 0
expect_out_count '^installed rank [01] of 2$' 2
run "$TEST_TMP/h"
expect_rc 0
expect_out '^installed rank 0 of 1$'
# The program must not pick up libmpi from the build tree.
ldd "$TEST_TMP/h" 2>/dev/null | grep -q -- "$SHOAL_BUILD" && fail "program links libmpi from the build directory"
# The installed pkg-config answers from the install tree, PATH alone choosing it.
run env PATH="$inst/bin:$PATH" PKG_CONFIG_PATH= pkg-config --cflags ompi-c
expect_rc 0
expect_out "^-I$inst/lib/pkgconfig/../../include -fPIC"
exit 0
