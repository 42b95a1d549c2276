/* A communicator's two objects and their lifetimes: the shared object its members agree on
 * (made with a context id, freed by the last member's drop, with what the collectives keep
 * on it) and each rank's own object, the view of one member of it (made by a constructor,
 * freed by MPI_Comm_free once no request holds it); MPI_COMM_WORLD's and MPI_COMM_SELF's at
 * job start; the check of a communicator argument. Entered by rank threads; shl_comm_job_init
 * by the node's main thread before ranks run. Must not write another rank's object: a
 * shared object is written only while it is being made, then through its own locks and
 * atomics. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/internal.h"
#include "runtime/comm/hooks.h"

/* ---- shared objects ---- */

/* A shared object for groups of n0 and n1 members (n1 > 0 only for an intercommunicator),
 * world[] unfilled, one reference per member, no context yet. */
static struct shl_comm_shared *shared_new(int n0, int n1, bool inter)
{
	int n = n0 + n1;
	size_t bytes = sizeof(struct shl_comm_shared);
	struct shl_comm_shared *sh = aligned_alloc(64, (bytes + 63) / 64 * 64);

	if (sh == NULL)
		return NULL;
	memset(sh, 0, bytes);
	sh->world = malloc((size_t)(n ? n : 1) * sizeof(int));
	size_t hist = (size_t)(n ? n : 1) * SHL_COLL_HIST * sizeof(sh->hist[0]);
	sh->hist = aligned_alloc(64, hist);
	if (sh->world == NULL || sh->hist == NULL) {
		free(sh->world);
		free(sh->hist);
		free(sh);
		return NULL;
	}
	memset(sh->hist, 0, hist);  /* entry 0 names no call: collectives are numbered from 1 */
	sh->inter = inter;
	sh->nmembers = n;
	sh->gsize[0] = n0;
	sh->gsize[1] = n1;
	atomic_init(&sh->refs, n);
	pthread_mutex_init(&sh->lock, NULL);
	return sh;
}

static void shared_free(struct shl_comm_shared *sh)
{
	shl_coll_shared_free(sh);
	pthread_mutex_destroy(&sh->lock);
	free(sh->hist);
	free(sh->world);
	free(sh);
}

struct shl_comm_shared *shl_comm_shared_make(int n0, int n1, bool inter, int *err)
{
	struct shl_comm_shared *sh = shared_new(n0, n1, inter);

	if (sh == NULL) {
		*err = MPI_ERR_NO_MEM;
		return NULL;
	}
	if (shl_ctx_agree(&sh->context) < 0) {
		shared_free(sh);
		*err = MPI_ERR_OTHER;  /* every context id is in use */
		return NULL;
	}
	return sh;
}

struct shl_comm_shared *shl_comm_shared_for(int n, uint32_t ctx, int refs)
{
	struct shl_comm_shared *sh = shared_new(n, 0, false);

	if (sh != NULL) {
		sh->context = ctx;
		atomic_store(&sh->refs, refs);
	}
	return sh;
}

void shl_comm_shared_drop(struct shl_comm_shared *sh)
{
	/* acq_rel: the last member out sees every other member's use of the object. */
	if (atomic_fetch_sub_explicit(&sh->refs, 1, memory_order_acq_rel) != 1)
		return;
	shl_ctx_unmark(sh->context);
	shared_free(sh);
}

int shl_comm_job_init(int size)
{
	struct shl_comm_shared *w = shared_new(size, 0, false);

	if (w == NULL)
		return -ENOMEM;
	w->context = SHL_CTX_WORLD;
	for (int i = 0; i < size; i++)
		w->world[i] = i;
	shl_ctx_init();
	for (int i = 0; i < size; i++) {
		struct shl_rank *r = shl_job.ranks[i];
		struct shl_comm_shared *s;

		if (r == NULL) {  /* a rank of another node */
			w->offnode = true;
			continue;
		}
		s = shared_new(1, 0, false);
		r->objs = calloc(1, sizeof(*r->objs));
		if (s == NULL || r->objs == NULL)
			return -ENOMEM;
		s->context = SHL_CTX_SELF;
		s->world[0] = i;
		/* Marked like their sentinels, so shl_comm_handle gives those back. */
		r->world.predef = SHL_COMM_IS_WORLD;
		r->self.predef = SHL_COMM_IS_SELF;
		r->world.sh = w;
		r->world.member = i;
		r->self.sh = s;
		r->self.member = 0;
		r->objs->universe_size = size;
		r->objs->last_used_code = MPI_ERR_LASTCODE;
	}
	return 0;
}

