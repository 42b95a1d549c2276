/* libFuzzer target for the protocol between two honest nodes (io/proto.c, twice: see
 * io/fuzz_twin.h): every frame either node writes is one the other could have asked for,
 * whatever the order the input picks for the ranks' moves (eager and rendezvous sends,
 * cancels racing their receives, receives taking what arrived), the transports' (frames
 * written whole or half, taken back) and the wire's (frames read as late as the input
 * likes). No frame may be refused: a refusal here is a false positive of the checks that
 * end a job on a corrupt peer. At the end of each input every frame is delivered and every
 * message received: every request must then be complete, once, with the bytes sent.
 * Entered by libFuzzer's driver thread only, which plays both nodes' transport lock holders
 * and every rank. Built by `make fuzz` and tests/fuzz_targets_run_clean.sh, never linked
 * into libmpi.so; allocations of both protocols and the envelope pools are in an arena
 * emptied before each input. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fuzz_arena.h"
#include "io/fuzz_transport.h"
#include "io/fuzz_twin.h"

#define malloc(n) fuzz_malloc(n)
#define aligned_alloc(align, n) fuzz_malloc(n)
#define free(p) fuzz_free(p)
#include "queues/queues.c"
#undef malloc
#undef aligned_alloc
#undef free

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- the job: ranks 0 and 2 on node 0, 1 and 3 on node 1 ---- */

#define WORLD 4
#define FRAME_MAX 1024
#define EAGER_MAX 512
#define REQS 128                     /* sends, and as many receives */
#define HELD 128                     /* more than REQS: every message can be held */
#define WIRE 128

static const uint32_t node_of[WORLD] = { 0, 1, 0, 1 };
static unsigned char message[3 * FRAME_MAX + 7];

struct req {
	bool used, done, rts, recv, cancel_asked, cancelled;
	int node;
	int32_t src, dst;
	uint32_t context;
};

/* A frame on the wire: its bytes as written. */
struct wired {
	unsigned char hdr[SHL_IO_FRAME_HEADER];
	unsigned char payload[FRAME_MAX];
};

struct node {
	const struct twin *tp;
	struct shl_io_send *head, **tail;  /* the transport's queue */
	bool half;                           /* its head is half written */
	struct wired wire[WIRE];             /* written to the other node, not read yet */
	unsigned wfirst, wcount;
	struct shl_envelope *held[HELD];     /* delivered to its ranks, not taken yet */
	int32_t held_dst[HELD];
	int nheld;
};

static struct {
	const uint8_t *in;
	size_t left;
	struct node node[2];
	struct req reqs[REQS];
	int nsends;
} h;

static uint8_t byte(void)
{
	if (h.left == 0)
		return 0;
	h.left--;
	return *h.in++;
}

static __attribute__((noreturn, format(printf, 1, 2))) void bug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* ---- the transports ---- */

static void tp_limits(struct shl_io_limits *out)
{
	*out = (struct shl_io_limits){ .eager_max = EAGER_MAX, .inline_max = EAGER_MAX,
				       .frame_max = FRAME_MAX };
}

static int tp_start(const struct shl_io_config *cfg)
{
	return 0;
}

static void write_on(int n, struct shl_io_send *d)
{
	struct node *x = &h.node[n];

	if (node_of[d->frame.dst] == (uint32_t)n || node_of[d->frame.src] != (uint32_t)n)
		bug("node %d writes a frame from rank %d to rank %d", n, d->frame.src,
		    d->frame.dst);
	d->next = NULL;
	*x->tail = d;
	x->tail = &d->next;
}

static bool unwrite_on(int n, struct shl_io_send *d)
{
	struct node *x = &h.node[n];
	struct shl_io_send **link = &x->head;

	while (*link != NULL && *link != d)
		link = &(*link)->next;
	if (*link == NULL || (d == x->head && x->half))
		return false;
	*link = d->next;
	if (x->tail == &d->next)
		x->tail = link;
	return true;
}

static void post_0(struct shl_io_send *d) { h.node[0].tp->take(d); }
static void post_1(struct shl_io_send *d) { h.node[1].tp->take(d); }
static void write_0(struct shl_io_send *d) { write_on(0, d); }
static void write_1(struct shl_io_send *d) { write_on(1, d); }
static bool unwrite_0(struct shl_io_send *d) { return unwrite_on(0, d); }
static bool unwrite_1(struct shl_io_send *d) { return unwrite_on(1, d); }

