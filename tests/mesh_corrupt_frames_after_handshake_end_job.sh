#!/bin/bash
# mesh_corrupt_frames_after_handshake_end_job: on 2 hosts (network namespaces), a connection that proves the job secret and then sends a frame the receiving node could not have asked for (a CANCEL of a message never sent, a CANCELLED for a send that never asked to cancel, an EAGER with a negative tag or one over MPI_TAG_UB, a CANCEL on an internal context, an EAGER on the internal context of no communicator, an RTS reusing a cookie, more unanswered RTS than SHOAL_RTS_MAX) ends the job with a non-zero status and a message naming the sending address; a CANCEL of a message already matched (the legal race of a cancel with its receive) does not: the job ends normally.
# timeout: 240
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"
command -v python3 >/dev/null || skip "no python3"

# Rank 0 sends rank 1 a synchronous message (an RTS, matched: node 0's first RTS); rank 1
# starts a synchronous send to rank 0 (node 1's RTS of cookie 2: its first id went to the
# CTS of the first message), not received yet, and leaves the file argv[1].matched; both
# then wait for argv[1], rank 0 receives that send and they exchange once more.
build wait_go <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v = -1, w = 7, flag;
	char mark[4096];
	MPI_Request rq;
	MPI_Status st;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		v = 42;
		MPI_Ssend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Issend(&w, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &rq);
		snprintf(mark, sizeof(mark), "%s.matched", argv[1]);
		fclose(fopen(mark, "w"));
	}
	while (access(argv[1], F_OK) != 0)
		usleep(20000);
	if (rank == 0) {
		MPI_Recv(&w, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
	} else {
		MPI_Wait(&rq, &st);
		MPI_Test_cancelled(&st, &flag);
		if (flag) {  /* never asked: a stand-in, so that rank 0 ends */
			printf("rank 1: its send was cancelled by a CANCELLED it never asked for\n");
			MPI_Send(&w, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
		}
		MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	printf("rank %d got %d\n", rank, v);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
netns_secret_agent
h2=${NS_HOSTS[1]}
addr=$NS_NET.3  # the second host (netns.bash: host i has .(i+1))

# inject CASE: greet node 1 as node 0 with the secret, then send CASE's frames.
inject() {
	ip netns exec "$NS_HEAD" python3 - "$addr" "$port" "$(cat "$TEST_TMP/secret")" "$1" <<'PY'
import hashlib, hmac, os, socket, struct, sys
addr, port, secret, case = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3]), sys.argv[4]
def proof(key, role, a, b, first, second):
    # io/auth.c: HMAC-SHA256 over "SHLA", role, both node indices and both nonces.
    msg = struct.pack('<IIII', 0x414c4853, role, a, b) + first + second
    return hmac.new(key, msg, hashlib.sha256).digest()
def frame(type, src, dst, context, tag, length, cookie, payload=b''):
    return struct.pack('<IBBHiiIiQQ', 0x464c4853, 1, type, 0, src, dst, context, tag, length,
                       cookie) + payload
EAGER, RTS, CANCEL, CANCELLED = 1, 2, 5, 6
INTERNAL = 0x80000000
rts = lambda cookie: frame(RTS, 0, 1, 0, 77, 8, cookie, struct.pack('<Q', 100000))
frames = {
    'legal-cancel': frame(CANCEL, 0, 1, 0, 0, 0, 1),     # node 0's first RTS, matched
    'unknown-cancel': frame(CANCEL, 0, 1, 0, 0, 0, 1 << 40),
    'negative-tag': frame(EAGER, 0, 1, 0, -5, 4, 0, b'abcd'),
    'tag-over-ub': frame(EAGER, 0, 1, 0, 0x40000000, 4, 0, b'abcd'),
    'unasked-cancelled': frame(CANCELLED, 0, 1, 0, 0, 0, 2),  # node 1's RTS, waiting
    'internal-cancel': frame(CANCEL, 0, 1, INTERNAL, 0, 0, 1),
    'internal-unknown': frame(EAGER, 0, 1, INTERNAL | 12345, 8, 4, 0, b'abcd'),
    'rts-cookie-reused': rts(1 << 41) + rts(1 << 41),
    'rts-flood': b''.join(rts((1 << 42) + i) for i in range(9)),  # SHOAL_RTS_MAX=8
}[case]
nonce = os.urandom(32)
s = socket.create_connection((addr, port), timeout=10)
s.sendall(struct.pack('<III', 0x4d4c4853, 2, 0) + nonce)
ch = b''
while len(ch) < 68:
    more = s.recv(68 - len(ch))
    assert more, 'closed before the challenge'
    ch += more
s.sendall(proof(secret, 1, 0, 1, nonce, ch[4:36]) + frames)
try:
    s.settimeout(5)
    s.recv(64)
except OSError:
    pass
s.close()
PY
}

# job CASE [ENV...]: run the job, inject CASE once rank 1 has matched; the job ends by
# itself (a corrupt frame) or, 20 s later, when told to go on (RC 0).
job() {
	local case=$1
	shift
	go=$TEST_TMP/go.$case
	rm -f "$TEST_TMP/secret"
	env "$@" ip netns exec "$NS_HEAD" "$MPIEXEC" --launcher-agent "$TEST_TMP/agent" \
		--control-addr "$NS_NET.1" -H "$(netns_hosts)" "$TEST_TMP/wait_go" "$go" \
		>"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	port=
	for _ in $(seq 600); do
		port=$(ip netns exec "$h2" ss -Hltn 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }' | head -n 1)
		[ -n "$port" ] && [ -s "$TEST_TMP/secret" ] && [ -e "$go.matched" ] && break
		sleep 0.1
	done
	[ -n "$port" ] && [ -e "$go.matched" ] || { touch "$go"; await_exit $pid "job of $case"; show; fail "$case: the job never got going"; }
	inject "$case" || { touch "$go"; await_exit $pid "job of $case"; fail "$case: injection failed"; }
	for _ in $(seq 200); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	touch "$go"
	await_exit $pid "job of $case"
}

# corrupt CASE WHY [ENV...]: the job ends non-zero, node 1 naming the forged connection.
corrupt() {
	local case=$1 why=$2
	shift 2
	job "$case" "$@"
	[ "$RC" != 0 ] || { show; fail "$case: the job went on after the corrupt frame"; }
	grep -Eq "node 1 \(host [^)]*\): node 0 \($NS_NET\.1:[0-9]+\) sent a corrupt frame: $why" "$ERR" ||
		{ show; fail "$case: no report naming the sender and /$why/"; }
	echo "$case: $(grep -E 'sent a corrupt frame' "$ERR" | head -n 1)"
}

job legal-cancel
expect_rc 0
expect_out '^rank 1 got 42$'
grep -q 'corrupt' "$ERR" && { show; fail "legal-cancel: a CANCEL that lost its race was taken for corrupt"; }
corrupt unknown-cancel 'CANCEL of a message its node never sent here'
corrupt negative-tag 'bad frame header: a tag, context or cookie its type cannot carry'
corrupt tag-over-ub 'bad frame header: a tag, context or cookie its type cannot carry'
corrupt unasked-cancelled 'CANCELLED for no send that asked to cancel'
corrupt internal-cancel 'bad frame header: a tag, context or cookie its type cannot carry'
corrupt internal-unknown 'frame for context 2147495993, which spans no nodes'
corrupt rts-cookie-reused 'RTS with cookie [0-9]+, not above its node.s last'
corrupt rts-flood 'more than 8 rendezvous requests unanswered \(SHOAL_RTS_MAX\)' SHOAL_RTS_MAX=8
exit 0
