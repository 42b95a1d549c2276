/* Windows: their creation in four flavours (memory given, allocated, shared by the node's
 * ranks, attached later), the members' table every origin reads, MPI_Win_shared_query,
 * MPI_Win_attach/detach, and MPI_Win_free. Entered by rank threads; a creation and a free
 * are collective over the window's ranks. Must not access a target's memory (access.c
 * does) nor hold the rank lock across the collectives it runs.
 *
 * A creation makes the window's own communicator (MPI_Comm_split of the creator's: no
 * attribute is copied), the rank's target (its lock and attached regions), then one
 * allgather of every member's base, size, unit and target: an origin on this node reaches
 * a target's memory through that table alone, with no call into the target. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rma/rma.h"

/* Shared windows with alloc_shared_noncontig: each rank's segment starts on a page of its
 * own, so that ranks writing their own segments do not share a line or a page. */
#define SHL_WIN_NONCONTIG_ALIGN 4096

/* What one member publishes at creation. */
struct published {
	char *base;
	MPI_Aint size;
	MPI_Aint disp_unit;
	struct shl_win_target *t;
};

static void target_free(struct shl_win_target *t)
{
	if (t == NULL)
		return;
	pthread_mutex_destroy(&t->mu);
	free(t->sleepers);
	free(t->regions);
	free(t);
}

static struct shl_win_target *target_new(void)
{
	struct shl_win_target *t = aligned_alloc(64, sizeof(*t));

	if (t == NULL)
		return NULL;
	memset(t, 0, sizeof(*t));
	atomic_init(&t->lock, 0);
	atomic_init(&t->waiting, 0);
	pthread_mutex_init(&t->mu, NULL);
	return t;
}

/* Everything a half-made or freed window holds, but its communicator. */
static void win_release(struct shl_win *w)
{
	target_free(w->self);
	free(w->peers);
	free(w->locked);
	free(w->in_start);
	free(w->rank_of_world);
	free(w->start);
	free(w->post);
	free(w->post_done);
	free((void *)w->pending);
	if (w->info != NULL)
		shl_info_free(w->info);
	if (w->errh != NULL)
		shl_errh_drop(w->errh);
	shl_handle_free(w);
}

/* The shared flavor: one allocation for the node's ranks, by the window's rank 0, each
 * rank's segment following the previous one's (MPI 4.1, 12.2.3), or page-aligned with
 * alloc_shared_noncontig. Sets *base. */
static int alloc_shared(struct shl_win *w, MPI_Aint size, bool noncontig, char **base)
{
	MPI_Aint *sizes = malloc((size_t)w->size * sizeof(*sizes));
	MPI_Aint at = 0, total = 0;
	char *seg = NULL;
	int err;

	if (sizes == NULL)
		return MPI_ERR_NO_MEM;
	err = PMPI_Allgather(&size, 1, MPI_AINT, sizes, 1, MPI_AINT, w->comm);
	for (int i = 0; err == MPI_SUCCESS && i < w->size; i++) {
		if (noncontig)
			total = (total + SHL_WIN_NONCONTIG_ALIGN - 1) & ~(MPI_Aint)(SHL_WIN_NONCONTIG_ALIGN - 1);
		if (i == w->rank)
			at = total;
		total += sizes[i];
	}
	free(sizes);
	if (err != MPI_SUCCESS)
		return err;
	/* Rank 0 allocates; a failure reaches every rank as a NULL segment. */
	if (w->rank == 0 && total > 0) {
		seg = aligned_alloc(SHL_WIN_NONCONTIG_ALIGN,
				    ((size_t)total + SHL_WIN_NONCONTIG_ALIGN - 1) &
					    ~(size_t)(SHL_WIN_NONCONTIG_ALIGN - 1));
		w->alloc = seg;
	}
	err = PMPI_Bcast(&seg, sizeof(seg), MPI_BYTE, 0, w->comm);
	if (err != MPI_SUCCESS)
		return err;
	if (seg == NULL && total > 0)
		return MPI_ERR_NO_MEM;
	*base = size > 0 ? seg + at : NULL;
	return MPI_SUCCESS;
}

