/* Point-to-point with ranks of other nodes: sends handed to the completion thread
 * (io/mesh.h) and the two hooks it calls back (an arriving message into a rank's inbox, a
 * written send's completion). Entered by rank threads (shl_p2p_send_remote, rank locked)
 * and by the completion thread (the hooks). Must not touch a rank's private lists: arriving
 * messages take the inbox, like a local sender's, so matching is one code path. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/mesh.h"
#include "runtime/core/rt.h"
#include "runtime/p2p/internal.h"
#include "runtime/coll/net.h"

/* Completion thread: an EAGER message (or RTS) for local world rank `dst`, into its inbox
 * with its source translated (comm/route.c). A context no communicator of this node
 * spanning nodes has is refused. */
static int deliver(int32_t dst, struct shl_envelope *env)
{
	struct shl_rank *to = shl_job.ranks[dst];  /* io/frame.c checked dst is one of ours */

	if (to == NULL)
		return -EPROTO;
	return shl_route_deliver(to, env);
}

/* Completion thread: the frame of send request `req` (NULL: one that completed when
 * posted) is written. */
static void sent(void *req)
{
	if (req != NULL)
		shl_req_complete(req);
}

/* Completion thread: the rendezvous send of request `req` was cancelled before its
 * receiver matched it (MPI 4.1 §3.8.4: MPI_Test_cancelled is then true). */
static void cancelled(void *req)
{
	struct shl_req *q = req;

	q->status.shl_cancelled = 1;
	shl_req_complete(q);
}

/* A rendezvous receive: what the completion thread fills, and what the rank asked for. */
struct remote_recv {
	struct shl_io_recv io;
	struct shl_req *q;
	void *tmp;                   /* dense bytes to unpack into q's buffer, or NULL */
};

/* Completion thread: every byte of a rendezvous receive is in. */
static void received(struct shl_io_recv *rv)
{
	struct remote_recv *x = caa_container_of(rv, struct remote_recv, io);

	if (x->tmp != NULL) {
		shl_dt_copy(x->q->buf, x->q->type, x->tmp, NULL, rv->keep);
		free(x->tmp);
	}
	shl_req_complete(x->q);
	free(x);
}

int shl_job_connect(const struct shl_io_config *cfg)
{
	static const struct shl_io_hooks hooks = { deliver, sent, received, cancelled };
	int err = shl_route_init(cfg->world_size);
	long nlocal = 0;

	for (int32_t w = 0; w < cfg->world_size; w++)
		nlocal += cfg->node_of[w] == cfg->node;
	/* Ranks spinning on every core would keep the completion thread, which every message
	 * to or from another node goes through, off the cores for a time slice: a rank
	 * waiting 200 µs for a reply that its own node's thread must read then makes every
	 * round trip last its spin (bench OFFNODE=1 on 2 cores, 0 B: 205-260 µs one way;
	 * yielding between polls: see docs/performance.md "Off-node"). */
	const char *yield = getenv("SHOAL_SPIN_YIELD");
	bool crowded = nlocal + 1 >= shl_job.cores;
	shl_job.spin_yield = yield != NULL && *yield ? *yield == '1' : crowded;
	/* A rank spinning for a message reads the connections itself while the completion
	 * thread sleeps, so that an arriving message is not handed from the thread to the
	 * rank (docs/performance.md, "Off-node"). */
	const char *poll = getenv("SHOAL_RANK_POLL");
	shl_job.poll_net = poll == NULL || *poll != '0';
	/* The completion thread polls as long as a rank spins when it has a core of its own
	 * (a wake-up saved on each side of a message); on crowded cores it sleeps at once:
	 * its polls only took turns from ranks (bench OFFNODE=1 on 2 cores, 1-8 B, medians of
	 * 3: 21-57 µs polling 200 µs, 25-26 µs not). */
	struct shl_io_config c = *cfg;
	c.poll_ns = 1000 * shl_env_size("SHOAL_IO_POLL_US", crowded ? 0 : SHL_WAIT_SPIN_US,
					1000000);
	const char *connect = getenv("SHOAL_CONNECT");
	c.lazy = connect != NULL && strcmp(connect, "lazy") == 0;
	if (err == 0)
		err = shl_coll_net_init(cfg->world_size, cfg->node_of);
	return err < 0 ? err : shl_io_start(&c, &hooks);
}

