/* Point-to-point with ranks of other nodes: the choice of protocol for each message from
 * the transport's limits (eager or rendezvous; cancel), its posting to the off-node I/O
 * (io/transport.h), and the hooks it calls back (an arriving message into a rank's inbox,
 * a written send's completion, a rendezvous receive's data in, a cancelled send). Entered
 * by rank threads (rank locked) and by whoever holds the transport's lock (the hooks).
 * Must not touch a rank's private lists: arriving messages take the inbox, like a local
 * sender's, so matching is one code path. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/mesh.h"
#include "io/transport.h"
#include "runtime/core/rt.h"
#include "runtime/p2p/internal.h"
#include "runtime/coll/net.h"

/* The frames' checks (io/frame.c) judge tags and internal contexts by the runtime's. */
_Static_assert(SHL_IO_TAG_MAX == MPI_TAG_UB_VALUE && SHL_IO_CONTEXT_INTERNAL == SHL_CTX_INTERNAL,
	       "io/frame.h agrees with the runtime on tags and contexts");

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

/* Completion thread: the frames of send request `req` are written. */
static void sent(void *req)
{
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

/* Completion thread: every byte of a rendezvous receive is in (`owned`: dense bytes to
 * unpack into the receive's buffer). */
static void received(struct shl_io_recv *rv)
{
	struct shl_req *q = rv->req;

	if (rv->owned != NULL) {
		shl_dt_copy(q->buf, q->type, rv->owned, NULL, rv->keep);
		free(rv->owned);
	}
	shl_req_complete(q);
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
	return err < 0 ? err : shl_io_start(&shl_io_tcp, &c, &hooks);
}

void shl_p2p_recv_remote(struct shl_rank *r, struct shl_req *q, struct shl_envelope *env,
			 size_t n)
{
	struct shl_io_recv *rv = shl_io_recv_get(r->world_rank);
	void *tmp = NULL;

	if (rv == NULL || (!q->type->contig && n > 0 && (tmp = malloc(n)) == NULL))
		shl_panic("MPI_Recv", ENOMEM, "no memory for a receive from another node");
	rv->buf = tmp ? tmp : q->buf;
	rv->keep = n;
	/* The sender's world rank, which the frames name (env->src is its comm rank). */
	rv->src = shl_route_sender_world(q->comm, env->context, env->src);
	rv->dst = r->world_rank;
	rv->req = q;
	rv->owned = tmp;
	/* `env` stays the protocol's: it gives it back when it takes the CTS. */
	shl_io_post_cts(rv, env);
}

bool shl_p2p_cancel_remote(struct shl_rank *r, struct shl_req *req)
{
	int world;

	if (req->kind != SHL_REQ_SEND || req->peer == MPI_PROC_NULL)
		return false;
	world = shl_comm_remote_world(req->comm, req->peer);
	if (shl_job.ranks[world] != NULL)
		return false;
	/* No memory to ask: the cancel fails, the send completes. */
	shl_io_post_cancel(r->world_rank, world, req->comm->context, req);
	return true;
}

int shl_p2p_send_remote(struct shl_rank *r, struct shl_comm *c, const void *buf,
			MPI_Count count, struct shl_datatype *type, int dest, int tag,
			enum shl_send_mode mode, struct shl_req *req)
{
	size_t bytes = (size_t)count * type->size;
	struct shl_io_msg m = { .src = r->world_rank, .dst = shl_comm_remote_world(c, dest),
				.context = c->context, .tag = tag };
	/* As on the node, what shl_p2p_sends_at_once says completes at once (the caller may
	 * even have passed the rank's shared completed request, make_request): those are
	 * copied. Others are written straight from the user's buffer when it is dense, and
	 * complete once written. Synchronous sends and messages over the transport's eager
	 * limit go by rendezvous (RTS, the receiver's match answers CTS, then DATA), so they
	 * complete only once matched. */
	bool at_once = shl_p2p_sends_at_once(mode, count, type);
	bool packed = at_once || !type->contig;
	bool rdv = mode == SHL_MODE_SYNC || bytes > shl_io_limits()->eager_max;
	struct shl_io_send *d;

	if (!c->sh->offnode)
		shl_panic("MPI_Send", EINVAL, "a send to another node on a communicator of this node");
	d = shl_io_send_get(r->world_rank, packed && !rdv ? bytes : 0);
	if (d == NULL)
		return -ENOMEM;
	req->env = NULL;
	if (!rdv) {
		const void *payload = buf;
		if (packed) {
			shl_dt_copy(d->space, NULL, buf, type, bytes);
			payload = d->space;
		}
		if (at_once)
			shl_req_complete_own(r, req);
		shl_io_post_eager(d, &m, payload, bytes, at_once ? NULL : req);
		return 0;
	}
	void *owned = NULL;
	if (packed && bytes > 0) {
		/* Packed once into a buffer of the send's own, written from there. */
		owned = malloc(bytes);
		if (owned == NULL) {
			shl_io_send_put(d);
			return -ENOMEM;
		}
		shl_dt_copy(owned, NULL, buf, type, bytes);
	}
	if (at_once)
		shl_req_complete_own(r, req);
	shl_io_post_rts(d, &m, owned ? owned : buf, bytes, owned, at_once ? NULL : req);
	return 0;
}
