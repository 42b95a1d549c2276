#!/bin/bash
# comm_dup_concurrently_across_hosts_unique_contexts: on 2 and 3 hosts (network namespaces), 4 threads per rank (MPI_THREAD_MULTIPLE) each dup their own communicator and free it 30 times at once, with an Allreduce and a ring on each: contexts agreed across nodes never collide (values and sources stay right), no hang.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build mt -lpthread <<'SRC'
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

enum { THREADS = 4, ROUNDS = 30 };
static MPI_Comm base[THREADS];
static int rank, size;
static _Atomic int bad;

/* Thread t: dup its own communicator, use it, free it, again and again. */
static void *work(void *arg)
{
	int t = (int)(long)arg;

	for (int i = 0; i < ROUNDS; i++) {
		MPI_Comm d;
		int s = rank + t, r = 0, x = rank * 100 + t, y = -1;
		int to = (rank + 1) % size, from = (rank + size - 1) % size;
		MPI_Comm_dup(base[t], &d);
		MPI_Allreduce(&s, &r, 1, MPI_INT, MPI_SUM, d);
		if (r != size * (size - 1) / 2 + size * t)
			bad++;
		MPI_Sendrecv(&x, 1, MPI_INT, to, 1, &y, 1, MPI_INT, from, 1, d, MPI_STATUS_IGNORE);
		if (y != from * 100 + t)
			bad++;
		MPI_Comm_free(&d);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[THREADS];
	int provided;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int t = 0; t < THREADS; t++)
		MPI_Comm_dup(MPI_COMM_WORLD, &base[t]);
	for (int t = 0; t < THREADS; t++)
		pthread_create(&th[t], NULL, work, (void *)(long)t);
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	for (int t = 0; t < THREADS; t++)
		MPI_Comm_free(&base[t]);
	printf("rank %d %s %d\n", rank, bad ? "BAD" : "ok", (int)bad);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 3
hosts2=$(IFS=,; echo "${NS_HOSTS[*]:0:2}")
for hosts in "$hosts2" "$(netns_hosts)"; do
	run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 2 --map-by node "$TEST_TMP/mt"
	expect_rc 0
	n=$(( $(echo "$hosts" | tr ',' '\n' | wc -l) * 2 ))
	expect_out_count '^rank [0-9]+ ok 0$' "$n"
done
exit 0
