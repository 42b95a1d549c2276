#!/bin/bash
# mpicc_shared_gives_a_soname: `mpicc -shared -o DIR/libX.so` (and mpicxx's) links the library with the soname libX.so, the base name of its output (-oFILE too), which -showme prints; a soname the user gives (-Wl,-soname,X, -Wl,-soname=X, -Wl,-h,X, -Wl,-hX, -Xlinker -soname -Xlinker X, -Xlinker -soname=X) is the one the library gets, once, with none added; -Wl,--hash-style (not -h) still gets one; a link without -o gets none; a program linked with the library by its path needs it by its soname and runs.
. "$SHOAL_TESTS/lib/common.bash"
command -v readelf >/dev/null || skip "no readelf (apt-get install binutils)"
cd "$TEST_TMP" || fail "no $TEST_TMP"
mkdir -p sub
cat >solver.c <<'SRC'
#include <mpi.h>
static int my_rank = -1;
void solver_init(void) { MPI_Comm_rank(MPI_COMM_WORLD, &my_rank); }
int solver_rank(void) { return my_rank; }
SRC

# sonames FILE: the library's DT_SONAME entries, one a line.
sonames() {
	readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p'
}
# expect_soname FILE NAME: FILE has exactly one soname, NAME.
expect_soname() {
	local got
	got=$(sonames "$1")
	[ "$got" = "$2" ] || fail "$1: soname '${got//$'\n'/, }', want '$2'"
}

# The base name of the output, with the directory and the version it has.
"$MPICC" -shared -o sub/libsolver.so.1 solver.c || fail "mpicc -shared failed"
expect_soname sub/libsolver.so.1 libsolver.so.1
"$MPICC" -shared -osub/libjoined.so solver.c || fail "mpicc -shared -oFILE failed"
expect_soname sub/libjoined.so libjoined.so
# -showme prints the soname it adds.
run "$MPICC" -showme -shared -o sub/libsolver.so.1 solver.c
expect_rc 0
expect_out ' -Wl,-soname,libsolver\.so\.1( |$)'
# ld's --hash-style is not its -h.
"$MPICC" -shared -o libhash.so solver.c -Wl,--hash-style=gnu || fail "mpicc -Wl,--hash-style failed"
expect_soname libhash.so libhash.so

# The user's own soname, in each spelling: kept, and nothing added.
i=0
for own in "-Wl,-soname,libmine.so.2" "-Wl,-soname=libmine.so.2" "-Wl,-h,libmine.so.2" \
	"-Wl,-hlibmine.so.2" "-Xlinker -soname -Xlinker libmine.so.2" "-Xlinker -soname=libmine.so.2"; do
	i=$((i + 1))
	read -r -a words <<<"$own"
	"$MPICC" -shared -o "sub/libown$i.so" solver.c "${words[@]}" || fail "mpicc $own failed"
	expect_soname "sub/libown$i.so" libmine.so.2
	run "$MPICC" -showme -shared -o "sub/libown$i.so" solver.c "${words[@]}"
	expect_rc 0
	grep -q "libown$i" <<<"$(grep -o -- '-Wl,-soname,[^ ]*' "$OUT")" &&
		{ show; fail "$own: -showme adds a soname of its own"; }
done

# No -o: a.out, no name to give.
mkdir -p noout && (cd noout && "$MPICC" -shared ../solver.c) || fail "mpicc -shared without -o failed"
[ -z "$(sonames noout/a.out)" ] || fail "a library linked without -o got a soname"

# mpicxx: the same wrapper.
cat >lib.cpp <<'SRC'
#include <mpi.h>
#include <string>
static std::string name = "lib";
int lib_rank() { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r + (int)name.size(); }
SRC
"$MPICXX" -shared -o sub/libcxx.so lib.cpp || fail "mpicxx -shared failed"
expect_soname sub/libcxx.so libcxx.so
"$MPICXX" -shared -o sub/libcxxown.so lib.cpp -Wl,-soname,libcxxmine.so || fail "mpicxx own soname failed"
expect_soname sub/libcxxown.so libcxxmine.so

# A program linked with the library runs under mpiexec and needs it by its soname.
cat >prog.c <<'SRC'
#include <stdio.h>
#include <mpi.h>
void solver_init(void);
int solver_rank(void);
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	solver_init();
	printf("solver rank %d\n", solver_rank() >= 0);
	MPI_Finalize();
	return 0;
}
SRC
# Linked by its path, the library is needed by its soname, which the rpath finds.
"$MPICC" -o prog prog.c sub/libsolver.so.1 -Wl,-rpath,"$TEST_TMP/sub" || fail "mpicc prog failed"
readelf -d prog | grep -q 'NEEDED.*\[libsolver\.so\.1\]' || { readelf -d prog; fail "prog does not need libsolver.so.1 by its soname"; }
run "$MPIEXEC" -n 2 ./prog
expect_rc 0
expect_out_count '^solver rank 1$' 2
exit 0
