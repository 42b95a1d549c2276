/* What each rank of this node waits for, for the hang and deadlock reports: its posted
 * receives and its unexpected messages (shl_job_describe_rank, runtime/job.h). Entered by
 * the node's watchdog thread (loader/node.c) once the ranks it describes stay blocked in
 * MPI; it reads their lists without their locks, as a blocked rank leaves them. Must not
 * write anything but `out`. */
#include <stdio.h>

#include "runtime/core/rt.h"

static const char *comm_label(uint32_t context, char *buf, size_t len)
{
	if (context == SHL_CTX_WORLD)
		return "MPI_COMM_WORLD";
	if (context == SHL_CTX_SELF)
		return "MPI_COMM_SELF";
	snprintf(buf, len, "communicator %u", context);
	return buf;
}

static void describe_receives(int rank, const struct shl_req *q, FILE *out)
{
	char cb[32], src[16];

	for (; q != NULL; q = q->next) {
		snprintf(src, sizeof(src), "%d", q->peer);
		fprintf(out, "  rank %d: waits to receive from %s, tag %d, on %s (up to %zu bytes)\n",
			rank, q->peer == MPI_ANY_SOURCE ? "any rank" : src, q->tag,
			comm_label(q->comm->context, cb, sizeof(cb)), (size_t)q->count * q->type->size);
	}
}

static void describe_unexpected(int rank, const struct shl_envelope *e, FILE *out)
{
	char cb[32];

	for (; e != NULL; e = e->next)
		fprintf(out, "  rank %d: holds an unreceived message from rank %d, tag %d, on %s "
			"(%zu bytes)%s\n", rank, e->src, e->tag,
			comm_label(e->context, cb, sizeof(cb)), e->bytes,
			e->cookie ? "; its sender waits for it to be received" : "");
}

/* Receives from any rank first, then bin by bin (by source, on most communicators). */
void shl_job_describe_rank(int rank, FILE *out)
{
	struct shl_rank *r = shl_job.ranks[rank];

	if (atomic_load(&r->phase) == SHL_PHASE_FINALIZED) {
		fprintf(out, "  rank %d: finished (after MPI_Finalize)\n", rank);
		return;
	}
	if (r->nposted == 0 && r->unexpected_bins == 0) {
		fprintf(out, "  rank %d: blocked in MPI with no receive posted (a collective, a "
			"synchronous or large send, or a wait)\n", rank);
		return;
	}
	describe_receives(rank, r->wild.head, out);
	for (int b = 0; b < SHL_MATCH_BINS; b++)
		describe_receives(rank, r->bins[b].posted.head, out);
	for (int b = 0; b < SHL_MATCH_BINS; b++)
		describe_unexpected(rank, r->bins[b].unexpected.head, out);
}