/* Every member's entry, from one allgather; this node's members keep their target. */
static int publish(struct shl_win *w, char *base, MPI_Aint size, MPI_Aint disp_unit)
{
	struct published mine = { base, size, disp_unit, w->self };
	struct published *all = malloc((size_t)w->size * sizeof(*all));
	int err;

	w->peers = malloc((size_t)w->size * sizeof(*w->peers));
	if (all == NULL || w->peers == NULL) {
		free(all);
		return MPI_ERR_NO_MEM;
	}
	err = PMPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE, w->comm);
	for (int i = 0; err == MPI_SUCCESS && i < w->size; i++) {
		int world = shl_comm_world_rank(w->c, i);
		bool here = shl_job.ranks[world] != NULL;
		w->peers[i] = (struct shl_win_peer){ .base = here ? all[i].base : NULL,
						     .size = all[i].size,
						     .disp_unit = all[i].disp_unit,
						     .world = world,
						     .t = here ? all[i].t : NULL };
	}
	free(all);
	return err;
}

/* The creation every flavour shares: window `*win` over `comm` of this rank's `size` bytes
 * at `base` (allocated here for ALLOCATE and SHARED, returned in *baseptr). */
static int create(const char *fn, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
		  MPI_Comm comm, int flavor, void *baseptr, MPI_Win *win)
{
	struct shl_rank *r = shl_rank_or_die(fn);
	struct shl_comm *c;
	struct shl_win *w;
	int err;

	if ((err = shl_comm_arg_intra(fn, r, comm, &c)) != MPI_SUCCESS)
		return err;
	if (win == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "win is NULL");
	if (size < 0)
		return shl_err(c, MPI_ERR_SIZE, fn, "size %ld is negative", (long)size);
	if (disp_unit <= 0)
		return shl_err(c, MPI_ERR_DISP, fn, "disp_unit %ld is not positive", (long)disp_unit);
	if (baseptr == NULL && (flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED))
		return shl_err(c, MPI_ERR_ARG, fn, "baseptr is NULL");
	if (info != MPI_INFO_NULL && shl_info_get(r, info) == NULL)
		return shl_err(c, MPI_ERR_INFO, fn, "info is not a valid info object");
	if (flavor == MPI_WIN_FLAVOR_SHARED && c->sh->offnode)
		return shl_err(c, MPI_ERR_RMA_SHARED, fn,
			       "the ranks of comm are on several nodes, which share no memory "
			       "(split it with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) first)");
	w = shl_handle_alloc(sizeof(*w));
	if (w == NULL)
		return shl_err(c, MPI_ERR_NO_MEM, fn, "no memory for a window");
	w->flavor = flavor;
	w->nstart = -1;
	w->npost = -1;
	w->errh = MPI_ERRORS_ARE_FATAL;
	w->offnode = c->sh->offnode;
	err = PMPI_Comm_split(comm, 0, c->rank, &w->comm);
	if (err != MPI_SUCCESS) {
		w->errh = NULL;
		win_release(w);
		return shl_err(c, err, fn, "could not make the window's communicator");
	}
	PMPI_Comm_set_errhandler(w->comm, MPI_ERRORS_RETURN);
	w->c = shl_comm_get(r, w->comm);
	w->rank = w->c->rank;
	w->size = w->c->size;
	w->self = target_new();
	w->locked = calloc((size_t)w->size, 1);
	w->in_start = calloc((size_t)w->size, 1);
	if (w->offnode)
		w->pending = calloc((size_t)w->size, sizeof(*w->pending));
	err = w->self && w->locked && w->in_start && (!w->offnode || w->pending)
		      ? shl_win_hints(w, info, fn)
		      : MPI_ERR_NO_MEM;
	if (err == MPI_SUCCESS && flavor == MPI_WIN_FLAVOR_ALLOCATE && size > 0) {
		base = w->alloc = aligned_alloc(64, ((size_t)size + 63) & ~(size_t)63);
		if (base == NULL)
			err = MPI_ERR_NO_MEM;
	}
	/* Every rank takes part in the shared allocation, failed or not, so none waits. */
	if (flavor == MPI_WIN_FLAVOR_SHARED) {
		char *b = NULL;
		int e = alloc_shared(w, err == MPI_SUCCESS ? size : 0, w->alloc_shared_noncontig, &b);
		err = err != MPI_SUCCESS ? err : e;
		base = b;
	}
	if (flavor == MPI_WIN_FLAVOR_DYNAMIC) {
		base = NULL;
		size = 0;
	}
	if (err == MPI_SUCCESS) {
		w->self->base = base;
		w->self->size = size;
		w->self->disp_unit = disp_unit;
		/* Before the allgather that lets any origin address us. */
		if (w->offnode && shl_rma_remote_expose(w, w->self) < 0)
			err = MPI_ERR_NO_MEM;
	}
	/* The exchange is collective: every rank makes it, whatever failed before. */
	int e = publish(w, base, size, disp_unit);
	err = err != MPI_SUCCESS ? err : e;
	if (err != MPI_SUCCESS) {
		if (w->offnode)
			shl_rma_remote_forget(w);
		free(w->alloc);
		PMPI_Comm_free(&w->comm);
		win_release(w);
		return shl_err(c, err, fn, "the window could not be made%s",
			       err == MPI_ERR_NO_MEM ? ": out of memory" : "");
	}
	shl_win_attrs_init(w);
	w->magic = SHL_WIN_MAGIC;
	if (baseptr != NULL)
		memcpy(baseptr, &base, sizeof(base));
	*win = w;
	return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
		    MPI_Win *win)
{
	return create("MPI_Win_create", base, size, disp_unit, info, comm, MPI_WIN_FLAVOR_CREATE,
		      NULL, win);
}
SHL_WEAK_ALIAS(Win_create);

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
		      MPI_Comm comm, MPI_Win *win)
{
	return create("MPI_Win_create_c", base, size, disp_unit, info, comm,
		      MPI_WIN_FLAVOR_CREATE, NULL, win);
}
SHL_WEAK_ALIAS(Win_create_c);

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
		      MPI_Win *win)
{
	return create("MPI_Win_allocate", NULL, size, disp_unit, info, comm,
		      MPI_WIN_FLAVOR_ALLOCATE, baseptr, win);
}
SHL_WEAK_ALIAS(Win_allocate);

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
			void *baseptr, MPI_Win *win)
{
	return create("MPI_Win_allocate_c", NULL, size, disp_unit, info, comm,
		      MPI_WIN_FLAVOR_ALLOCATE, baseptr, win);
}
SHL_WEAK_ALIAS(Win_allocate_c);

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
			     void *baseptr, MPI_Win *win)
{
	return create("MPI_Win_allocate_shared", NULL, size, disp_unit, info, comm,
		      MPI_WIN_FLAVOR_SHARED, baseptr, win);
}
SHL_WEAK_ALIAS(Win_allocate_shared);

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
			       void *baseptr, MPI_Win *win)
{
	return create("MPI_Win_allocate_shared_c", NULL, size, disp_unit, info, comm,
		      MPI_WIN_FLAVOR_SHARED, baseptr, win);
}
SHL_WEAK_ALIAS(Win_allocate_shared_c);

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	return create("MPI_Win_create_dynamic", NULL, 0, 1, info, comm, MPI_WIN_FLAVOR_DYNAMIC,
		      NULL, win);
}
SHL_WEAK_ALIAS(Win_create_dynamic);

