/* Frame headers on the wire (io/frame.h): little-endian encoding and the validation of
 * every received header against the rules of its connection.
 * Entered by any thread; pure functions, no state.
 * Must not trust a field before checking it, nor touch memory beyond the given buffer. */
#include <errno.h>

#include "io/frame.h"

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Header layout, offsets in bytes (docs/offnode.md, "Data frames"). */
enum {
	OFF_MAGIC = 0, OFF_VERSION = 4, OFF_TYPE = 5, OFF_FLAGS = 6, OFF_SRC = 8, OFF_DST = 12,
	OFF_CONTEXT = 16, OFF_TAG = 20, OFF_LENGTH = 24, OFF_COOKIE = 32,
};
_Static_assert(OFF_COOKIE + 8 == SHL_IO_FRAME_HEADER, "header fields fill the header");

void shl_io_frame_encode(const struct shl_io_frame *f, unsigned char *out)
{
	put32(out + OFF_MAGIC, SHL_IO_FRAME_MAGIC);
	out[OFF_VERSION] = SHL_IO_FRAME_VERSION;
	out[OFF_TYPE] = f->type;
	put16(out + OFF_FLAGS, f->flags);
	put32(out + OFF_SRC, (uint32_t)f->src);
	put32(out + OFF_DST, (uint32_t)f->dst);
	put32(out + OFF_CONTEXT, f->context);
	put32(out + OFF_TAG, (uint32_t)f->tag);
	put64(out + OFF_LENGTH, f->length);
	put64(out + OFF_COOKIE, f->cookie);
}

/* Whether `rank` is a world rank living on `node`. */
static bool on_node(const struct shl_io_frame_rules *rules, int32_t rank, uint32_t node)
{
	return rank >= 0 && rank < rules->world_size && rules->node_of[rank] == node;
}

/* The payload length the type allows: exact for RTS and CTS, a maximum for the others. */
static bool length_ok(const struct shl_io_frame_rules *rules, const struct shl_io_frame *f)
{
	switch (f->type) {
	case SHL_IO_EAGER:
		return f->length <= rules->eager_max && f->length <= SHL_IO_EAGER_MAX;
	case SHL_IO_RTS:
	case SHL_IO_CTS:
		return f->length == 8;
	case SHL_IO_DATA:
		return f->length > 0 && f->length <= SHL_IO_CHUNK_MAX;
	case SHL_IO_CANCEL:
	case SHL_IO_CANCELLED:
		return f->length == 0;
	}
	return false;
}

/* The fields the type gives a meaning to, beyond its length: tags of messages, contexts of
 * cancels, cookies of the rendezvous frames. */
static bool fields_ok(const struct shl_io_frame *f)
{
	bool internal = f->context & SHL_IO_CONTEXT_INTERNAL;

	switch (f->type) {
	case SHL_IO_EAGER:
		return f->tag >= 0 && (internal || f->tag <= SHL_IO_TAG_MAX);
	case SHL_IO_RTS:
		return f->tag >= 0 && (internal || f->tag <= SHL_IO_TAG_MAX) && f->cookie != 0;
	case SHL_IO_CANCEL:
	case SHL_IO_CANCELLED:
		return !internal && f->cookie != 0;
	}
	return f->cookie != 0;  /* CTS, DATA */
}

int shl_io_frame_decode(const unsigned char *buf, size_t len,
			const struct shl_io_frame_rules *rules, struct shl_io_frame *f)
{
	if (len < SHL_IO_FRAME_HEADER)
		return -EAGAIN;
	f->type = buf[OFF_TYPE];
	f->flags = get16(buf + OFF_FLAGS);
	f->src = (int32_t)get32(buf + OFF_SRC);
	f->dst = (int32_t)get32(buf + OFF_DST);
	f->context = get32(buf + OFF_CONTEXT);
	f->tag = (int32_t)get32(buf + OFF_TAG);
	f->length = get64(buf + OFF_LENGTH);
	f->cookie = get64(buf + OFF_COOKIE);
	if (get32(buf + OFF_MAGIC) != SHL_IO_FRAME_MAGIC)
		return -EPROTO;
	if (buf[OFF_VERSION] != SHL_IO_FRAME_VERSION)
		return -EPROTONOSUPPORT;
	if (f->type < SHL_IO_EAGER || f->type > SHL_IO_CANCELLED || f->flags != 0)
		return -EPROTO;
	if (!length_ok(rules, f))
		return -EMSGSIZE;
	if (!on_node(rules, f->src, rules->from_node) || !on_node(rules, f->dst, rules->to_node))
		return -ENXIO;
	if (!fields_ok(f))
		return -EBADMSG;
	return 0;
}

void shl_io_frame_encode_size(uint64_t value, unsigned char *out)
{
	put64(out, value);
}

int shl_io_frame_decode_size(const struct shl_io_frame *f, const unsigned char *payload,
			     uint64_t *value)
{
	*value = get64(payload);
	if (f->type == SHL_IO_RTS && *value > SHL_IO_MESSAGE_MAX)
		return -EMSGSIZE;
	return 0;
}

const char *shl_io_frame_error(int err)
{
	switch (err) {
	case 0:
		return "valid frame";
	case -EAGAIN:
		return "incomplete header";
	case -EPROTO:
		return "not a Shoal frame (bad magic, unknown type or flags)";
	case -EPROTONOSUPPORT:
		return "wrong protocol version";
	case -EMSGSIZE:
		return "impossible payload size";
	case -ENXIO:
		return "unknown source or destination rank";
	case -EBADMSG:
		return "a tag, context or cookie its type cannot carry";
	}
	return "unknown error";
}
