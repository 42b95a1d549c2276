#!/bin/bash
# private_library_built_with_another_mpi_is_refused: a shared library built with Open MPI's mpicc -shared (it needs libmpi.so.40) or MPICH's (libmpich.so.12), linked into a Shoal program directly or through a plain library, is refused at start: status 1 and a message naming the library, what needs it, the other MPI and how to rebuild it; no rank runs. A library missing at run time is reported as the dynamic linker reports it for a process, with status 127.
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP" || fail "no scratch directory"

cat >solver.c <<'SRC'
#include <mpi.h>
static int my_rank = -1;
void solver_init(void) { MPI_Comm_rank(MPI_COMM_WORLD, &my_rank); }
int solver_rank(void) { return my_rank; }
SRC
# libmid: a plain library (no MPI) between the program and the solver library.
cat >mid.c <<'SRC'
void solver_init(void);
int solver_rank(void);
int mid_rank(void) { solver_init(); return solver_rank(); }
SRC
cat >direct.c <<'SRC'
#include <stdio.h>
#include <mpi.h>
void solver_init(void);
int solver_rank(void);
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	solver_init();
	printf("solver ran: rank %d\n", solver_rank());
	MPI_Finalize();
	return 0;
}
SRC
cat >through.c <<'SRC'
#include <stdio.h>
#include <mpi.h>
int mid_rank(void);
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	printf("solver ran: rank %d\n", mid_rank());
	MPI_Finalize();
	return 0;
}
SRC

# other_mpi WRAPPER MPI NEEDS: build the solver library with WRAPPER (another MPI's mpicc),
# link Shoal programs with it, directly and through a plain library, and check that
# mpiexec refuses both naming MPI and NEEDS (its library's soname).
other_mpi() {
	local cc=$1 mpi=$2 needs=$3 d=$TEST_TMP/$1 re
	mkdir -p "$d"
	"$cc" -shared -fPIC -Wl,-soname,libsolver.so -o "$d/libsolver.so" solver.c ||
		fail "$cc -shared cannot build libsolver"
	readelf -d "$d/libsolver.so" | grep -qF "[$needs]" || fail "$cc: libsolver.so does not need $needs"
	gcc -shared -fPIC -Wl,-soname,libmid.so -o "$d/libmid.so" mid.c -L"$d" -lsolver -Wl,-rpath,"$d" ||
		fail "cannot build libmid"
	"$MPICC" -o "$d/direct" direct.c -L"$d" -lsolver -Wl,-rpath,"$d" ||
		fail "cannot link a program with $mpi's libsolver"
	"$MPICC" -o "$d/through" through.c -L"$d" -lmid -Wl,-rpath,"$d" -Wl,-rpath-link,"$d" ||
		fail "cannot link a program with libmid"
	re="is built with $mpi \\(it needs ${needs//./\\.}\\): rebuild it with Shoal's mpicc -shared"
	for n in 1 4; do
		run "$MPIEXEC" -n $n "$d/direct"
		expect_rc 1
		expect_err "^shoal: libsolver\\.so \\([^,]*/libsolver\\.so, needed by .*direct\\) $re"
		grep -q 'solver ran' "$OUT" && { show; fail "$mpi, direct, -n $n: a rank ran"; }
	done
	run "$MPIEXEC" -n 4 "$d/through"
	expect_rc 1
	expect_err "^shoal: libsolver\\.so \\([^,]*/libsolver\\.so, needed by .*libmid\\.so\\) $re"
	grep -q 'solver ran' "$OUT" && { show; fail "$mpi, through libmid: a rank ran"; }
	return 0
}

# /usr/bin/mpicc is whichever MPI the system chose; each MPI's own name for it is kept.
ran=0
if command -v mpicc.openmpi >/dev/null; then
	other_mpi mpicc.openmpi "Open MPI" libmpi.so.40
	ran=$((ran + 1))
fi
if command -v mpicc.mpich >/dev/null; then
	other_mpi mpicc.mpich MPICH libmpich.so.12
	ran=$((ran + 1))
fi

# A library missing at run time: the program was linked with it, then it was removed.
"$MPICC" -shared -o libsolver.so solver.c || fail "mpicc -shared cannot build libsolver"
"$MPICC" -o missing direct.c -L"$TEST_TMP" -lsolver -Wl,-rpath,"$TEST_TMP" ||
	fail "cannot link with libsolver"
rm libsolver.so
msg='error while loading shared libraries: libsolver\.so: cannot open shared object file: No such file or directory'
run ./missing
expect_rc 127
expect_err "$msg"
for n in 1 4; do
	run "$MPIEXEC" -n $n ./missing
	expect_rc 127
	expect_err "^([^ ]*/)?missing: $msg\$"
	grep -q 'solver ran' "$OUT" && { show; fail "missing library, -n $n: a rank ran"; }
done

[ $ran = 0 ] && skip "neither Open MPI's nor MPICH's mpicc is installed (the missing library passed)"
exit 0
