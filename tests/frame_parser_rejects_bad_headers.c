/* frame_parser_rejects_bad_headers: the off-node frame parser (io/frame.c) accepts a valid
 * header and rejects bad magic, a wrong version, an unknown type or flag, payloads over the
 * limit for their type, source/destination ranks not on the connection's nodes, tags out of
 * range (negative; over MPI_TAG_UB on a user context), a cancel on an internal context and a
 * rendezvous frame without a cookie. */
/* ranks: 1 */
/* The parser is hidden inside libmpi.so, so the test compiles its source in (tests/run puts
 * the repository root on the include path); it is pure code on byte buffers. */
#include <errno.h>
#include "check.h"
#include "io/frame.c"

/* Ranks 0-3: 0 and 2 on node 0, 1 and 3 on node 1. The connection comes from node 1. */
static const uint32_t node_of[4] = { 0, 1, 0, 1 };
static const struct shl_io_frame_rules rules = {
	.world_size = 4, .node_of = node_of, .from_node = 1, .to_node = 0,
	.eager_max = 1024,
};

static struct shl_io_frame good(void)
{
	return (struct shl_io_frame){ .type = SHL_IO_EAGER, .src = 3, .dst = 2, .context = 7,
				      .tag = 99, .length = 1024, .cookie = 5 };
}

/* Encode `f`, let `poke` spoil byte `at` (when at >= 0), and decode with `rules`. */
static int judge(struct shl_io_frame f, int at, unsigned char poke)
{
	unsigned char buf[SHL_IO_FRAME_HEADER];
	struct shl_io_frame out;

	shl_io_frame_encode(&f, buf);
	if (at >= 0)
		buf[at] = poke;
	return shl_io_frame_decode(buf, sizeof(buf), &rules, &out);
}

int main(void)
{
	unsigned char buf[SHL_IO_FRAME_HEADER];
	struct shl_io_frame f = good(), out;
	uint64_t v;

	/* A valid header round-trips. */
	shl_io_frame_encode(&f, buf);
	CHECK_INT(shl_io_frame_decode(buf, sizeof(buf), &rules, &out), 0);
	CHECK_INT(out.src, 3);
	CHECK_INT(out.dst, 2);
	CHECK_INT(out.tag, 99);
	CHECK_INT(out.length, 1024);
	CHECK_INT(out.cookie, 5);
	/* Too few bytes: not judged yet. */
	CHECK_INT(shl_io_frame_decode(buf, SHL_IO_FRAME_HEADER - 1, &rules, &out), -EAGAIN);

	/* Bad magic, version, type, flags. */
	CHECK_INT(judge(good(), 0, 'X'), -EPROTO);
	CHECK_INT(judge(good(), 4, SHL_IO_FRAME_VERSION + 1), -EPROTONOSUPPORT);
	CHECK_INT(judge(good(), 5, 0), -EPROTO);
	CHECK_INT(judge(good(), 5, SHL_IO_CANCELLED + 1), -EPROTO);
	CHECK_INT(judge(good(), 6, 1), -EPROTO);

	/* Sizes: over the connection's eager limit, huge, wrong for RTS/CTS, empty DATA. */
	f = good();
	f.length = 1025;
	CHECK_INT(judge(f, -1, 0), -EMSGSIZE);
	f.length = UINT64_MAX;
	CHECK_INT(judge(f, -1, 0), -EMSGSIZE);
	f.type = SHL_IO_RTS;
	f.length = 16;
	CHECK_INT(judge(f, -1, 0), -EMSGSIZE);
	f.type = SHL_IO_CTS;
	f.length = 0;
	CHECK_INT(judge(f, -1, 0), -EMSGSIZE);
	f.type = SHL_IO_DATA;
	CHECK_INT(judge(f, -1, 0), -EMSGSIZE);
	f.length = SHL_IO_CHUNK_MAX + 1;
	CHECK_INT(judge(f, -1, 0), -EMSGSIZE);
	f.length = SHL_IO_CHUNK_MAX;
	CHECK_INT(judge(f, -1, 0), 0);

	/* An RTS announcing more than any address space holds. */
	f = good();
	f.type = SHL_IO_RTS;
	f.length = 8;
	CHECK_INT(judge(f, -1, 0), 0);
	unsigned char size[8] = { 0, 0, 0, 0, 0, 0x80, 0, 0 };  /* 2^47: the limit */
	CHECK_INT(shl_io_frame_decode_size(&f, size, &v), 0);
	CHECK_INT(v, SHL_IO_MESSAGE_MAX);
	size[0] = 1;
	CHECK_INT(shl_io_frame_decode_size(&f, size, &v), -EMSGSIZE);

	/* Ranks: out of the world, negative, or on the wrong node at either end. */
	int bad_src[] = { 4, -1, INT32_MAX, 0, 2 };  /* 0 and 2 are this node's, not the peer's */
	for (unsigned i = 0; i < sizeof(bad_src) / sizeof(bad_src[0]); i++) {
		f = good();
		f.src = bad_src[i];
		CHECK_INT(judge(f, -1, 0), -ENXIO);
	}
	int bad_dst[] = { 4, -7, 1, 3 };  /* 1 and 3 live on the sending node */
	for (unsigned i = 0; i < sizeof(bad_dst) / sizeof(bad_dst[0]); i++) {
		f = good();
		f.dst = bad_dst[i];
		CHECK_INT(judge(f, -1, 0), -ENXIO);
	}
	/* Tags: 0..SHL_IO_TAG_MAX on a user context, any non-negative one on an internal
	 * context (collectives across nodes); never negative. */
	int32_t tags[] = { -1, INT32_MIN, SHL_IO_TAG_MAX + 1, 0, SHL_IO_TAG_MAX, INT32_MAX };
	for (unsigned i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		for (int internal = 0; internal < 2; internal++) {
			int want = tags[i] < 0 || (!internal && tags[i] > SHL_IO_TAG_MAX)
				   ? -EBADMSG : 0;
			f = good();
			f.tag = tags[i];
			f.context = internal ? 7 | SHL_IO_CONTEXT_INTERNAL : 7;
			CHECK_INT(judge(f, -1, 0), want);
			f.type = SHL_IO_RTS;
			f.length = 8;
			CHECK_INT(judge(f, -1, 0), want);
		}
	}
	/* CANCEL and CANCELLED never carry an internal context; rendezvous frames a cookie. */
	f = good();
	f.type = SHL_IO_CANCEL;
	f.length = 0;
	CHECK_INT(judge(f, -1, 0), 0);
	f.context = SHL_IO_CONTEXT_INTERNAL;
	CHECK_INT(judge(f, -1, 0), -EBADMSG);
	f.type = SHL_IO_CANCELLED;
	CHECK_INT(judge(f, -1, 0), -EBADMSG);
	f.context = 7;
	CHECK_INT(judge(f, -1, 0), 0);
	f.cookie = 0;
	CHECK_INT(judge(f, -1, 0), -EBADMSG);
	f = good();
	f.type = SHL_IO_CTS;
	f.length = 8;
	f.cookie = 0;
	CHECK_INT(judge(f, -1, 0), -EBADMSG);
	f.type = SHL_IO_EAGER;  /* an EAGER's cookie means nothing */
	CHECK_INT(judge(f, -1, 0), 0);
	CHECK_STR(shl_io_frame_error(-EPROTONOSUPPORT), "wrong protocol version");
	return 0;
}
