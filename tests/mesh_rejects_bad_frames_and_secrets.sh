#!/bin/bash
# mesh_rejects_bad_frames_and_secrets: on 2 hosts (network namespaces), a node's mesh port answers a greeting with a challenge that proves the job secret, and drops and logs connections that answer its challenge with a wrong secret, that replay an answer captured from an earlier connection (with a frame behind it, which must never be read), or that do not finish their greeting within 10 s; and the job still ends normally with its messages delivered. (A frame that breaks the protocol after a proven secret ends the job: mesh_corrupt_frames_after_handshake_end_job.)
# timeout: 90
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
command -v python3 >/dev/null || skip "no python3"

build wait_go <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v = -1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1) {
		while (access(argv[1], F_OK) != 0)
			usleep(20000);
		v = 42;
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	}
	printf("rank %d got %d\n", rank, v);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
netns_secret_agent

go=$TEST_TMP/go
ip netns exec "$NS_HEAD" "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" --control-addr "$NS_NET.1" \
	-H "$(netns_hosts)" "$TEST_TMP/wait_go" "$go" >"$OUT" 2>"$ERR" </dev/null &
job=$!
trap 'touch "$go"; kill $job 2>/dev/null; netns_down' EXIT
h2=${NS_HOSTS[1]}
port=
for i in $(seq 600); do
	port=$(ip netns exec "$h2" ss -Hltn 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }' | head -n 1)
	[ -n "$port" ] && [ -s "$TEST_TMP/secret" ] && break
	sleep 0.1
done
[ -n "$port" ] || { touch "$go"; wait $job; RC=$?; show; fail "no mesh listener in $h2"; }
addr=$NS_NET.3  # the second host (netns.bash: host i has .(i+1))

ip netns exec "$NS_HEAD" python3 - "$addr" "$port" "$(cat "$TEST_TMP/secret")" <<'PY' || fail "injection failed"
import hashlib, hmac, os, socket, struct, sys, time
addr, port, secret = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
def proof(key, role, a, b, first, second):
    # io/auth.c: HMAC-SHA256 over "SHLA", role, both node indices and both nonces.
    msg = struct.pack('<IIII', 0x414c4853, role, a, b) + first + second
    return hmac.new(key, msg, hashlib.sha256).digest()
def frame(version, src, dst):
    # magic, version, type EAGER, flags, src, dst, context, tag, length, cookie
    return struct.pack('<IBBHiiIiQQ', 0x464c4853, version, 1, 0, src, dst, 0, 0, 4, 0)
def recv_exact(s, n):
    b = b''
    while len(b) < n:
        more = s.recv(n - len(b))
        assert more, 'closed before the challenge'
        b += more
    return b
def send(key, then=b'', nonce=None, answer=None):
    """Greet node 1 as node 0 (with `nonce`), check its challenge proves the secret, answer
    it with `key` (or with `answer`, as a replay), send `then`; wait for the close."""
    nonce = nonce or os.urandom(32)
    s = socket.create_connection((addr, port), timeout=5)
    s.sendall(struct.pack('<III', 0x4d4c4853, 2, 0) + nonce)
    ch = recv_exact(s, 68)
    assert ch[:4] == b'SHLM', 'not a challenge: %r' % ch[:4]
    assert secret not in ch, 'the secret was sent in clear'
    assert hmac.compare_digest(ch[36:], proof(secret, 2, 0, 1, nonce, ch[4:36])), \
        'the node did not prove the secret'
    answer = answer or proof(key, 1, 0, 1, nonce, ch[4:36])
    s.sendall(answer + then)
    try:
        s.settimeout(5)
        while s.recv(64):   # the node closes the connection
            pass
    except OSError:
        pass
    s.close()
    return nonce, answer
silent = socket.create_connection((addr, port), timeout=5)
silent.sendall(b'SHL')                             # a greeting that never ends
send(bytes(32))                                    # wrong secret
captured = send(secret)                            # a proven secret, no frame
# A replay: the same greeting and the answer that was right for the earlier challenge.
send(None, frame(9, 0, 1), nonce=captured[0], answer=captured[1])
silent.settimeout(20)
t = time.time()
assert silent.recv(64) == b'', 'the silent connection got data'
print('silent connection closed after %.1f s' % (time.time() - t))
PY
touch "$go"
wait $job
RC=$?
expect_rc 0
expect_out '^rank 0 got 42$'
expect_out '^rank 1 got 42$'
n=$(grep -Ec 'mesh connection from .*: dropped: wrong job secret' "$ERR")
[ "$n" = 2 ] || { show; fail "expected 2 connections dropped for a wrong secret (one a replay), got $n"; }
grep -q 'corrupt frame' "$ERR" && { show; fail "the replay's frame was read"; }
expect_err 'mesh connection from .*: dropped: no greeting within 10 s'
exit 0
