/* MPI_Intercomm_merge: both groups of an intercommunicator meet (comm/meet.c) and the last
 * arriver builds the intracommunicator of their union, or across nodes a split of one
 * color orders them (comm/hooks.h). Entered by rank threads. Never blocks except in
 * shl_wait. MPI_Intercomm_create is not here: its leaders exchange their groups by
 * point-to-point over peer_comm and each group learns the result by a collective, so it
 * lives above both, in coll/intercomm.c; comm/ uses no point-to-point. */
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/internal.h"
#include "runtime/comm/hooks.h"

/* Both groups meet; the group whose members passed high = false comes first (group 0 of
 * the intercommunicator if both passed the same). */
static void merge_run(struct shl_meeting *m)
{
	const struct shl_comm_shared *p = m->sh;
	int h0 = *(const int *)m->arrival[0]->in, h1 = *(const int *)m->arrival[p->gsize[0]]->in;
	int first = h0 && !h1 ? 1 : 0, err = MPI_SUCCESS;
	int base[2] = { 0, p->gsize[0] };
	struct shl_comm_shared *sh = shl_comm_shared_make(p->nmembers, 0, false, &err);

	if (sh != NULL) {
		memcpy(sh->world, p->world + base[first], (size_t)p->gsize[first] * sizeof(int));
		memcpy(sh->world + p->gsize[first], p->world + base[!first],
		       (size_t)p->gsize[!first] * sizeof(int));
	}
	for (int i = 0; i < m->n; i++) {
		int side = i >= p->gsize[0], rank = i - base[side];
		m->arrival[i]->err = err;
		*(struct shl_comm_made *)m->arrival[i]->out = (struct shl_comm_made){
			sh, side == first ? rank : p->gsize[first] + rank };
	}
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	const char *fn = "MPI_Intercomm_merge";
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *p;
	struct shl_comm_made md = { NULL, 0 };
	int h = high != 0;
	int err = shl_comm_arg(fn, r, intercomm, &p);

	if (err != MPI_SUCCESS)
		return err;
	if ((err = shl_coll_usable(p, fn)) != MPI_SUCCESS)
		return err;
	if (!p->inter)
		return shl_err(p, MPI_ERR_COMM, fn, "intercomm is not an intercommunicator");
	if (newintracomm == NULL)
		return shl_err(p, MPI_ERR_ARG, fn, "newintracomm is NULL");
	if (p->sh->offnode) {
		/* A split of one color: the group that passed high = false first, group 0
		 * first if both passed the same, each in its order. */
		struct shl_net_made nm = { 0 };
		err = shl_comm_net_split(r, p, 0, h * p->sh->nmembers + p->member, &nm, NULL);
		md = (struct shl_comm_made){ nm.sh, nm.member };
	} else {
		err = shl_comm_meet_all(r, p, fn, merge_run, &h, &md);
	}
	if (err != MPI_SUCCESS)
		return shl_err(p, err, fn, "the groups could not merge");
	return shl_comm_adopt(p, &md, newintracomm, fn);
}
SHL_WEAK_ALIAS(Intercomm_merge);
