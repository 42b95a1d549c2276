#!/bin/bash
# control_connection_without_secret_is_dropped: while a job on two hosts (local launcher) runs, connections to mpiexec's control port with a wrong job secret, or not speaking the protocol, are dropped and logged, and the job goes on to a normal end; the secret never appears on a command line.
. "$SHOAL_TESTS/lib/common.bash"

build wait_go <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d up\n", rank);
	fflush(stdout);
	while (access(argv[1], F_OK) != 0)
		usleep(20000);
	printf("rank %d done\n", rank);
	MPI_Finalize();
	return 0;
}
SRC

go=$TEST_TMP/go
"$MPIEXEC" --launcher local -H a,b "$TEST_TMP/wait_go" "$go" >"$OUT" 2>"$ERR" </dev/null &
job=$!
for i in $(seq 100); do
	[ "$(grep -c up "$OUT")" = 2 ] && break
	sleep 0.1
done
[ "$(grep -c up "$OUT")" = 2 ] || { touch "$go"; show; fail "job did not start"; }
args=$(ps -o args= --ppid $job)
port=$(echo "$args" | sed -n 's/.*--connect 127\.0\.0\.1:\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$port" ] || { touch "$go"; fail "no --connect in the node's command line: $args"; }

# A HELLO with the right magic and version but a secret of zeros: 45 bytes of record.
exec 3<>/dev/tcp/127.0.0.1/$port
printf '\x2d\x00\x00\x00\x01SHLC\x01\x00\x00\x00\x00\x00\x00\x00' >&3
head -c 32 /dev/zero >&3
# Not the protocol at all.
exec 4<>/dev/tcp/127.0.0.1/$port
printf 'GET / HTTP/1.0\r\n\r\n' >&4
for i in $(seq 50); do
	[ "$(grep -c 'dropped control connection' "$ERR")" = 2 ] && break
	sleep 0.1
done
exec 3>&- 4>&-
touch "$go"
wait $job
RC=$?
expect_rc 0
expect_err 'dropped control connection from 127\.0\.0\.1:[0-9]+: wrong job secret'
expect_err 'dropped control connection from 127\.0\.0\.1:[0-9]+: not a Shoal node process'
expect_out_count '^rank [01] done$' 2
# The secret (64 hex digits) is on no command line.
echo "$args" | grep -Eq '[0-9a-f]{64}' && fail "a secret-like word on the command line: $args"
exit 0
