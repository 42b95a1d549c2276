/* HMAC-SHA256 answers to nonces (io/auth.h), on OpenSSL's libcrypto.
 * Entered by any thread: mpiexec's, a node proxy's, a node's main and completion threads.
 * Must not keep state between calls nor log the secret or an answer. */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "io/auth.h"
#include "io/ctl.h"

int shl_io_auth_nonce(unsigned char *nonce)
{
	size_t got = 0;

	while (got < SHL_IO_AUTH_NONCE) {
		ssize_t n = getrandom(nonce + got, SHL_IO_AUTH_NONCE - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
	}
	return 0;
}

int shl_io_auth_proof(const unsigned char *secret, enum shl_io_auth_role role, uint32_t a,
		      uint32_t b, const unsigned char *nonce_first,
		      const unsigned char *nonce_second, unsigned char *proof)
{
	/* "SHLA", role, a, b (little-endian u32 each), then the nonces. */
	unsigned char msg[16 + 2 * SHL_IO_AUTH_NONCE];
	unsigned int len = 0;

	shl_io_ctl_put32(msg, 0x414c4853u);
	shl_io_ctl_put32(msg + 4, (uint32_t)role);
	shl_io_ctl_put32(msg + 8, a);
	shl_io_ctl_put32(msg + 12, b);
	memcpy(msg + 16, nonce_first, SHL_IO_AUTH_NONCE);
	memcpy(msg + 16 + SHL_IO_AUTH_NONCE, nonce_second, SHL_IO_AUTH_NONCE);
	if (HMAC(EVP_sha256(), secret, SHL_IO_CTL_SECRET, msg, sizeof(msg), proof, &len) == NULL ||
	    len != SHL_IO_AUTH_PROOF)
		return -EIO;
	return 0;
}

bool shl_io_auth_check(const unsigned char *secret, enum shl_io_auth_role role, uint32_t a,
		       uint32_t b, const unsigned char *nonce_first,
		       const unsigned char *nonce_second, const unsigned char *answer)
{
	unsigned char want[SHL_IO_AUTH_PROOF];
	bool ok;

	if (shl_io_auth_proof(secret, role, a, b, nonce_first, nonce_second, want) < 0)
		return false;
	ok = CRYPTO_memcmp(want, answer, SHL_IO_AUTH_PROOF) == 0;
	OPENSSL_cleanse(want, sizeof(want));
	return ok;
}
