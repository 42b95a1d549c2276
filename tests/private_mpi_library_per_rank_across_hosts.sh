#!/bin/bash
# private_mpi_library_per_rank_across_hosts: a library built with Shoal's mpicc -shared, linked into a program and loaded by it as a plug-in too, is loaded once per rank on every host of a job across network namespaces (2 hosts, 3 and 8 ranks): each rank's library keeps that rank's own global, and a message passed around the ring through the library's own calls arrives with every rank's contribution.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
cd "$TEST_TMP" || fail "no scratch directory"

cat >ringlib.c <<'SRC'
#include <mpi.h>
static int me = -1;
void ring_init(void) { MPI_Comm_rank(MPI_COMM_WORLD, &me); }
int ring_me(void) { return me; }
/* Pass a sum around the ring: each rank adds its own `me`, as its copy of the library knows it. */
long ring_sum(void)
{
	int n;
	long sum = 0;

	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (me == 0) {
		sum = me;
		MPI_Send(&sum, 1, MPI_LONG, 1 % n, 0, MPI_COMM_WORLD);
		MPI_Recv(&sum, 1, MPI_LONG, n - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&sum, 1, MPI_LONG, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		sum += me;
		MPI_Send(&sum, 1, MPI_LONG, (me + 1) % n, 0, MPI_COMM_WORLD);
	}
	MPI_Bcast(&sum, 1, MPI_LONG, 0, MPI_COMM_WORLD);  /* rank 0's has every rank's */
	return sum;
}
SRC
"$MPICC" -shared -o libring.so ringlib.c || fail "mpicc -shared cannot build libring"
"$MPICC" -shared -o libplug.so ringlib.c || fail "mpicc -shared cannot build libplug"

cat >prog.c <<'SRC'
#include <dlfcn.h>
#include <stdio.h>
#include <mpi.h>
void ring_init(void);
int ring_me(void);
long ring_sum(void);
int main(int argc, char **argv)
{
	int rank;
	void *plug;
	int (*plug_me)(void);
	void (*plug_init)(void);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	ring_init();
	plug = dlopen(argv[1], RTLD_NOW);
	if (!plug) {
		printf("rank %d: dlopen: %s\n", rank, dlerror());
		return 1;
	}
	plug_init = (void (*)(void))dlsym(plug, "ring_init");
	plug_me = (int (*)(void))dlsym(plug, "ring_me");
	plug_init();
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d: library %d plug-in %d sum %ld\n", rank, ring_me(), plug_me(), ring_sum());
	MPI_Finalize();
	return 0;
}
SRC
"$MPICC" -o prog prog.c -L. -lring -Wl,-rpath,"$TEST_TMP" || fail "mpicc cannot build prog"

netns_up 2
for n in 3 8; do
	run -t 120 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn $(((n + 1) / 2)) -n $n \
		./prog "$TEST_TMP/libplug.so"
	expect_rc 0
	for ((r = 0; r < n; r++)); do
		expect_out "^rank $r: library $r plug-in $r sum $((n * (n - 1) / 2))\$"
	done
	expect_out_count '^rank ' $n
done
