/* Proving the job secret without sending it: each side of a mesh or control connection
 * sends a fresh nonce and answers the other's with HMAC-SHA256 (OpenSSL's libcrypto).
 * Entered by any thread (pure functions but for getrandom; no shared state). Must not put
 * the secret, or anything from which it can be computed short of breaking HMAC, on a wire. */
#ifndef SHL_IO_AUTH_H
#define SHL_IO_AUTH_H

#include <stdbool.h>
#include <stdint.h>

#define SHL_IO_AUTH_NONCE 32  /* bytes of a nonce: 256 bits, never repeated in practice */
#define SHL_IO_AUTH_PROOF 32  /* bytes of an answer: HMAC-SHA256 */

/* Who answers: a label per role, so that an answer can never be reflected back as the
 * other side's (docs/offnode.md, "Proving the secret"). */
enum shl_io_auth_role {
	SHL_IO_AUTH_MESH_DIAL = 1,    /* the node that connected, on the mesh */
	SHL_IO_AUTH_MESH_ACCEPT = 2,  /* the node that accepted, on the mesh */
	SHL_IO_AUTH_CTL_NODE = 3,     /* a node process, on the control channel */
	SHL_IO_AUTH_CTL_MPIEXEC = 4,  /* mpiexec, on the control channel */
};

/* Any thread: SHL_IO_AUTH_NONCE fresh random bytes into `nonce`. Returns 0 or -errno. */
int shl_io_auth_nonce(unsigned char *nonce);

/* Any thread: the answer of `role` into `proof` (SHL_IO_AUTH_PROOF bytes):
 * HMAC-SHA256 keyed by `secret` (SHL_IO_CTL_SECRET bytes) over the role's label, the two
 * node indices `a` and `b` (what the connection claims to join) and both nonces, the
 * connecting side's first. Returns 0, or -EIO if libcrypto fails. */
int shl_io_auth_proof(const unsigned char *secret, enum shl_io_auth_role role, uint32_t a,
		      uint32_t b, const unsigned char *nonce_first,
		      const unsigned char *nonce_second, unsigned char *proof);

/* Any thread: whether `answer` is the proof of `role` for these nonces (computed as by
 * shl_io_auth_proof and compared in constant time). */
bool shl_io_auth_check(const unsigned char *secret, enum shl_io_auth_role role, uint32_t a,
		       uint32_t b, const unsigned char *nonce_first,
		       const unsigned char *nonce_second, const unsigned char *answer);

#endif
