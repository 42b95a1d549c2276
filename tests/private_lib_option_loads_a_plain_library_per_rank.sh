#!/bin/bash
# private_lib_option_loads_a_plain_library_per_rank: a plain library (gcc -shared, no MPI) with a global counter is one per node by default (the ranks' increments add up), and one per rank when named by mpiexec --private-lib (its soname, its path) or SHOAL_PRIVATE_LIBS (its soname stem): each rank counts only its own increments. A library that cannot be loaded once per rank is refused with status 1 and a message saying why: libc itself, a library with initial-exec (static) TLS, a library without a soname.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP" || fail "no scratch directory"

cat >count.c <<'SRC'
static int count;
int count_add(void) { return __atomic_add_fetch(&count, 1, __ATOMIC_SEQ_CST); }
int count_get(void) { return __atomic_load_n(&count, __ATOMIC_SEQ_CST); }
SRC
sed 's/count_/second_/g' count.c >second.c
gcc -shared -fPIC -Wl,-soname,libcount.so -o libcount.so count.c || fail "cannot build libcount"
gcc -shared -fPIC -Wl,-soname,libsecond.so.1 -o libsecond.so.1 second.c || fail "cannot build libsecond"
ln -s libsecond.so.1 libsecond.so

build counter -L"$TEST_TMP" -lcount -lsecond -Wl,-rpath,"$TEST_TMP" <<'SRC'
#include <stdio.h>
#include <mpi.h>
int count_add(void);
int count_get(void);
int second_add(void);
int second_get(void);
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i <= rank; i++) {   /* rank R adds R + 1 to each */
		count_add();
		second_add();
	}
	MPI_Barrier(MPI_COMM_WORLD);        /* every rank has added before any reads */
	printf("rank %d: count %d second %d\n", rank, count_get(), second_get());
	MPI_Finalize();
	return 0;
}
SRC

# counted WHAT COUNT SECOND: the last run ended well and each rank R read libcount's
# counter as COUNT and libsecond's as SECOND: "own" for R + 1 (the rank's own increments
# alone), "all" for 1 + 2 + 3 + 4 (one counter for the node's 4 ranks).
counted() {
	local r c s
	expect_rc 0
	for r in 0 1 2 3; do
		c=10 s=10
		[ "$2" = own ] && c=$((r + 1))
		[ "$3" = own ] && s=$((r + 1))
		grep -qx "rank $r: count $c second $s" "$OUT" ||
			{ show; fail "$1: rank $r should read count $c second $s"; }
	done
}
run "$MPIEXEC" -n 4 ./counter
counted "by default" all all
run "$MPIEXEC" --private-lib libcount.so -n 4 ./counter
counted "--private-lib libcount.so" own all
run "$MPIEXEC" -n 4 --private-lib "$TEST_TMP/libsecond.so.1" ./counter
counted "--private-lib with a path" all own
SHOAL_PRIVATE_LIBS=libcount run "$MPIEXEC" -n 4 ./counter
counted "SHOAL_PRIVATE_LIBS=libcount" own all
SHOAL_PRIVATE_LIBS=libsecond:libcount.so run "$MPIEXEC" -n 4 ./counter
counted "SHOAL_PRIVATE_LIBS=libsecond:libcount.so" own own
run "$MPIEXEC" --private-lib libcount --private-lib libsecond.so.1 -n 4 ./counter
counted "--private-lib twice" own own
run "$MPIEXEC" --private-lib libcount.so:libsecond.so.1 -n 4 ./counter
counted "--private-lib libcount.so:libsecond.so.1" own own

# refused LIB WHY [NAME]: mpiexec --private-lib NAME (default LIB) on ./counter_LIB (or on
# ./counter for libc) ends with status 1 and "cannot load LIB (PATH) once per rank: WHY";
# no rank runs.
refused() {
	local lib=$1 why=$2 name=${3:-$1} prog=./counter
	[ -e "./counter_$lib" ] && prog=./counter_$lib
	run "$MPIEXEC" --private-lib "$name" -n 2 "$prog"
	expect_rc 1
	expect_err "^shoal: cannot load ${lib//./\\.} \\(.*\\) once per rank: $why"
	grep -q count "$OUT" && { show; fail "$lib: a rank ran"; }
	return 0
}
refused libc.so.6 "it is part of the C library"

# A library whose thread-local variable uses the initial-exec model (static TLS).
cat >ietls.c <<'SRC'
static __thread int hits;
int count_add(void) { return ++hits; }
int count_get(void) { return hits; }
SRC
gcc -shared -fPIC -ftls-model=initial-exec -Wl,-soname,libietls.so -o libietls.so ietls.c ||
	fail "cannot build libietls"
readelf -d libietls.so | grep -q STATIC_TLS || fail "libietls.so has no static TLS flag"
# The program one: it uses count_add and count_get of the library it is linked with.
cat >one.c <<'SRC'
#include <stdio.h>
#include <mpi.h>
int count_add(void);
int count_get(void);
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	count_add();
	printf("count %d\n", count_get());
	MPI_Finalize();
	return 0;
}
SRC
"$MPICC" -o counter_libietls.so one.c -L"$TEST_TMP" -lietls -Wl,-rpath,"$TEST_TMP" ||
	fail "cannot link with libietls"
refused libietls.so "it has thread-local variables of the initial-exec model \\(static TLS\\)"

# A library without a soname.
gcc -shared -fPIC -o libnosoname.so count.c || fail "cannot build libnosoname"
"$MPICC" -o counter_libnosoname.so one.c -L"$TEST_TMP" -lnosoname -Wl,-rpath,"$TEST_TMP" ||
	fail "cannot link with libnosoname"
refused libnosoname.so "it has no soname: link it with -Wl,-soname,[^ ]+ \\(Shoal's mpicc -shared adds one\\)"
exit 0
