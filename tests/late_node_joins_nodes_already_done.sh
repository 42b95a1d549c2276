#!/bin/bash
# late_node_joins_nodes_already_done: in a job on 3 hosts where the ranks never talk, node 0 dialling a second late (connect() slowed by a preloaded library) still joins nodes 1 and 2 whose ranks have all ended: their proxies keep the mesh listener open until mpiexec says every node ended; the job ends with status 0 and every rank's line, and no proxy is left waiting.
. "$SHOAL_TESTS/lib/common.bash"

build alone <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d done\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

# Every connect() of node 0 waits a second first: its node process dials nodes 1 and 2
# only after their ranks have had time to end.
cat >"$TEST_TMP/slow.c" <<'SLOW'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/socket.h>
#include <unistd.h>
int connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	int (*real)(int, const struct sockaddr *, socklen_t) = dlsym(RTLD_NEXT, "connect");
	sleep(1);
	return real(fd, sa, len);
}
SLOW
cc -shared -fPIC -o "$TEST_TMP/slow.so" "$TEST_TMP/slow.c" -ldl || fail "cannot build the slow connect()"
cat >"$TEST_TMP/agent" <<AGENT
#!/bin/sh
[ "\$1" = a ] && export LD_PRELOAD=$TEST_TMP/slow.so
shift
exec "\$@"
AGENT
chmod +x "$TEST_TMP/agent"

run "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" --control-addr 127.0.0.1 -H a,b,c -n 3 \
	"$TEST_TMP/alone"
expect_rc 0
for r in 0 1 2; do expect_out_count "^rank $r done\$" 1; done
grep -q 'cannot connect' "$ERR" && { show; fail "a node could not connect"; }
pgrep -f "shoal-node --connect .*$TEST_TMP/alone" && fail "a node proxy is left"
exit 0
