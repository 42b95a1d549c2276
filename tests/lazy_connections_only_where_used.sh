#!/bin/bash
# lazy_connections_only_where_used: on 4 hosts (network namespaces), with SHOAL_CONNECT=lazy only the two hosts whose ranks talk have a mesh connection (the others have none), and the messages arrive; with SHOAL_CONNECT=all (the default) every host is connected to the 3 others.
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build talk <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v = 0, ok = 1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < 10 && rank < 2; i++) {
		if (rank == 0) {
			v = i;
			MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			ok &= v == i + 100;
		} else {
			MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			ok &= v == i;
			v += 100;
			MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
	}
	printf("rank %d ready %s\n", rank, ok ? "ok" : "WRONG");
	fflush(stdout);
	while (access(argv[1], F_OK) != 0)
		usleep(20000);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 4
# mesh_links NS: established TCP connections of namespace NS to other hosts (not to the
# head namespace, where mpiexec's control connections end).
mesh_links() {
	ip netns exec "$1" ss -Htn state established | awk '{ print $4 }' | grep -vc "^$NS_NET\.1:"
}
for mode in lazy all; do
	go=$TEST_TMP/go.$mode
	: >"$OUT"  # not the last mode's "ready" lines: the job below truncates it only later
	SHOAL_CONNECT=$mode "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" "$TEST_TMP/talk" "$go" \
		>"$OUT" 2>"$ERR" </dev/null &
	job=$!
	await_out_count ready 4 20 || true
	# Connections made at start may still be coming up when a rank prints: with "all",
	# wait for them (a minute at most, for a loaded machine).
	for i in $(seq 600); do
		links=""
		for ns in "${NS_HOSTS[@]}"; do links="$links $(mesh_links "$ns")"; done
		[ $mode = lazy ] || [ "$links" = " 3 3 3 3" ] && break
		sleep 0.1
	done
	touch "$go"
	wait $job
	RC=$?
	expect_rc 0
	expect_out_count '^rank [0-3] ready ok$' 4
	echo "$mode: mesh connections per host:$links"
	if [ $mode = lazy ]; then
		[ "$links" = " 1 1 0 0" ] || { show; fail "lazy: expected connections 1 1 0 0, got$links"; }
	else
		[ "$links" = " 3 3 3 3" ] || { show; fail "all: expected connections 3 3 3 3, got$links"; }
	fi
done
exit 0
