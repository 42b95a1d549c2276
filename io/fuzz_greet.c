/* libFuzzer target for the mesh greeting (io/conn.c, shl_mesh_greet): a node with any index
 * of a four-node job, all at start or lazy, meets a peer that sends any hello, proof or
 * challenge — the right one computed with the job secret (so the fuzzer reaches the
 * authenticated end), one computed with a wrong key, role or node indices, or raw bytes.
 * The node must take exactly the right ones: a greeting it accepts must claim a node that
 * may connect, its own challenge and answer must prove the secret, and an answer it takes
 * must be the right one; a connection it authenticates speaks for the node it claimed.
 * Entered by libFuzzer's driver thread only. Built by `make fuzz` and
 * tests/fuzz_targets_run_clean.sh, never linked into libmpi.so. io/conn.c is compiled in
 * whole; the mesh calls it makes outside the greeting do nothing here (no frame is queued
 * and no connection armed in a greeting), and a socket pair stands for the connection. No state
 * crosses inputs: the mesh's state is reset and the connection freed each time. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "io/conn.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct shl_mesh io;

#define NODES 4
#define WORLD 8

static const uint32_t node_of[WORLD] = { 0, 1, 2, 3, 0, 1, 2, 3 };
static const unsigned char secret[SHL_IO_CTL_SECRET] = "the job secret of the fuzzed job";

/* ---- the mesh calls of io/conn.c that a greeting does not need: they do nothing ---- */

void shl_mesh_report(const struct conn *c, const char *fmt, ...)
{
}

_Noreturn void shl_mesh_die(const char *fmt, ...)
{
	abort();  /* only a failing libcrypto or getrandom gets here */
}

_Noreturn void shl_mesh_die_peer_gone(const char *fmt, ...)
{
	abort();  /* nothing is queued for any node */
}

void shl_mesh_arm(struct conn *c)
{
}

void shl_mesh_flush(uint32_t n)
{
}

void shl_proto_abort(const struct shl_io_frame *f, struct shl_io_sink *s)
{
}

/* ---- the input ---- */

static const uint8_t *in;
static size_t left;

static uint8_t byte(void)
{
	if (left == 0)
		return 0;
	left--;
	return *in++;
}

static void take(unsigned char *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = byte();
}

/* The answer of `role` for (a, b) and the nonces as the peer sends it: right, or made
 * with a wrong key, role, node index or nonce, or raw bytes. Returns whether it is right. */
static bool answer(enum shl_io_auth_role role, uint32_t a, uint32_t b,
		   const unsigned char *first, const unsigned char *second, unsigned char *out)
{
	unsigned char key[SHL_IO_CTL_SECRET], other[SHL_IO_AUTH_NONCE];
	uint8_t how = byte();

	memcpy(key, secret, sizeof(key));
	memcpy(other, second, sizeof(other));
	switch (how % 8) {
	case 0:
		take(out, SHL_IO_AUTH_PROOF);
		return false;
	case 1:
		key[byte() % sizeof(key)] ^= 1 + byte() % 255;
		break;
	case 2:
		role = role == SHL_IO_AUTH_MESH_DIAL ? SHL_IO_AUTH_MESH_ACCEPT
						      : SHL_IO_AUTH_MESH_DIAL;
		break;
	case 3:
		a ^= 1 + byte() % 3;
		break;
	case 4:
		other[byte() % sizeof(other)] ^= 1;
		break;
	default:
		if (shl_io_auth_proof(key, role, a, b, first, second, out) < 0)
			abort();
		return true;
	}
	if (shl_io_auth_proof(key, role, a, b, first, other, out) < 0)
		abort();
	return false;
}

/* Read exactly `n` bytes the node wrote to the peer's end. */
static void from_node(int fd, unsigned char *out, size_t n)
{
	if (read(fd, out, n) != (ssize_t)n)
		abort();
}

/* The node accepted the connection: the peer's hello, the node's challenge, the peer's
 * answer. */
