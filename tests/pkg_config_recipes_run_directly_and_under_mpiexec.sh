#!/bin/bash
# pkg_config_recipes_run_directly_and_under_mpiexec: every recipe mpi.pc offers (Libs alone, Libs plus program_ldflags, the ompi-c and ompi-cxx names) links a program with the plain compiler that runs directly and under mpiexec at 4 and 64 ranks, and Libs also links a shared library of the program, without warnings; Shoal's bin/pkg-config finds them from PATH alone.
# timeout: 300
. "$SHOAL_TESTS/lib/common.bash"
command -v pkg-config >/dev/null || skip "pkg-config is not installed (make deps)"
export PATH=$SHOAL_BUILD/bin:$PATH
unset PKG_CONFIG_PATH
cd "$TEST_TMP" || fail "no scratch directory"
[ "$(command -v pkg-config)" = "$SHOAL_BUILD/bin/pkg-config" ] || fail "Shoal's pkg-config is not first on PATH"

cat >hello.c <<'SRC'
#include <stdio.h>
#include <mpi.h>
#ifdef __cplusplus
extern "C"
#endif
int lib_twice(int);
int main(int argc, char **argv)
{
	int rank, size, sum;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	fprintf(stderr, "stderr of rank %d\n", rank);
	printf("recipe rank %d of %d sum %d twice %d\n", rank, size, sum, lib_twice(rank));
	MPI_Finalize();
	return sum == size * (size - 1) / 2 ? 0 : 1;
}
SRC
cat >lib.c <<'SRC'
#include <mpi.h>
int lib_twice(int v)
{
	int size;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	return size > 0 ? 2 * v : -1;
}
SRC
# The library, linked with Libs, keeps its function exported.
gcc -shared -Wl,-soname,liblib.so -o liblib.so lib.c $(pkg-config --cflags --libs mpi) >lib.build 2>&1 ||
	{ cat lib.build; fail "Libs does not link a shared library"; }
[ -s lib.build ] && { cat lib.build; fail "linking a shared library with Libs warns"; }
nm -D --defined-only liblib.so | grep -q ' T lib_twice$' || fail "Libs hid the library's function"

n=0
for recipe in "gcc hello.c \$(pkg-config --cflags --libs mpi)" \
	"gcc hello.c \$(pkg-config --cflags --libs mpi) \$(pkg-config --variable=program_ldflags mpi)" \
	"gcc hello.c \$(pkg-config --cflags --libs ompi-c)" \
	"g++ -x c++ hello.c \$(pkg-config --cflags --libs ompi-cxx)"; do
	n=$((n + 1))
	eval "$recipe -o prog$n -L. -llib -Wl,-rpath,\"$TEST_TMP\"" >prog$n.build 2>&1 ||
		{ cat prog$n.build; fail "recipe does not link: $recipe"; }
	# Under --san asan, libmpi.so needs libasan, whose own link-time warnings (tmpnam)
	# reach any program linked with it; they are not the recipe's.
	sed -i '/libasan\.so[^:]*: warning: /d' prog$n.build
	[ -s prog$n.build ] && { cat prog$n.build; fail "recipe warns: $recipe"; }
	run ./prog$n
	expect_rc 0
	expect_out '^recipe rank 0 of 1 sum 0 twice 0$'
	for r in 4 64; do
		run "$MPIEXEC" -n $r ./prog$n
		expect_rc 0
		expect_out_count "^recipe rank [0-9]+ of $r sum $((r * (r - 1) / 2)) twice [0-9]+\$" $r
		expect_out "^recipe rank 3 of $r sum [0-9]+ twice 6\$"
		expect_err 'stderr of rank 3'
	done
done
exit 0
