/* libFuzzer target for the control channel's records (io/ctl.c): any bytes, taken as the
 * stream a node or mpiexec reads, are cut into records as its reader cuts them — whole, or
 * arriving in pieces of sizes the input chooses, the record boundaries found again after
 * each read. Both ways must give the same records and stop at the same bad length, no
 * record may reach beyond the bytes read, and each record sent again with
 * shl_io_ctl_send must come out as the very bytes it was read from.
 * Entered by libFuzzer's driver thread only. Built by `make fuzz` and
 * tests/fuzz_targets_run_clean.sh, never linked into libmpi.so; no state crosses inputs. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "io/ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records compared: beyond this many, the input is judged by its first ones only. */
#define RECORDS 256

struct record {
	uint8_t type;
	size_t off, len;             /* the body: offset in the stream, bytes */
};

/* Cut `buf` (len bytes, a stream from its start) into at most `max` records. Returns how
 * many; *bad tells whether a bad length stopped the stream after them. */
static int cut(const unsigned char *buf, size_t len, struct record *out, int max, bool *bad)
{
	int n = 0;
	size_t off = 0;

	*bad = false;
	while (n < max) {
		uint8_t type;
		const unsigned char *body;
		size_t blen;
		long used = shl_io_ctl_take(buf + off, len - off, &type, &body, &blen);
		if (used < 0) {
			*bad = true;
			break;
		}
		if (used == 0)
			break;
		if ((size_t)used > len - off || body < buf + off + SHL_IO_CTL_HEADER ||
		    body + blen != buf + off + used)
			abort();  /* a record beyond the bytes read, or not where its header says */
		out[n++] = (struct record){ type, (size_t)(body - buf), blen };
		off += (size_t)used;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct record whole[RECORDS], piecewise[RECORDS];
	const unsigned char *stream;
	unsigned char *buf;
	size_t len, have = 0, done = 0;
	uint8_t seed;
	int n, m = 0;
	bool bad_whole, bad = false;

	if (size < 1)
		return 0;
	seed = data[0];
	stream = data + 1;
	len = size - 1;
	n = cut(stream, len, whole, RECORDS, &bad_whole);

	/* The same stream read in pieces of 1 to 64 bytes, into an exact-size buffer (so
	 * AddressSanitizer sees a read one byte too far), the records taken after each read
	 * and the rest moved to the front, as the readers do. */
	buf = malloc(len ? len : 1);
	if (buf == NULL)
		return 0;
	for (size_t at = 0; at < len && !bad && m < RECORDS;) {
		size_t piece = 1 + (seed = (uint8_t)(seed * 33 + 7)) % 64;
		if (piece > len - at)
			piece = len - at;
		memcpy(buf + have, stream + at, piece);
		have += piece;
		at += piece;
		for (;;) {
			struct record r[1];
			size_t used;
			/* The reader takes them one at a time. */
			if (cut(buf, have, r, 1, &bad) == 0)
				break;
			used = r[0].off + r[0].len;
			piecewise[m++] = (struct record){ r[0].type, done + r[0].off, r[0].len };
			memmove(buf, buf + used, have - used);
			have -= used;
			done += used;
			if (m == RECORDS)
				break;
		}
	}
	free(buf);
	if (n < RECORDS && (m != n || bad != bad_whole))
		abort();
	for (int i = 0; i < m && i < n; i++)
		if (whole[i].type != piecewise[i].type || whole[i].off != piecewise[i].off ||
		    whole[i].len != piecewise[i].len)
			abort();

	/* Each record sent again is the bytes it came from. */
	int sp[2];
	if (n == 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) < 0)
		return 0;
	for (int i = 0; i < n && i < 16; i++) {
		unsigned char back[SHL_IO_CTL_HEADER + 4096];
		size_t want = SHL_IO_CTL_HEADER + whole[i].len;
		if (whole[i].len > 4096)
			continue;
		if (shl_io_ctl_send(sp[0], whole[i].type, stream + whole[i].off, whole[i].len) != 0)
			abort();
		for (size_t got = 0; got < want;) {
			ssize_t r = read(sp[1], back + got, want - got);
			if (r <= 0)
				abort();
			got += (size_t)r;
		}
		if (memcmp(back, stream + whole[i].off - SHL_IO_CTL_HEADER, want) != 0)
			abort();
	}
	close(sp[0]);
	close(sp[1]);
	return 0;
}
