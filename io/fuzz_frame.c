/* libFuzzer target for the frame parser (io/frame.c): any bytes, with connection rules also
 * taken from the input, must be judged without reading out of bounds, and a header judged
 * valid must encode back to the very bytes it came from.
 * Entered by libFuzzer's driver thread only. Built by tests/fuzz_targets_run_clean.sh and
 * `make fuzz`, never linked into libmpi.so; must not keep state between inputs. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/frame.h"

/* Ranks of the fuzzed job: enough for every node index a byte can pick to own some. */
#define FUZZ_WORLD 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same(const struct shl_io_frame *a, const struct shl_io_frame *b)
{
	return a->type == b->type && a->flags == b->flags && a->src == b->src &&
	       a->dst == b->dst && a->context == b->context && a->tag == b->tag &&
	       a->length == b->length && a->cookie == b->cookie;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t node_of[FUZZ_WORLD];
	struct shl_io_frame_rules rules = { .node_of = node_of, .eager_max = SHL_IO_EAGER_MAX };
	struct shl_io_frame f, back;
	unsigned char again[SHL_IO_FRAME_HEADER];
	uint64_t value;
	int err;

	if (size < 3)
		return 0;
	/* First bytes: world size (1..16), sender node, receiver node (0..3); rank r lives on
	 * node r % 4, so some ranks are unknown to either end. */
	rules.world_size = 1 + data[0] % FUZZ_WORLD;
	rules.from_node = data[1] % 4;
	rules.to_node = data[2] % 4;
	for (int r = 0; r < FUZZ_WORLD; r++)
		node_of[r] = (uint32_t)r % 4;
	data += 3;
	size -= 3;

	/* An exact-size copy, so AddressSanitizer catches a read one byte too far. */
	unsigned char *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	err = shl_io_frame_decode(buf, size, &rules, &f);
	if (err == 0) {
		shl_io_frame_encode(&f, again);
		if (memcmp(again, buf, SHL_IO_FRAME_HEADER) != 0)
			abort();
		if (shl_io_frame_decode(again, sizeof(again), &rules, &back) != 0 ||
		    !same(&back, &f))
			abort();
		if ((f.type == SHL_IO_RTS || f.type == SHL_IO_CTS) &&
		    size >= SHL_IO_FRAME_HEADER + 8)
			shl_io_frame_decode_size(&f, buf + SHL_IO_FRAME_HEADER, &value);
	} else if (size >= SHL_IO_FRAME_HEADER && err == -EAGAIN) {
		abort();  /* a whole header must be judged */
	}
	(void)shl_io_frame_error(err);
	free(buf);
	return 0;
}
