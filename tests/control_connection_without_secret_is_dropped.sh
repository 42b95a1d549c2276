#!/bin/bash
# control_connection_without_secret_is_dropped: while a job on two hosts (local agent) runs, connections to mpiexec's control port that answer its challenge with a wrong job secret, replay an answer captured from an earlier connection, or do not speak the protocol are dropped and logged; mpiexec's challenge proves the secret without sending it; the job goes on to a normal end; the secret never appears on a command line.
. "$SHOAL_TESTS/lib/common.bash"
command -v python3 >/dev/null || skip "no python3"

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

# A local agent that keeps a copy of the job secret (test only: it is what a node receives).
cat >"$TEST_TMP/agent" <<AGENT
#!/bin/bash
IFS= read -r secret
printf '%s\n' "\$secret" >"$TEST_TMP/secret"
shift
printf '%s\n' "\$secret" | exec "\$@"
AGENT
chmod +x "$TEST_TMP/agent"

go=$TEST_TMP/go
"$MPIEXEC" --launcher-agent "$TEST_TMP/agent" --control-addr 127.0.0.1 -H a,b \
	"$TEST_TMP/wait_go" "$go" >"$OUT" 2>"$ERR" </dev/null &
job=$!
await_out_count up 2 || { touch "$go"; show; fail "job did not start"; }
args=$(ps -o args= --ppid $job; for p in $(pgrep -P $job); do ps -o args= --ppid "$p"; done)
port=$(echo "$args" | sed -n 's/.*--connect 127\.0\.0\.1:\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$port" ] || { touch "$go"; fail "no --connect in the node's command line: $args"; }

python3 - "$port" "$(cat "$TEST_TMP/secret")" <<'PY' || { touch "$go"; fail "injection failed"; }
import hashlib, hmac, os, socket, struct, sys
port, secret = int(sys.argv[1]), bytes.fromhex(sys.argv[2])
def proof(key, role, a, b, first, second):
    # io/auth.c: HMAC-SHA256 over "SHLA", role, both indices and both nonces.
    msg = struct.pack('<IIII', 0x414c4853, role, a, b) + first + second
    return hmac.new(key, msg, hashlib.sha256).digest()
def record(kind, body):
    return struct.pack('<IB', len(body) + 1, kind) + body
def recv_exact(s, n):
    b = b''
    while len(b) < n:
        more = s.recv(n - len(b))
        assert more, 'closed early'
        b += more
    return b
def attempt(key, nonce=None, answer=None):
    """HELLO as node 1, check mpiexec's CHALLENGE proves the secret, answer it with `key`
    (or replay `answer`); returns the nonce and answer; waits for mpiexec to close."""
    nonce = nonce or os.urandom(32)
    s = socket.create_connection(('127.0.0.1', port), timeout=5)
    s.sendall(record(1, struct.pack('<III', 0x434c4853, 4, 1) + nonce))
    head = recv_exact(s, 5)
    assert head == struct.pack('<IB', 65, 20), 'not a CHALLENGE: %r' % head
    ch = recv_exact(s, 64)
    assert secret not in ch, 'the secret was sent in clear'
    assert hmac.compare_digest(ch[32:], proof(secret, 4, 1, 0, nonce, ch[:32])), \
        'mpiexec did not prove the secret'
    answer = answer or proof(key, 3, 1, 0, nonce, ch[:32])
    s.sendall(record(21, answer))
    s.settimeout(5)
    assert s.recv(64) == b'', 'mpiexec accepted the connection'
    s.close()
    return nonce, answer
attempt(bytes(32))                        # wrong secret
captured = attempt(secret)                # right, but node 1 is there: a duplicate
attempt(None, *captured)                  # the same greeting, the captured answer
s = socket.create_connection(('127.0.0.1', port), timeout=5)
s.sendall(b'GET / HTTP/1.0\r\n\r\n')      # not the protocol at all
s.settimeout(5)
assert s.recv(64) == b''
PY
touch "$go"
wait $job
RC=$?
expect_rc 0
n=$(grep -Ec 'dropped control connection from 127\.0\.0\.1:[0-9]+: wrong job secret' "$ERR")
[ "$n" = 2 ] || { show; fail "expected 2 connections dropped for a wrong secret (one a replay), got $n"; }
expect_err 'dropped control connection from 127\.0\.0\.1:[0-9]+: unknown or duplicate node index'
expect_err 'dropped control connection from 127\.0\.0\.1:[0-9]+: not a Shoal node process'
expect_out_count '^rank [01] done$' 2
# The secret (64 hex digits) is on no command line.
echo "$args" | grep -Eq '[0-9a-f]{64}' && fail "a secret-like word on the command line: $args"
exit 0