/* MPI_Win_shared_query(_c): member `rank`'s segment (MPI_PROC_NULL: the first rank's with
 * a size above 0). */
static int shared_query(const char *fn, MPI_Win win, int rank, MPI_Aint *size,
			MPI_Aint *disp_unit, void *baseptr)
{
	struct shl_win *w;
	int err = shl_win_arg(fn, win, &w);

	if (err != MPI_SUCCESS)
		return err;
	if (w->flavor != MPI_WIN_FLAVOR_SHARED)
		return shl_win_err(w, MPI_ERR_RMA_FLAVOR, fn,
				   "win was not made by MPI_Win_allocate_shared");
	if (size == NULL || disp_unit == NULL || baseptr == NULL)
		return shl_win_err(w, MPI_ERR_ARG, fn, "size, disp_unit or baseptr is NULL");
	if (rank == MPI_PROC_NULL) {
		for (rank = 0; rank < w->size - 1 && w->peers[rank].size == 0; rank++)
			;
	} else if (rank < 0 || rank >= w->size) {
		return shl_win_err(w, MPI_ERR_RANK, fn, "rank %d is not a rank of the window "
				   "(size %d)", rank, w->size);
	}
	*size = w->peers[rank].size;
	*disp_unit = w->peers[rank].disp_unit;
	memcpy(baseptr, &w->peers[rank].base, sizeof(void *));
	return MPI_SUCCESS;
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
	MPI_Aint unit;
	int err = shared_query("MPI_Win_shared_query", win, rank, size, disp_unit ? &unit : NULL,
			       baseptr);

	if (err == MPI_SUCCESS)
		*disp_unit = (int)unit;
	return err;
}
SHL_WEAK_ALIAS(Win_shared_query);

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
			    void *baseptr)
{
	return shared_query("MPI_Win_shared_query_c", win, rank, size, disp_unit, baseptr);
}
SHL_WEAK_ALIAS(Win_shared_query_c);

