/* libFuzzer target for the protocol's state machine after the handshake (io/proto.c): one
 * node of a three-node job whose two peers send it any frames, in any order, between the
 * moves of its own ranks (eager and rendezvous sends, cancels, receives matching what
 * arrived) and of its transport (frames written whole, half written, or not yet). Every
 * frame goes through the header checks (io/frame.c) and the protocol's, as on a
 * connection; a frame either is refused (the node would end: the input stops there) or
 * takes effect, and no sequence may read or write out of bounds, complete a request twice,
 * or reach the protocol's own failure (tp->fail: a state it believes impossible).
 * Entered by libFuzzer's driver thread only, which plays the transport's lock holder and
 * every rank. Built by `make fuzz` and tests/fuzz_targets_run_clean.sh, never linked into
 * libmpi.so. io/proto.c and queues/queues.c are compiled into it with their allocations
 * routed to an arena that is emptied before each input: no state crosses inputs. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/fuzz_arena.h"
#include "io/fuzz_transport.h"

#define malloc(n) fuzz_malloc(n)
#define calloc(n, size) fuzz_calloc(n, size)
#define aligned_alloc(align, n) fuzz_malloc(n)
#define free(p) fuzz_free(p)
/* queues.c and proto.c each have a static give_back. */
#define give_back queues_give_back
#include "queues/queues.c"
#undef give_back
#include "io/proto.c"
#undef malloc
#undef calloc
#undef aligned_alloc
#undef free

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- the job: nodes 0 (this one), 1 and 2; rank r lives on node r % 3 ---- */

#define NODES 3
#define WORLD 6
#define FRAME_MAX 1024               /* DATA payload: rendezvous messages of a few frames */
#define EAGER_MAX 512
#define REQS 64
#define HELD 64
#define KNOWN 8

static const uint32_t node_of[WORLD] = { 0, 1, 2, 0, 1, 2 };
static const int32_t locals[] = { 0, 3 }, remotes[] = { 1, 2, 4, 5 };
static unsigned char message[3 * FRAME_MAX + 7];  /* what local ranks send */

/* A request of a local rank: a send, or a rendezvous receive. */
struct req {
	bool used, done, rts, cancelled_asked;
	int32_t src, dst;
	uint32_t context;
};

static struct {
	const uint8_t *in;           /* the input not consumed yet */
	size_t left;
	struct req reqs[REQS];
	struct shl_envelope *held[HELD];  /* delivered to a local rank, not taken yet */
	int32_t held_dst[HELD];
	int nheld;
	/* Per node: the transport's queue (linked by `next`), and whether its head is half
	 * written (then it cannot be taken back). */
	struct shl_io_send *head[NODES], **tail[NODES];
	bool half[NODES];
	/* Values a peer might echo, so that the fuzzer reaches matching frames: cookies of
	 * our RTS, our receive ids, cookies of the RTS that arrived. */
	uint64_t known[KNOWN];
	unsigned nknown;
} h;

static uint8_t byte(void)
{
	if (h.left == 0)
		return 0;
	h.left--;
	return *h.in++;
}

static uint64_t bytes(int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)byte() << (8 * i);
	return v;
}

static void remember(uint64_t v)
{
	h.known[h.nknown++ % KNOWN] = v;
}

static uint64_t a_cookie(void)
{
	uint8_t b = byte();

	if (b < 200 && h.nknown > 0)
		return h.known[b % (h.nknown < KNOWN ? h.nknown : KNOWN)] + (b >= 180);
	return b < 230 ? b % 16 : bytes(8);
}

/* ---- the transport ---- */

static void tp_limits(struct shl_io_limits *out)
{
	*out = (struct shl_io_limits){ .eager_max = EAGER_MAX, .inline_max = EAGER_MAX,
				       .frame_max = FRAME_MAX };
}

static int tp_start(const struct shl_io_config *cfg)
{
	return 0;
}

static void tp_post(struct shl_io_send *d)
{
	shl_proto_take(d);  /* the driver holds the "lock" */
}

static void tp_write(struct shl_io_send *d)
{
	uint32_t n = node_of[d->frame.dst];

	if (n == 0)
		abort();  /* the protocol never writes to its own node */
	if (d->frame.type == SHL_IO_RTS)
		remember(d->frame.cookie);
	if (d->frame.type == SHL_IO_CTS)
		remember(d->rv.id);
	d->next = NULL;
	*h.tail[n] = d;
	h.tail[n] = &d->next;
}

static bool tp_unwrite(struct shl_io_send *d)
{
	uint32_t n = node_of[d->frame.dst];
	struct shl_io_send **link = &h.head[n];

	while (*link != NULL && *link != d)
		link = &(*link)->next;
	if (*link == NULL || (d == h.head[n] && h.half[n]))
		return false;
	*link = d->next;
	if (h.tail[n] == &d->next)
		h.tail[n] = link;
	return true;
}

static const struct shl_tp_ops fuzz_tp = {
	.name = "fuzz", .limits = tp_limits, .start = tp_start, .post = tp_post,
	.write = tp_write, .unwrite = tp_unwrite, .poll = tp_poll, .poll_end = tp_poll_end,
	.fail = tp_fail,
};

