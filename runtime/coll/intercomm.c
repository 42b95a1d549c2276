/* MPI_Intercomm_create: the two local leaders exchange their groups by point-to-point over
 * peer_comm; each local group learns the outcome from its leader (a meeting on one node, a
 * broadcast on a group spanning nodes); then the intercommunicator is built on the node
 * by the leader of lower world rank, or across nodes as MPI_Comm_create_group of the two
 * groups' union on MPI_COMM_WORLD, whose leaders agree on its context id
 * (coll/net_create.c). It lives in coll/, the top layer, because it is built from
 * point-to-point and collectives; the communicator's objects, meeting and adoption it
 * uses are comm/'s. Entered by rank threads. Never blocks except in the point-to-point
 * calls, the broadcast and shl_wait; never writes another rank's live objects. */
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/internal.h"

/* What the local leader tells its group: an error, or how the intercommunicator is made:
 * on this node (`sh`, made by the leader of lower world rank), or, when either group spans
 * nodes or the leaders are on different nodes (`net`), as MPI_Comm_create_group of both
 * groups on MPI_COMM_WORLD, whose leaders agree on the context id across nodes. `side` is
 * the local group's place (0: first), `rn` the remote group's size. */
struct ic_in {
	struct shl_comm_shared *sh;
	int side, rn, err;
	bool net;
	int *theirs;                  /* leader only: the remote group's world ranks */
};

/* What ic_run hands each member of an on-node local group. */
struct ic_out {
	struct shl_comm_made md;
	struct ic_in h;               /* theirs not set */
};

/* Hand every member of the local group the leader's result. */
static void ic_run(struct shl_meeting *m)
{
	const struct ic_in *lead = NULL;

	for (int i = 0; i < m->n; i++)
		if (m->arrival[i]->in != NULL)
			lead = m->arrival[i]->in;
	for (int i = 0; i < m->n; i++) {
		struct shl_arrival *a = m->arrival[i];
		struct ic_out *o = a->out;
		if (lead == NULL || lead->err != MPI_SUCCESS) {
			a->err = lead ? lead->err : MPI_ERR_ROOT;
			continue;
		}
		o->h = *lead;
		o->h.theirs = NULL;
		if (!lead->net)
			o->md = (struct shl_comm_made){ lead->sh,
							lead->side ? lead->sh->gsize[0] + i : i };
	}
}

/* Whether a member of the n world ranks `w` is a rank of another node. */
static bool any_elsewhere(const int *w, int n)
{
	for (int i = 0; i < n; i++)
		if (shl_job.ranks[w[i]] == NULL)
			return true;
	return false;
}

/* The local leader's part: exchange the groups with the remote leader over `peer`. Both
 * leaders decide alike whether to go across nodes: the groups are disjoint, so on one
 * node each sees the other's members elsewhere exactly when its own span nodes. On one
 * node, the leader of lower world rank builds the shared object and sends its address
 * (both leaders share the node process). */
static void ic_lead(struct shl_rank *r, struct shl_comm *local, MPI_Comm peer,
		    struct shl_comm *pc, int remote_leader, int tag, struct ic_in *out)
{
	int n = local->size, rn = -1, *mine = malloc((size_t)n * sizeof(int)), *theirs = NULL;
	struct shl_comm_shared *sh = NULL;