/* A dynamic window's target, `w` checked: the attach and detach checks. */
static int dynamic_arg(const char *fn, MPI_Win win, struct shl_win **w)
{
	int err = shl_win_arg(fn, win, w);

	if (err == MPI_SUCCESS && (*w)->flavor != MPI_WIN_FLAVOR_DYNAMIC)
		return shl_win_err(*w, MPI_ERR_RMA_FLAVOR, fn,
				   "win was not made by MPI_Win_create_dynamic");
	return err;
}

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
	static const char fn[] = "MPI_Win_attach";
	struct shl_win *w;
	struct shl_win_target *t;
	int err = dynamic_arg(fn, win, &w), i;
	char *b = base;

	if (err != MPI_SUCCESS)
		return err;
	if (size < 0)
		return shl_win_err(w, MPI_ERR_SIZE, fn, "size %ld is negative", (long)size);
	if (base == NULL && size > 0)
		return shl_win_err(w, MPI_ERR_BASE, fn, "base is NULL");
	t = w->self;
	pthread_mutex_lock(&t->mu);
	for (i = 0; i < t->nregions && t->regions[i].base < b; i++)
		;
	/* Regions are kept by address; the new one must end before its successor and start
	 * after its predecessor's end. */
	bool overlaps = (i < t->nregions && b + size > t->regions[i].base) ||
			(i > 0 && t->regions[i - 1].base + t->regions[i - 1].size > b) ||
			(i < t->nregions && t->regions[i].base == b);
	if (!overlaps && t->nregions == t->cap_regions) {
		int cap = t->cap_regions ? 2 * t->cap_regions : 8;
		struct shl_win_region *g = realloc(t->regions, (size_t)cap * sizeof(*g));
		if (g == NULL) {
			pthread_mutex_unlock(&t->mu);
			return shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
		}
		t->regions = g;
		t->cap_regions = cap;
	}
	if (!overlaps) {
		memmove(t->regions + i + 1, t->regions + i,
			(size_t)(t->nregions - i) * sizeof(*t->regions));
		t->regions[i] = (struct shl_win_region){ b, size };
		t->nregions++;
	}
	pthread_mutex_unlock(&t->mu);
	if (overlaps)
		return shl_win_err(w, MPI_ERR_RMA_ATTACH, fn, "[%p, %p) overlaps memory attached "
				   "to the window already", base, (void *)(b + size));
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_attach);

int PMPI_Win_detach(MPI_Win win, const void *base)
{
	static const char fn[] = "MPI_Win_detach";
	struct shl_win *w;
	struct shl_win_target *t;
	int err = dynamic_arg(fn, win, &w), i;

	if (err != MPI_SUCCESS)
		return err;
	t = w->self;
	pthread_mutex_lock(&t->mu);
	for (i = 0; i < t->nregions && t->regions[i].base != base; i++)
		;
	bool found = i < t->nregions;
	if (found) {
		memmove(t->regions + i, t->regions + i + 1,
			(size_t)(t->nregions - i - 1) * sizeof(*t->regions));
		t->nregions--;
	}
	pthread_mutex_unlock(&t->mu);
	if (!found)
		return shl_win_err(w, MPI_ERR_RMA_ATTACH, fn, "base %p starts no memory attached "
				   "to the window", base);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_detach);

int PMPI_Win_free(MPI_Win *win)
{
	static const char fn[] = "MPI_Win_free";
	struct shl_win *w;
	int err;

	if (win == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "win is NULL");
	if ((err = shl_win_arg(fn, *win, &w)) != MPI_SUCCESS)
		return err;
	struct shl_rank *r = shl_self;
	if (w->lock_all || w->nlocked > 0 || w->nstart >= 0 || w->npost >= 0)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "an epoch is still open on win (%s)",
				   w->lock_all ? "MPI_Win_lock_all without MPI_Win_unlock_all"
				   : w->nlocked > 0 ? "MPI_Win_lock without MPI_Win_unlock"
				   : w->nstart >= 0 ? "MPI_Win_start without MPI_Win_complete"
						    : "MPI_Win_post without MPI_Win_wait");
	/* Every access by this rank is done before the barrier, so after it no origin can
	 * touch any member's memory or target. */
	if (w->offnode && (err = shl_rma_remote_flush(r, w, -1)) != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "an access of an earlier epoch failed");
	if ((err = PMPI_Barrier(w->comm)) != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "the closing barrier failed");
	if ((err = shl_win_attrs_delete(w)) != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "an attribute's delete callback failed");
	if (w->offnode)
		shl_rma_remote_forget(w);
	free(w->alloc);  /* the shared flavor's segment is rank 0's, freed after the barrier */
	PMPI_Comm_free(&w->comm);
	w->magic = 0;
	win_release(w);
	*win = MPI_WIN_NULL;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_free);