static void accepting(struct conn *c, int peer)
{
	unsigned char hello[SHL_IO_HELLO_BYTES], challenge[SHL_IO_CHALLENGE_BYTES];
	unsigned char proof[SHL_IO_AUTH_PROOF];
	uint32_t claim;
	bool right;

	if (byte() < 32) {
		take(hello, sizeof(hello));
	} else {
		shl_io_ctl_put32(hello, SHL_IO_HELLO_MAGIC);
		shl_io_ctl_put32(hello + 4, byte() < 8 ? byte() : SHL_IO_HELLO_VERSION);
		uint8_t b = byte();
		shl_io_ctl_put32(hello + 8, b < 240 ? b % (NODES + 1) : (uint32_t)b << 24);
		take(hello + 12, SHL_IO_AUTH_NONCE);
	}
	claim = shl_io_ctl_get32(hello + 8);
	c->in = IN_HELLO;
	memcpy(c->hdr, hello, sizeof(hello));
	if (shl_mesh_greet(c) < 0)
		return;
	if (shl_io_ctl_get32(hello) != SHL_IO_HELLO_MAGIC ||
	    shl_io_ctl_get32(hello + 4) != SHL_IO_HELLO_VERSION || claim >= NODES ||
	    claim == io.node || (!io.lazy && claim > io.node) || c->in != IN_PROOF)
		abort();  /* a greeting the node must refuse */
	from_node(peer, challenge, sizeof(challenge));
	if (shl_io_ctl_get32(challenge) != SHL_IO_HELLO_MAGIC ||
	    !shl_io_auth_check(secret, SHL_IO_AUTH_MESH_ACCEPT, claim, io.node, hello + 12,
			       challenge + 4, challenge + 4 + SHL_IO_AUTH_NONCE))
		abort();  /* the node did not prove the secret */
	right = answer(SHL_IO_AUTH_MESH_DIAL, claim, io.node, hello + 12, challenge + 4, proof);
	c->in = IN_PROOF;
	memcpy(c->hdr, proof, sizeof(proof));
	if (shl_mesh_greet(c) < 0) {
		if (right)
			abort();  /* the right answer refused */
		return;
	}
	if (!right || !c->authed || c->node != claim || c->rules.from_node != claim ||
	    c->rules.to_node != io.node || c->in != IN_HEADER || io.peers[claim].out != c)
		abort();
}

/* The node called node `n`: its hello went out; the peer's challenge, the node's answer. */
static void dialing(struct conn *c, int peer)
{
	uint32_t n = (io.node + 1 + byte() % (NODES - 1)) % NODES;
	unsigned char challenge[SHL_IO_CHALLENGE_BYTES], proof[SHL_IO_AUTH_PROOF];
	bool right;

	c->dialed = true;
	c->claimed = n;
	take(c->nonces, SHL_IO_AUTH_NONCE);
	if (byte() < 16) {
		take(challenge, sizeof(challenge));
		right = false;
	} else {
		shl_io_ctl_put32(challenge, SHL_IO_HELLO_MAGIC);
		take(challenge + 4, SHL_IO_AUTH_NONCE);
		right = answer(SHL_IO_AUTH_MESH_ACCEPT, io.node, n, c->nonces, challenge + 4,
			       challenge + 4 + SHL_IO_AUTH_NONCE);
	}
	c->in = IN_CHALLENGE;
	memcpy(c->hdr, challenge, sizeof(challenge));
	if (shl_mesh_greet(c) < 0) {
		if (right)
			abort();
		return;
	}
	if (!right || !c->authed || c->node != n || io.peers[n].out != c)
		abort();
	memcpy(c->nonces + SHL_IO_AUTH_NONCE, challenge + 4, SHL_IO_AUTH_NONCE);
	from_node(peer, proof, sizeof(proof));
	if (!shl_io_auth_check(secret, SHL_IO_AUTH_MESH_DIAL, io.node, n, c->nonces,
			       challenge + 4, proof))
		abort();  /* the node's answer does not prove the secret */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct peer peers[NODES];
	struct conn *c;
	int sp[2];
	uint8_t setup;

	in = data;
	left = size;
	setup = byte();
	memset(&io, 0, sizeof(io));
	memset(peers, 0, sizeof(peers));
	io.node = setup % NODES;
	io.nnodes = NODES;
	io.world_size = WORLD;
	io.node_of = (uint32_t *)node_of;
	io.lazy = setup & 4;
	io.peers = peers;
	io.ep = -1;
	memcpy(io.secret, secret, sizeof(secret));
	snprintf(io.host, sizeof(io.host), "fuzz");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) < 0)
		abort();
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		abort();
	c->fd = sp[0];
	snprintf(c->name, sizeof(c->name), "peer");
	if (setup & 8)
		dialing(c, sp[1]);
	else
		accepting(c, sp[1]);
	close(sp[0]);
	close(sp[1]);
	free(c);
	return 0;
}
