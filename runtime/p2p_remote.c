/* Point-to-point with ranks of other nodes: sends handed to the completion thread
 * (io/mesh.h) and the two hooks it calls back (an arriving message into a rank's inbox, a
 * written send's completion). Entered by rank threads (shl_p2p_send_remote, rank locked)
 * and by the completion thread (the hooks). Must not touch a rank's private lists: arriving
 * messages take the inbox, like a local sender's, so matching is one code path. */
#include <errno.h>
#include <stdlib.h>

#include "io/mesh.h"
#include "runtime/rt.h"
#include "runtime/p2p_internal.h"

/* Completion thread: an EAGER message for local world rank `dst`. Only MPI_COMM_WORLD
 * spans nodes (creation on it is refused, shl_comm_local_or_die), so its context is the
 * only one a frame may carry, and the frame's world ranks are its communicator ranks. */
static int deliver(int32_t dst, struct shl_envelope *env)
{
	struct shl_rank *to = shl_job.ranks[dst];  /* io/frame.c checked dst is one of ours */

	if ((env->context & ~SHL_CTX_INTERNAL) != SHL_CTX_WORLD || to == NULL)
		return -EPROTO;
	shl_inbox_push(&to->inbox, env);
	shl_rank_wake(to);
	return 0;
}

/* Completion thread: the frame of send request `req` (NULL: one that completed when
 * posted) is written. */
static void sent(void *req)
{
	if (req != NULL)
		shl_req_complete(req);
}

int shl_job_connect(const struct shl_io_config *cfg)
{
	static const struct shl_io_hooks hooks = { deliver, sent };

	return shl_io_start(cfg, &hooks);
}

int shl_p2p_send_remote(struct shl_rank *r, struct shl_comm *c, const void *buf,
			MPI_Count count, struct shl_datatype *type, int dest, int tag,
			enum shl_send_mode mode, struct shl_req *req)
{
	size_t bytes = (size_t)count * type->size;
	int world = shl_comm_remote_world(c, dest);
	/* As on the node, a payload up to inline_max and a buffered send complete at once (the
	 * caller may even have passed the rank's shared completed request, make_request):
	 * those are copied. Others are written straight from the user's buffer when it is
	 * dense, and complete once written. */
	bool at_once = mode == SHL_MODE_BUFFERED || bytes <= shl_job.inline_max;
	bool packed = at_once || !type->contig;
	struct shl_io_send *d;

	if ((c->context & ~SHL_CTX_INTERNAL) != SHL_CTX_WORLD)
		shl_panic("MPI_Send", EINVAL, "a communicator other than MPI_COMM_WORLD spans nodes");
	if (mode == SHL_MODE_SYNC)
		shl_job_abort(1, "rank %d: synchronous send to rank %d of another node: not "
			      "implemented yet across nodes (docs/offnode.md)", r->world_rank, world);
	if (bytes > SHL_IO_EAGER_MAX)
		shl_job_abort(1, "rank %d: send of %zu bytes to rank %d of another node: messages "
			      "across nodes are limited to %u bytes until the rendezvous protocol "
			      "is written (docs/offnode.md)", r->world_rank, bytes, world,
			      SHL_IO_EAGER_MAX);
	d = malloc(sizeof(*d) + (packed ? bytes : 0));
	if (d == NULL)
		return -ENOMEM;
	d->frame = (struct shl_io_frame){ .type = SHL_IO_EAGER, .src = r->world_rank,
					  .dst = world, .context = c->context, .tag = tag,
					  .length = bytes };
	d->payload = buf;
	if (packed) {
		shl_dt_copy(d->packed, NULL, buf, type, bytes);
		d->payload = d->packed;
	}
	d->req = at_once ? NULL : req;
	req->env = NULL;
	if (at_once)
		shl_req_complete_own(r, req);
	shl_io_post_send(d);
	return 0;
}