void shl_comm_finalize(struct shl_rank *r)
{
	shl_attr_delete_all(r, &r->self);
	shl_attr_delete_all(r, &r->world);
	shl_attr_finalize_types(r);
}

/* ---- per-rank objects ---- */

void shl_comm_view(struct shl_comm *c, struct shl_comm_shared *sh, int member)
{
	int side = sh->inter && member >= sh->gsize[0];
	int base = side ? sh->gsize[0] : 0;

	c->context = sh->context;
	c->sh = sh;
	c->member = member;
	c->rank = member - base;
	c->size = sh->gsize[side];
	c->world = sh->world + base;
	c->inter = sh->inter;
	if (sh->inter) {
		c->remote_size = sh->gsize[!side];
		c->remote_world = sh->world + (side ? 0 : sh->gsize[0]);
	}
}

struct shl_comm *shl_comm_alloc(struct shl_comm *parent)
{
	struct shl_comm *c = shl_handle_alloc(sizeof(*c));

	if (c == NULL)
		return NULL;
	c->magic = SHL_COMM_MAGIC;
	atomic_init(&c->refs, 1);
	c->errh = parent->errh;
	shl_errh_hold(c->errh);
	c->bsend_session = parent->bsend_session;
	return c;
}

void shl_comm_free_dropped(struct shl_comm *c)
{
	shl_errh_drop(c->errh);
	shl_info_free(c->info);
	shl_topo_drop(c->topo);
	if (c->sh != NULL)
		shl_comm_shared_drop(c->sh);
	shl_handle_free(c);
}

void shl_comm_release(struct shl_comm *c)
{
	c->magic = 0;
	shl_comm_drop(c);
}

int shl_comm_adopt(struct shl_comm *parent, const struct shl_comm_made *md, MPI_Comm *newcomm,
		   const char *fn)
{
	struct shl_comm *c;

	*newcomm = MPI_COMM_NULL;
	if (md->sh == NULL)
		return MPI_SUCCESS;
	c = shl_comm_alloc(parent);
	if (c == NULL) {
		shl_comm_shared_drop(md->sh);
		return shl_err(parent, MPI_ERR_NO_MEM, fn, "out of memory");
	}
	shl_comm_view(c, md->sh, md->member);
	*newcomm = c;
	return MPI_SUCCESS;
}

int shl_comm_arg(const char *fn, struct shl_rank *r, MPI_Comm comm, struct shl_comm **c)
{
	*c = shl_comm_get(r, comm);
	if (*c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm%s",
			       comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
	return MPI_SUCCESS;
}

int shl_comm_arg_intra(const char *fn, struct shl_rank *r, MPI_Comm comm, struct shl_comm **c)
{
	int err = shl_comm_arg(fn, r, comm, c);

	if (err == MPI_SUCCESS && (*c)->inter)
		return shl_err(*c, MPI_ERR_COMM, fn, "comm is an intercommunicator");
	return err;
}

/* ---- free ---- */

int PMPI_Comm_free(MPI_Comm *comm)
{
	struct shl_rank *r = shl_rank_or_die("MPI_Comm_free");
	struct shl_comm *c;
	int err;

	if (comm == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Comm_free", "comm is NULL");
	err = shl_comm_arg("MPI_Comm_free", r, *comm, &c);
	if (err != MPI_SUCCESS)
		return err;
	if (c->predef != SHL_COMM_NOT_PREDEF)
		return shl_err(c, MPI_ERR_COMM, "MPI_Comm_free", "%s cannot be freed", c->name);
	/* Delete callbacks run first; a failing one keeps the communicator (MPI 4.1, 7.7.2). */
	err = shl_attr_delete_all(r, c);
	if (err != MPI_SUCCESS)
		return shl_err(c, err, "MPI_Comm_free", "an attribute delete callback failed");
	shl_p2p_comm_buffer_end(r, c);
	shl_comm_release(c);
	*comm = MPI_COMM_NULL;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Comm_free);
