#!/bin/bash
# library_linked_with_build_flags_leaves_getopt_to_program: a shared library linked with the build systems' flags (mpi.pc's Libs, which carry rankcrt.o) and loaded by the program after start (dlopen) does not take the rank's getopt variables over: getopt still advances the program's own optind, in every rank and run directly.
. "$SHOAL_TESTS/lib/common.bash"
command -v pkg-config >/dev/null || skip "pkg-config is not installed (make deps)"
export PATH=$SHOAL_BUILD/bin:$PATH
unset PKG_CONFIG_PATH
cd "$TEST_TMP" || fail "no scratch directory"
printf 'int plugin_value(void) { return 7; }\n' >plugin.c
gcc -shared -fPIC -o libplugin.so plugin.c $(pkg-config --cflags --libs mpi) || fail "cannot link the plugin"
cat >prog.c <<'SRC'
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, opt, n = 0;
	int (*value)(void);
	void *h;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	h = dlopen(argv[argc - 1], RTLD_NOW | RTLD_LOCAL);
	value = h ? (int (*)(void))dlsym(h, "plugin_value") : NULL;
	while ((opt = getopt(argc, argv, "ab")) != -1)
		n++;
	printf("rank %d plugin %d options %d optind %d\n", rank, value ? value() : -1, n, optind);
	MPI_Finalize();
	return 0;
}
SRC
gcc prog.c $(pkg-config --cflags --libs mpi) -ldl -o prog || fail "cannot link the program"
run ./prog -a -b "$TEST_TMP/libplugin.so"
expect_rc 0
expect_out '^rank 0 plugin 7 options 2 optind 3$'
for n in 4 64; do
	run "$MPIEXEC" -n $n ./prog -a -b "$TEST_TMP/libplugin.so"
	expect_rc 0
	expect_out_count '^rank [0-9]+ plugin 7 options 2 optind 3$' $n
done
exit 0