/* The head of node n's queue is written whole. */
static void written(uint32_t n)
{
	struct shl_io_send *d = h.head[n];

	if (d == NULL)
		return;
	h.head[n] = d->next;
	if (h.head[n] == NULL)
		h.tail[n] = &h.head[n];
	h.half[n] = false;
	shl_proto_written(d);
}

/* ---- the runtime's hooks ---- */

static struct req *req_of(void *p)
{
	struct req *q = p;

	if (q < h.reqs || q >= h.reqs + REQS || !q->used)
		abort();
	return q;
}

static void complete(void *p)
{
	struct req *q = req_of(p);

	if (q->done)
		abort();  /* completed twice */
	q->done = true;
}

static int hook_deliver(int32_t dst, struct shl_envelope *env)
{
	/* As comm/route.c: contexts 0 and 5 (and their internal twins) span the nodes. */
	if ((env->context & ~SHL_IO_CONTEXT_INTERNAL) != 0 &&
	    (env->context & ~SHL_IO_CONTEXT_INTERNAL) != 5)
		return -EPROTO;
	if (node_of[dst] != 0 || env->src < 0 || env->src >= WORLD || node_of[env->src] == 0)
		abort();  /* io/frame.c lets no such frame through */
	if (h.nheld == HELD) {
		/* The rank takes its oldest first: gone from our view, back to the pool. */
		struct shl_envelope *old = h.held[0];
		uint8_t expected = SHL_Q_PENDING;
		if (old->payload != SHL_Q_REMOTE ||
		    !atomic_compare_exchange_strong(&old->state, &expected, SHL_Q_MATCHED))
			shl_pool_put(old);
		/* A claimed RTS never answered stays the protocol's: it is in the arena. */
		memmove(h.held, h.held + 1, (HELD - 1) * sizeof(h.held[0]));
		memmove(h.held_dst, h.held_dst + 1, (HELD - 1) * sizeof(h.held_dst[0]));
		h.nheld--;
	}
	if (env->payload == SHL_Q_REMOTE)
		remember(*(const uint64_t *)(const void *)env->inline_data);
	h.held[h.nheld] = env;
	h.held_dst[h.nheld++] = dst;
	return 0;
}

static void hook_sent(void *req)
{
	complete(req);
}

static void hook_received(struct shl_io_recv *rv)
{
	if (rv->got != rv->total)
		abort();
	complete(rv->req);
	fuzz_free(rv->buf);
}

static void hook_cancelled(void *req)
{
	struct req *q = req_of(req);

	if (!q->rts || !q->cancelled_asked)
		abort();  /* only a rendezvous send asked to cancel can be */
	complete(req);
}

static const struct shl_io_hooks fuzz_hooks = { hook_deliver, hook_sent, hook_received,
						hook_cancelled };

/* ---- moves ---- */

static struct req *new_req(void)
{
	for (int i = 0; i < REQS; i++)
		if (!h.reqs[i].used) {
			h.reqs[i] = (struct req){ .used = true };
			return &h.reqs[i];
		}
	return NULL;
}

/* A local rank sends eagerly or by rendezvous to a rank of another node. */
static void send_one(bool rts)
{
	struct req *q = new_req();
	int32_t src = locals[byte() % 2], dst = remotes[byte() % 4];
	uint32_t context = byte() & 1 ? 5 : 0;
	uint64_t n = bytes(2) % (rts ? sizeof(message) : EAGER_MAX + 1);
	struct shl_io_msg m = { .src = src, .dst = dst, .context = context, .tag = byte() };
	struct shl_io_send *d;

	if (q == NULL || (d = shl_io_send_get(src, 0)) == NULL)
		return;
	*q = (struct req){ .used = true, .rts = rts, .src = src, .dst = dst, .context = context };
	if (rts)
		shl_io_post_rts(d, &m, message, n, NULL, q);
	else
		shl_io_post_eager(d, &m, message, n, q);
}

/* A local rank cancels one of its rendezvous sends (MPI_Cancel, once). */
static void cancel_one(void)
{
	struct req *q = &h.reqs[byte() % REQS];

	if (!q->used || !q->rts || q->done || q->cancelled_asked)
		return;
	q->cancelled_asked = true;
	shl_io_post_cancel(q->src, q->dst, q->context, q);
}

/* A local rank takes a message that arrived: an eager one is read and given back; an RTS
 * is claimed (it may have been cancelled) and answered with a CTS. */
static void take_one(void)
{
	int i;
	struct shl_envelope *env;
	uint8_t expected = SHL_Q_PENDING;

	if (h.nheld == 0)
		return;
	i = byte() % h.nheld;
	env = h.held[i];
	h.held[i] = h.held[--h.nheld];
	int32_t dst = h.held_dst[i];
	h.held_dst[i] = h.held_dst[h.nheld];
	if (env->payload != SHL_Q_REMOTE) {
		shl_pool_put(env);
		return;
	}
	if (!atomic_compare_exchange_strong(&env->state, &expected, SHL_Q_MATCHED)) {
		shl_pool_put(env);  /* cancelled by its sender */
		return;
	}
	struct req *q = new_req();
	struct shl_io_recv *rv = shl_io_recv_get(dst);
	if (q == NULL || rv == NULL)
		return;  /* claimed, never answered: the arena takes it back */
	rv->keep = env->bytes < 300 ? env->bytes : 300;  /* truncated beyond 300 bytes */
	rv->buf = fuzz_malloc(rv->keep ? rv->keep : 1);
	rv->src = env->src;
	rv->dst = dst;
	rv->req = q;
	rv->owned = NULL;
	shl_io_post_cts(rv, env);
}

