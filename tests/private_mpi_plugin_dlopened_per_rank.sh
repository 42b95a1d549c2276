#!/bin/bash
# private_mpi_plugin_dlopened_per_rank: a plug-in built with Shoal's mpicc -shared that the program dlopen()s, by path or by bare name (LD_LIBRARY_PATH), is loaded once per rank, at 4 and 16 ranks: each rank's instance keeps its own globals, opening it again by name gives that rank's instance, and dlclose then dlopen gives the even ranks a fresh instance (globals re-initialised, constructor run again) while the odd ranks keep theirs. A plug-in that needs another MPI library (a chain) is loaded once per rank with it.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
cd "$TEST_TMP" || fail "no scratch directory"
mkdir -p plugins

# libtally: a plain library (no MPI), shared by the node's ranks: counts constructor runs.
gcc -shared -fPIC -Wl,-soname,libtally.so -o libtally.so "$SHOAL_TESTS/lib/tally.c" ||
	fail "cannot build libtally"

cat >plugin.c <<'SRC'
#include <mpi.h>
int tally_add(void);
static int my_rank = -1;
static int ctor_runs;
__attribute__((constructor)) static void plugin_ctor(void)
{
	ctor_runs++;
	tally_add();
}
int plugin_set(void)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
	return my_rank;
}
int plugin_get(void) { return my_rank; }
int plugin_ctors(void) { return ctor_runs; }
SRC
# The chain: libchainplug.so (opened) needs libchainbase.so, both use MPI and keep a global.
cat >chainbase.c <<'SRC'
#include <mpi.h>
static int base_state = -1;
void base_set(void)
{
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	base_state = 1000 + rank;
}
int base_get(void) { return base_state; }
SRC
cat >chainplug.c <<'SRC'
#include <mpi.h>
void base_set(void);
int base_get(void);
static int plug_state = -1;
void chain_set(void)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &plug_state);
	base_set();
}
int chain_get(void) { return plug_state; }
int chain_base_get(void) { return base_get(); }
SRC
export LD_LIBRARY_PATH=$TEST_TMP/plugins:$TEST_TMP
"$MPICC" -g -shared -o plugins/libplugin.so plugin.c -L"$TEST_TMP" -ltally ||
	fail "mpicc -shared cannot build the plug-in"
"$MPICC" -g -shared -o plugins/libchainbase.so chainbase.c || fail "mpicc -shared cannot build libchainbase"
"$MPICC" -g -shared -o plugins/libchainplug.so chainplug.c -L"$TEST_TMP/plugins" -lchainbase ||
	fail "mpicc -shared cannot build libchainplug"

build plug -L"$TEST_TMP" -ltally <<'SRC'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
int tally_total(void);
static int rank;
/* sym: function NAME of handle H, or the job ends saying why. */
static void *sym(void *h, const char *what, const char *name)
{
	void *f = h ? dlsym(h, name) : NULL;
	if (!f) {
		printf("rank %d: %s: %s\n", rank, what, dlerror());
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	return f;
}
int main(int argc, char **argv)
{
	void *by_path, *by_name, *again, *chain;
	int (*set)(void), (*get)(void), (*ctors)(void), (*chain_get)(void), (*chain_base_get)(void);
	void (*chain_set)(void);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);

	by_path = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	set = (int (*)(void))sym(by_path, "by path", "plugin_set");
	set();
	MPI_Barrier(MPI_COMM_WORLD);   /* every rank has set its plug-in before any reads it */
	get = (int (*)(void))sym(by_path, "by path", "plugin_get");
	ctors = (int (*)(void))sym(by_path, "by path", "plugin_ctors");
	printf("rank %d: by path %d constructors %d\n", rank, get(), ctors());

	by_name = dlopen("libplugin.so", RTLD_NOW | RTLD_LOCAL);
	get = (int (*)(void))sym(by_name, "by name", "plugin_get");
	printf("rank %d: by name %d same handle %d\n", rank, get(), by_name == by_path);
	MPI_Barrier(MPI_COMM_WORLD);   /* every rank has read its instance before any closes one */

	if (rank % 2 == 0) {
		dlclose(by_name);
		dlclose(by_path);
		again = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	} else {
		again = by_path;
	}
	get = (int (*)(void))sym(again, "again", "plugin_get");
	ctors = (int (*)(void))sym(again, "again", "plugin_ctors");
	printf("rank %d: again before set %d constructors %d\n", rank, get(), ctors());
	MPI_Barrier(MPI_COMM_WORLD);   /* every instance is read before any rank sets one */
	set = (int (*)(void))sym(again, "again", "plugin_set");
	set();
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d: again %d\n", rank, get());

	chain = dlopen("libchainplug.so", RTLD_NOW | RTLD_LOCAL);
	chain_set = (void (*)(void))sym(chain, "chain", "chain_set");
	chain_get = (int (*)(void))sym(chain, "chain", "chain_get");
	chain_base_get = (int (*)(void))sym(chain, "chain", "chain_base_get");
	chain_set();
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d: chain %d base %d\n", rank, chain_get(), chain_base_get());

	MPI_Barrier(MPI_COMM_WORLD);   /* every rank has opened what it opens */
	printf("rank %d: plug-in constructors on the node %d\n", rank, tally_total());
	MPI_Finalize();
	return 0;
}
SRC

run ./plug "$TEST_TMP/plugins/libplugin.so"
expect_rc 0
expect_out '^rank 0: by path 0 constructors 1$'
expect_out '^rank 0: again before set -1 constructors 1$'
expect_out '^rank 0: chain 0 base 1000$'

for n in 4 16; do
	run -t 120 "$MPIEXEC" -n $n ./plug "$TEST_TMP/plugins/libplugin.so"
	expect_rc 0
	for r in $(seq 0 $((n - 1))); do
		expect_out_count "^rank $r: by path $r constructors 1\$" 1
		# Opened again by its bare name: the rank's own instance, as in a process of its own.
		expect_out_count "^rank $r: by name $r same handle 1\$" 1
		if [ $((r % 2)) = 0 ]; then
			expect_out_count "^rank $r: again before set -1 constructors 1\$" 1
		else
			expect_out_count "^rank $r: again before set $r constructors 1\$" 1
		fi
		expect_out_count "^rank $r: again $r\$" 1
		expect_out_count "^rank $r: chain $r base $((1000 + r))\$" 1
		# One constructor run per rank, and one more per even rank's second instance.
		expect_out_count "^rank $r: plug-in constructors on the node $((n + n / 2))\$" 1
	done
done
exit 0