	out->err = MPI_ERR_NO_MEM;
	if (mine == NULL)
		return;
	for (int i = 0; i < n; i++)
		mine[i] = shl_comm_world_rank(local, i);
	if (PMPI_Sendrecv(&n, 1, MPI_INT, remote_leader, tag, &rn, 1, MPI_INT, remote_leader, tag,
			  peer, MPI_STATUS_IGNORE) != MPI_SUCCESS || rn < 1)
		goto fail;
	theirs = malloc((size_t)rn * sizeof(int));
	if (theirs == NULL ||
	    PMPI_Sendrecv(mine, n, MPI_INT, remote_leader, tag, theirs, rn, MPI_INT,
			  remote_leader, tag, peer, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		goto fail;
	out->side = r->world_rank > shl_comm_remote_world(pc, remote_leader);
	out->rn = rn;
	out->net = local->sh->offnode || any_elsewhere(theirs, rn);
	if (out->net) {
		out->theirs = theirs;
		out->err = MPI_SUCCESS;
		free(mine);
		return;
	}
	if (out->side == 0) {
		int err = MPI_SUCCESS;
		sh = shl_comm_shared_make(n, rn, true, &err);
		if (sh != NULL) {
			memcpy(sh->world, mine, (size_t)n * sizeof(int));
			memcpy(sh->world + n, theirs, (size_t)rn * sizeof(int));
		}
		if (PMPI_Send(&sh, sizeof(sh), MPI_BYTE, remote_leader, tag, peer) != MPI_SUCCESS)
			goto fail;
	} else if (PMPI_Recv(&sh, sizeof(sh), MPI_BYTE, remote_leader, tag, peer,
			     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
		goto fail;
	}
	out->sh = sh;
	out->err = sh != NULL ? MPI_SUCCESS : MPI_ERR_OTHER;
	free(mine);
	free(theirs);
	return;
fail:
	out->err = MPI_ERR_OTHER;
	free(mine);
	free(theirs);
}

/* Across nodes: every member learns the remote group from its leader, then both groups
 * make the intercommunicator as MPI_Comm_create_group on MPI_COMM_WORLD of their union
 * (group 0 first, with `tag`), an intercommunicator of gsize0 = group 0's size. */
static int ic_net(struct shl_rank *r, struct shl_comm *lc, int local_leader,
		  const struct ic_in *h, int tag, struct shl_comm_made *md)
{
	int n = lc->size, rn = h->rn, err;
	int *theirs = lc->rank == local_leader ? h->theirs : malloc((size_t)rn * sizeof(int));
	struct shl_group *g = shl_group_new(n + rn);
	struct shl_net_made nm = { .gsize0 = h->side ? rn : n };

	err = theirs != NULL && g != NULL ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	/* Every member calls the Bcast, even one out of memory: the others would wait. */
	if (PMPI_Bcast(theirs, theirs ? rn : 0, MPI_INT, local_leader, shl_comm_handle(lc))
	    != MPI_SUCCESS && err == MPI_SUCCESS)
		err = MPI_ERR_OTHER;
	if (err == MPI_SUCCESS) {
		int *w0 = g->world + (h->side ? rn : 0), *w1 = g->world + (h->side ? 0 : n);
		for (int i = 0; i < n; i++)
			w0[i] = shl_comm_world_rank(lc, i);
		memcpy(w1, theirs, (size_t)rn * sizeof(int));
		err = shl_comm_net_create_group(r, &r->world, g, tag, (h->side ? rn : 0) + lc->rank,
						&nm);
	}
	*md = (struct shl_comm_made){ nm.sh, nm.member };
	if (lc->rank != local_leader)
		free(theirs);
	shl_group_free(g);
	return err;
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
			  int remote_leader, int tag, MPI_Comm *newintercomm)
{
	const char *fn = "MPI_Intercomm_create";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *lc, *pc = NULL;
	struct ic_in lead = { .err = MPI_SUCCESS };
	struct ic_out o = { { NULL, 0 }, { .err = MPI_SUCCESS } };
	int err = shl_comm_arg_intra(fn, r, local_comm, &lc);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(lc, fn)) != MPI_SUCCESS)
		return err;
	if (newintercomm == NULL)
		return shl_err(lc, MPI_ERR_ARG, fn, "newintercomm is NULL");
	if (local_leader < 0 || local_leader >= lc->size)
		return shl_err(lc, MPI_ERR_RANK, fn, "local_leader %d is not a rank of local_comm "
			       "(size %d)", local_leader, lc->size);
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		return shl_err(lc, MPI_ERR_TAG, fn, "tag %d is outside 0..%d (MPI_TAG_UB)", tag,
			       MPI_TAG_UB_VALUE);
	if (lc->rank == local_leader) {
		/* peer_comm and remote_leader matter only here (MPI 4.1, 7.6.2). */
		pc = shl_comm_get(r, peer_comm);
		if (pc == NULL)
			return shl_err(lc, MPI_ERR_COMM, fn, "invalid communicator argument "
				       "peer_comm%s",
				       peer_comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
		if (remote_leader < 0 || remote_leader >= shl_comm_remote_size(pc))
			return shl_err(lc, MPI_ERR_RANK, fn, "remote_leader %d is not a rank of "
				       "peer_comm", remote_leader);
		if (shl_comm_remote_world(pc, remote_leader) == r->world_rank)
			return shl_err(lc, MPI_ERR_RANK, fn, "remote_leader is the local leader");
		ic_lead(r, lc, peer_comm, pc, remote_leader, tag, &lead);
	}
	if (lc->sh->offnode) {
		/* The local group spans nodes: always the network way; the leader's verdict
		 * (error or not, the remote size and side) through a Bcast. */
		int hdr[3] = { lead.err, lead.side, lead.rn };
		err = PMPI_Bcast(hdr, 3, MPI_INT, local_leader, local_comm);
		o.h = (struct ic_in){ .err = hdr[0], .side = hdr[1], .rn = hdr[2], .net = true,
				      .theirs = lead.theirs };
		if (err == MPI_SUCCESS)
			err = o.h.err;
	} else {
		err = shl_comm_meet_all(r, lc, fn, ic_run, lc->rank == local_leader ? &lead : NULL,
					&o);
		o.h.theirs = lead.theirs;
	}
	if (err == MPI_SUCCESS && o.h.net)
		err = ic_net(r, lc, local_leader, &o.h, tag, &o.md);
	free(lead.theirs);
	if (err != MPI_SUCCESS)
		return shl_err(lc, err, fn, "the leaders could not exchange the groups");
	return shl_comm_adopt(lc, &o.md, newintercomm, fn);
}
SHL_WEAK_ALIAS(Intercomm_create);