/* A peer sends a frame: a header built from the input (or taken whole from it), checked
 * as a connection checks it, then its payload. Returns false when the frame is refused:
 * the node would end, the input is over. */
static bool arrive(void)
{
	uint32_t from = 1 + byte() % 2;
	struct shl_io_frame_rules rules = { .world_size = WORLD, .node_of = node_of,
					    .from_node = from, .to_node = 0,
					    .eager_max = EAGER_MAX };
	unsigned char hdr[SHL_IO_FRAME_HEADER];
	struct shl_io_frame f;
	struct shl_io_sink s;
	uint8_t how = byte();

	if (how < 16) {
		for (int i = 0; i < SHL_IO_FRAME_HEADER; i++)
			hdr[i] = byte();
	} else {
		static const uint32_t contexts[] = { 0, 5, 5 | SHL_IO_CONTEXT_INTERNAL,
						     SHL_IO_CONTEXT_INTERNAL, 9 };
		static const int32_t tags[] = { 0, 7, -1, SHL_IO_TAG_MAX + 1 };
		uint8_t b = byte();
		f = (struct shl_io_frame){ .type = 1 + how % 6 };
		f.src = b & 0x80 ? (int32_t)(b % 8) - 1 : (int32_t)(from + 3 * (b & 1));
		b = byte();
		f.dst = b & 0x80 ? (int32_t)(b % 8) - 1 : locals[b & 1];
		b = byte();
		f.context = contexts[b % 5];
		f.tag = b & 0x80 ? tags[(b >> 3) % 4] : (int32_t)(b >> 3);
		f.cookie = f.type == SHL_IO_EAGER ? 0 : a_cookie();
		b = byte();
		switch (f.type) {
		case SHL_IO_EAGER:
			f.length = bytes(2) % (EAGER_MAX + 1);
			break;
		case SHL_IO_RTS:
		case SHL_IO_CTS:
			f.length = 8;
			break;
		case SHL_IO_DATA:
			f.length = 1 + bytes(2) % FRAME_MAX;
			break;
		}
		if (b >= 250)
			f.length = bytes(8);
		shl_io_frame_encode(&f, hdr);
	}
	if (shl_io_frame_decode(hdr, sizeof(hdr), &rules, &f) < 0)
		return false;
	if (shl_proto_header(from, &f, &s) < 0)
		return false;
	if (f.length > s.keep && f.type != SHL_IO_DATA)
		abort();  /* only a DATA frame beyond a truncated receive is partly dropped */
	if (byte() == 0xff) {
		/* The connection is gone before the payload is in: what the header took goes
		 * back, and nothing more comes from that node. */
		shl_proto_abort(&f, &s);
		return false;
	}
	if (f.type == SHL_IO_RTS || f.type == SHL_IO_CTS) {
		/* The 8-byte size or id: a size a local rank can hold, an id we gave, or any. */
		uint8_t b = byte();
		uint64_t v = b < 128 ? bytes(2) % sizeof(message) : b < 224 ? a_cookie() : bytes(8);
		shl_io_frame_encode_size(v, s.small);
	} else {
		for (uint64_t i = 0; i < s.keep; i++)
			s.buf[i] = byte();
	}
	return shl_proto_frame(from, &f, &s) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shl_io_config cfg = { .node = 0, .nnodes = NODES, .world_size = WORLD,
				     .node_of = node_of };

	fuzz_arena_empty();
	memset(&pr, 0, sizeof(pr));
	memset(&h, 0, sizeof(h));
	for (int n = 0; n < NODES; n++)
		h.tail[n] = &h.head[n];
	h.in = data;
	h.left = size;
	if (shl_io_start(&fuzz_tp, &cfg, &fuzz_hooks) != 0)
		abort();
	while (h.left > 0) {
		uint8_t op = byte();
		switch (op % 10) {
		case 0: case 1: case 2:
			if (!arrive())
				return 0;  /* refused: the node ends, naming the sender */
			break;
		case 3:
			send_one(false);
			break;
		case 4:
			send_one(true);
			break;
		case 5:
			cancel_one();
			break;
		case 6:
			take_one();
			break;
		case 7:
			written(1 + (op >> 4) % 2);
			break;
		case 8:
			if (h.head[1 + (op >> 4) % 2] != NULL)
				h.half[1 + (op >> 4) % 2] = true;
			break;
		case 9:
			while (h.head[1] != NULL || h.head[2] != NULL) {
				written(1);
				written(2);
			}
			break;
		}
	}
	return 0;
}