static const struct shl_tp_ops tps[2] = {
	{ .name = "pair0", .limits = tp_limits, .start = tp_start, .post = post_0,
	  .write = write_0, .unwrite = unwrite_0, .poll = tp_poll, .poll_end = tp_poll_end,
	  .fail = tp_fail },
	{ .name = "pair1", .limits = tp_limits, .start = tp_start, .post = post_1,
	  .write = write_1, .unwrite = unwrite_1, .poll = tp_poll, .poll_end = tp_poll_end,
	  .fail = tp_fail },
};

/* Node n's transport writes the head of its queue whole, onto the wire. Returns false if
 * there is nothing to write or the wire is full. */
static bool write_head(int n)
{
	struct node *x = &h.node[n];
	struct shl_io_send *d = x->head;
	struct wired *w;

	if (d == NULL || x->wcount == WIRE)
		return false;
	w = &x->wire[(x->wfirst + x->wcount++) % WIRE];
	shl_io_frame_encode(&d->frame, w->hdr);
	if (d->frame.length > sizeof(w->payload))
		bug("a frame of %llu bytes", (unsigned long long)d->frame.length);
	if (d->frame.length > 0)
		memcpy(w->payload, d->payload, d->frame.length);
	x->head = d->next;
	if (x->head == NULL)
		x->tail = &x->head;
	x->half = false;
	x->tp->written(d);
	return true;
}

/* Node 1 - n reads the oldest frame node n wrote, as a connection reads it. Returns false
 * if there is none. */
static bool read_wire(int n)
{
	struct node *x = &h.node[n], *to = &h.node[1 - n];
	struct shl_io_frame_rules rules = { .world_size = WORLD, .node_of = node_of,
					    .from_node = n, .to_node = 1 - n,
					    .eager_max = EAGER_MAX };
	struct shl_io_frame f;
	struct shl_io_sink s;
	struct wired *w;
	int err;

	if (x->wcount == 0)
		return false;
	w = &x->wire[x->wfirst];
	x->wfirst = (x->wfirst + 1) % WIRE;
	x->wcount--;
	err = shl_io_frame_decode(w->hdr, sizeof(w->hdr), &rules, &f);
	if (err < 0)
		bug("node %d refuses a header from node %d: %s", 1 - n, n, shl_io_frame_error(err));
	if (to->tp->header(n, &f, &s) < 0 ||
	    (memcpy(s.keep ? s.buf : s.small, w->payload,
		    f.type == SHL_IO_RTS || f.type == SHL_IO_CTS ? 8 : s.keep),
	     to->tp->frame(n, &f, &s) < 0))
		bug("node %d refuses a frame of type %u from node %d: %s", 1 - n, f.type, n,
		    s.why);
	return true;
}

/* ---- the runtime's hooks ---- */

static struct req *req_of(void *p)
{
	struct req *q = p;

	if (q < h.reqs || q >= h.reqs + REQS || !q->used)
		bug("a completion for no request");
	return q;
}

static void complete(void *p)
{
	struct req *q = req_of(p);

	if (q->done)
		bug("a request completed twice");
	q->done = true;
}

static int deliver_on(int n, int32_t dst, struct shl_envelope *env)
{
	struct node *x = &h.node[n];

	if (node_of[dst] != (uint32_t)n || x->nheld == HELD)
		bug("delivered to rank %d on node %d (%d held)", dst, n, x->nheld);
	x->held[x->nheld] = env;
	x->held_dst[x->nheld++] = dst;
	return 0;
}

static int deliver_0(int32_t dst, struct shl_envelope *env) { return deliver_on(0, dst, env); }
static int deliver_1(int32_t dst, struct shl_envelope *env) { return deliver_on(1, dst, env); }

static void hook_sent(void *req)
{
	complete(req);
}

static void hook_received(struct shl_io_recv *rv)
{
	if (rv->got != rv->total || memcmp(rv->buf, message, rv->keep) != 0)
		bug("a rendezvous receive with other bytes than were sent");
	complete(rv->req);
	fuzz_free(rv->buf);
}

static void hook_cancelled(void *req)
{
	struct req *q = req_of(req);

	if (!q->rts || !q->cancel_asked)
		bug("a send cancelled that never asked");
	q->cancelled = true;
	complete(req);
}

static const struct shl_io_hooks hooks[2] = {
	{ deliver_0, hook_sent, hook_received, hook_cancelled },
	{ deliver_1, hook_sent, hook_received, hook_cancelled },
};

/* ---- the ranks' moves ---- */

static struct req *new_req(void)
{
	for (int i = 0; i < REQS; i++)
		if (!h.reqs[i].used) {
			h.reqs[i] = (struct req){ .used = true };
			return &h.reqs[i];
		}
	return NULL;
}