void shl_p2p_recv_remote(struct shl_rank *r, struct shl_req *q, struct shl_envelope *env,
			 size_t n)
{
	struct remote_recv *x = calloc(1, sizeof(*x));
	struct shl_io_send *d = calloc(1, sizeof(*d) + 8);
	uint64_t cookie;

	if (x == NULL || d == NULL)
		shl_panic("MPI_Recv", ENOMEM, "no memory for a receive from another node");
	x->q = q;
	if (!q->type->contig && n > 0 && (x->tmp = malloc(n)) == NULL)
		shl_panic("MPI_Recv", ENOMEM, "no memory for a receive from another node");
	/* The sender's world rank, which the frames name (env->src is its comm rank). */
	int wsrc = shl_route_sender_world(q->comm, env->context, env->src);
	x->io = (struct shl_io_recv){ .buf = x->tmp ? x->tmp : q->buf, .keep = n,
				      .total = env->bytes, .src = wsrc,
				      .dst = r->world_rank };
	memcpy(&cookie, env->inline_data, 8);
	d->frame = (struct shl_io_frame){ .type = SHL_IO_CTS, .src = r->world_rank,
					  .dst = wsrc, .context = env->context, .length = 8,
					  .cookie = cookie };
	d->payload = d->packed;
	d->recv = &x->io;
	/* `env` stays the completion thread's: it gives it back when it takes the CTS. */
	shl_io_post_send(d);
}

bool shl_p2p_cancel_remote(struct shl_rank *r, struct shl_req *req)
{
	struct shl_io_send *d;

	if (req->kind != SHL_REQ_SEND || req->peer == MPI_PROC_NULL ||
	    shl_job.ranks[shl_comm_remote_world(req->comm, req->peer)] != NULL)
		return false;
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return true;  /* no memory to ask: the cancel fails, the send completes */
	d->frame = (struct shl_io_frame){ .type = SHL_IO_CANCEL, .src = r->world_rank,
					  .dst = shl_comm_remote_world(req->comm, req->peer),
					  .context = req->comm->context };
	d->req = req;
	shl_io_post_send(d);
	return true;
}

int shl_p2p_send_remote(struct shl_rank *r, struct shl_comm *c, const void *buf,
			MPI_Count count, struct shl_datatype *type, int dest, int tag,
			enum shl_send_mode mode, struct shl_req *req)
{
	size_t bytes = (size_t)count * type->size;
	int world = shl_comm_remote_world(c, dest);
	/* As on the node, what shl_p2p_sends_at_once says completes at once (the caller may
	 * even have passed the rank's shared completed request, make_request): those are
	 * copied. Others are written straight from the user's buffer when it is dense, and
	 * complete once written. Synchronous sends and messages over the eager limit go by
	 * rendezvous (RTS, the receiver's match answers CTS, then DATA), so they complete
	 * only once matched. */
	bool at_once = shl_p2p_sends_at_once(mode, count, type);
	bool packed = at_once || !type->contig;
	bool rdv = mode == SHL_MODE_SYNC || bytes > SHL_IO_EAGER_MAX;
	struct shl_io_send *d;

	if (!c->sh->offnode)
		shl_panic("MPI_Send", EINVAL, "a send to another node on a communicator of this node");
	if (!rdv) {
		d = malloc(sizeof(*d) + (packed ? bytes : 0));
		if (d == NULL)
			return -ENOMEM;
		memset(d, 0, sizeof(*d));
		d->frame = (struct shl_io_frame){ .type = SHL_IO_EAGER, .src = r->world_rank,
						  .dst = world, .context = c->context, .tag = tag,
						  .length = bytes };
		d->payload = buf;
		if (packed) {
			shl_dt_copy(d->packed, NULL, buf, type, bytes);
			d->payload = d->packed;
		}
	} else {
		d = calloc(1, sizeof(*d) + 8);
		if (d == NULL)
			return -ENOMEM;
		d->frame = (struct shl_io_frame){ .type = SHL_IO_RTS, .src = r->world_rank,
						  .dst = world, .context = c->context, .tag = tag,
						  .length = 8 };
		for (int i = 0; i < 8; i++)
			d->packed[i] = (unsigned char)((uint64_t)bytes >> (8 * i));
		d->payload = d->packed;
		d->data = buf;
		d->bytes = bytes;
		if (packed && bytes > 0) {
			d->owned = malloc(bytes);
			if (d->owned == NULL) {
				free(d);
				return -ENOMEM;
			}
			shl_dt_copy(d->owned, NULL, buf, type, bytes);
			d->data = d->owned;
		}
	}
	d->req = at_once ? NULL : req;
	req->env = NULL;
	if (at_once)
		shl_req_complete_own(r, req);
	shl_io_post_send(d);
	return 0;
}
