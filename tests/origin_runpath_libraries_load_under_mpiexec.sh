#!/bin/bash
# origin_runpath_libraries_load_under_mpiexec: a program whose RUNPATH (or old-style RPATH) finds its library through $ORIGIN runs under mpiexec at 4 and 64 ranks from any directory, as it does directly, although each rank's copy lives in the job directory; the library stays one per node.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
mkdir -p "$TEST_TMP/inst/bin" "$TEST_TMP/inst/lib"
cat >"$TEST_TMP/count.c" <<'SRC'
static int loads;
int count_load(void) { return ++loads; }
SRC
"$MPICC" -shared -Wl,-soname,libcount.so -o "$TEST_TMP/inst/lib/libcount.so" "$TEST_TMP/count.c" ||
	fail "cannot build the library"
for tags in new old; do
	dtags=--enable-new-dtags
	[ $tags = old ] && dtags=--disable-new-dtags
	build origin_$tags -L"$TEST_TMP/inst/lib" -lcount -Wl,$dtags -Wl,-rpath,'$ORIGIN/../lib' <<'SRC'
#include <stdio.h>
#include <mpi.h>
int count_load(void);
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("origin rank %d count %d\n", rank, count_load() > 0);
	MPI_Finalize();
	return 0;
}
SRC
	prog=$TEST_TMP/inst/bin/origin_$tags
	mv "$TEST_TMP/origin_$tags" "$prog"
	kind=RUNPATH
	[ $tags = old ] && kind=RPATH
	readelf -d "$prog" | grep -q "($kind).*\\\$ORIGIN/../lib" || fail "origin_$tags has no \$ORIGIN $kind"
	cd / || fail "cannot change directory"
	run "$prog"
	expect_rc 0
	expect_out '^origin rank 0 count 1$'
	for n in 4 64; do
		run "$MPIEXEC" -n $n "$prog"
		expect_rc 0
		expect_out_count '^origin rank [0-9]+ count 1$' $n
	done
done
exit 0