/* A rank of node n sends to a rank of the other node, eagerly or by rendezvous. */
static void send_one(int n, bool rts)
{
	int32_t src = 2 * (byte() & 1) + n, dst = 2 * (byte() & 1) + 1 - n;
	uint32_t context = byte() & 1 ? 5 | (byte() & 1 ? SHL_IO_CONTEXT_INTERNAL : 0) : 0;
	uint64_t len = (byte() | (uint64_t)byte() << 8) % (rts ? sizeof(message) : EAGER_MAX + 1);
	struct shl_io_msg m = { .src = src, .dst = dst, .context = context, .tag = byte() };
	struct req *q;
	struct shl_io_send *d;

	if (h.nsends == REQS / 2 || (q = new_req()) == NULL ||
	    (d = h.node[n].tp->send_get(src, 0)) == NULL)
		return;
	h.nsends++;
	*q = (struct req){ .used = true, .rts = rts, .node = n, .src = src, .dst = dst,
			   .context = context };
	if (rts)
		h.node[n].tp->post_rts(d, &m, message, len, NULL, q);
	else
		h.node[n].tp->post_eager(d, &m, message, len, q);
}

/* A rank of node n cancels one of its rendezvous sends, once, as MPI_Cancel does (never on
 * an internal context: the runtime cancels no send of its own). */
static void cancel_one(int n)
{
	struct req *q = &h.reqs[byte() % REQS];

	if (!q->used || q->node != n || !q->rts || q->done || q->cancel_asked ||
	    (q->context & SHL_IO_CONTEXT_INTERNAL))
		return;
	q->cancel_asked = true;
	h.node[n].tp->post_cancel(q->src, q->dst, q->context, q);
}

/* A rank of node n takes the i-th message delivered to its node. */
static void take(int n, int i)
{
	struct node *x = &h.node[n];
	struct shl_envelope *env = x->held[i];
	int32_t dst = x->held_dst[i];
	uint8_t expected = SHL_Q_PENDING;

	x->held[i] = x->held[--x->nheld];
	x->held_dst[i] = x->held_dst[x->nheld];
	if (env->payload != SHL_Q_REMOTE) {
		if (memcmp(shl_envelope_payload(env), message, env->bytes) != 0)
			bug("an eager message with other bytes than were sent");
		shl_pool_put(env);
		return;
	}
	if (!atomic_compare_exchange_strong(&env->state, &expected, SHL_Q_MATCHED)) {
		shl_pool_put(env);  /* cancelled by its sender */
		return;
	}
	struct req *q = new_req();
	struct shl_io_recv *rv = x->tp->recv_get(dst);
	if (q == NULL || rv == NULL)
		bug("no request for a receive");
	*q = (struct req){ .used = true, .recv = true, .node = n };
	rv->keep = env->bytes < 300 ? env->bytes : 300;  /* truncated beyond 300 bytes */
	rv->buf = fuzz_malloc(rv->keep ? rv->keep : 1);
	rv->src = env->src;
	rv->dst = dst;
	rv->req = q;
	rv->owned = NULL;
	x->tp->post_cts(rv, env);
}

/* Everything written and read, every message taken, until nothing moves. */
static void settle(void)
{
	bool moved = true;

	while (moved) {
		moved = false;
		for (int n = 0; n < 2; n++) {
			while (h.node[n].nheld > 0) {
				take(n, 0);
				moved = true;
			}
			while (write_head(n))
				moved = true;
			while (read_wire(n))
				moved = true;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_arena_empty();
	memset(&h, 0, sizeof(h));
	h.in = data;
	h.left = size;
	h.node[0].tp = &twin_a;
	h.node[1].tp = &twin_b;
	for (int n = 0; n < 2; n++) {
		struct shl_io_config cfg = { .node = n, .nnodes = 2, .world_size = WORLD,
					     .node_of = node_of };
		h.node[n].tail = &h.node[n].head;
		h.node[n].tp->reset();
		if (h.node[n].tp->start(&tps[n], &cfg, &hooks[n]) != 0)
			abort();
	}
	while (h.left > 0) {
		uint8_t op = byte();
		int n = op >> 7;
		switch (op % 8) {
		case 0:
			send_one(n, false);
			break;
		case 1:
			send_one(n, true);
			break;
		case 2:
			cancel_one(n);
			break;
		case 3:
			if (h.node[n].nheld > 0)
				take(n, byte() % h.node[n].nheld);
			break;
		case 4:
			write_head(n);
			break;
		case 5:
			if (h.node[n].head != NULL)
				h.node[n].half = true;
			break;
		case 6:
		case 7:
			read_wire(n);
			break;
		}
	}
	settle();
	for (int i = 0; i < REQS; i++) {
		struct req *q = &h.reqs[i];
		if (q->used && !q->done)
			bug("a %s of node %d never completed", q->recv ? "receive" : "send", q->node);
	}
	return 0;
}
