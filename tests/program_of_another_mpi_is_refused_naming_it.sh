#!/bin/bash
# program_of_another_mpi_is_refused_naming_it: a program dynamically linked with another MPI's library (Open MPI's libmpi.so.40, MPICH's libmpich.so.12 or libmpi.so.12) is not run, each rank a singleton of that MPI: mpiexec ends with status 1 and a message naming that MPI and its library, once, before any node starts (on one node and with --launcher local and 3 nodes); a program linked with an unrelated library of a similar name runs. The libraries are stand-ins with those sonames, so the test needs neither MPI installed.
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP"

cat >fake.c <<'SRC'
int MPI_Init(int *argc, char ***argv) { return 0; }
SRC
cat >prog.c <<'SRC'
#include <stdio.h>
int MPI_Init(int *argc, char ***argv);
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	puts("the other MPI's program ran");
	return 0;
}
SRC
# linked SONAME: a program needing a library of that soname, in $TEST_TMP/SONAME.d.
linked() {
	mkdir -p "$1.d"
	gcc -shared -fPIC -Wl,-soname,"$1" -o "$1.d/$1" fake.c &&
		gcc -o "$1.d/prog" prog.c "$1.d/$1" -Wl,-rpath,"$TEST_TMP/$1.d" ||
		fail "gcc could not link with a library named $1"
}

for pair in "libmpi.so.40:Open MPI" "libmpich.so.12:MPICH" "libmpi.so.12:MPICH"; do
	so=${pair%%:*} mpi=${pair#*:}
	linked "$so"
	"$so.d/prog" >/dev/null || fail "$so: the stand-in does not run alone"
	for where in "-n 2" "--launcher local -H a,b,c"; do
		run "$MPIEXEC" $where "./$so.d/prog"
		expect_rc 1
		expect_err "^mpiexec: \./$so\.d/prog is built with $mpi \(it needs $so\):.*rebuild it with Shoal's mpicc"
		[ "$(wc -l <"$ERR")" = 1 ] || { show; fail "$so, $where: not one message"; }
		grep -q ran "$OUT" && fail "$so: the program ran"
	done
done

linked libmpimath.so.1
run "$MPIEXEC" -n 2 ./libmpimath.so.1.d/prog
expect_rc 0
expect_out_count ran 2
exit 0
