/* Synchronization of windows: MPI_Win_fence; MPI_Win_post, _start, _complete, _wait and
 * _test; MPI_Win_lock, _unlock, _lock_all, _unlock_all; the flushes; MPI_Win_sync; and a
 * target's lock word. Entered by rank threads; a lock is also taken and given back by
 * arrivals from other nodes (remote.c, through shl_rma_lock_try and
 * shl_rma_lock_release).
 *
 * Accesses to this node's targets are done when their call returns (access.c), so what
 * synchronization adds on a node is ordering and exclusion: a fence is a barrier of the
 * window's communicator; a post or a completion is a message on it (tags SHL_RMA_TAG_*);
 * a lock is the target's lock word, which an origin that cannot take it waits for asleep
 * (shl_wait), woken by the release. Accesses to other nodes' targets are waited for
 * (shl_rma_remote_flush) before any of these says they are complete. */
#include <stdlib.h>
#include <string.h>

#include "runtime/rma/rma.h"

/* ---- the lock word ---- */

bool shl_rma_lock_try(struct shl_win_target *t, bool exclusive)
{
	uint64_t v = atomic_load_explicit(&t->lock, memory_order_relaxed);

	/* Acquire on success: the holder sees what the last releaser wrote. A shared taker
	 * never moves the word while an exclusive holder has it, so no transient count can
	 * turn an exclusive taker away once the word is free. */
	if (exclusive)
		return v == 0 && atomic_compare_exchange_strong_explicit(
					 &t->lock, &v, SHL_WIN_LOCK_EXCL, memory_order_acquire,
					 memory_order_relaxed);
	while (!(v & SHL_WIN_LOCK_EXCL))
		if (atomic_compare_exchange_weak_explicit(&t->lock, &v, v + 1, memory_order_acquire,
							  memory_order_relaxed))
			return true;
	return false;
}

void shl_rma_lock_release(struct shl_win_target *t, bool exclusive)
{
	/* seq_cst: ordered before the load of `waiting` below, against a waiter's seq_cst
	 * increment of `waiting` before its last try (lock_here): either the waiter's try
	 * sees the word free, or this load sees the waiter. */
	if (exclusive)
		atomic_store(&t->lock, 0);
	else
		atomic_fetch_sub(&t->lock, 1);
	if (atomic_load(&t->waiting) == 0)
		return;
	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < t->nsleepers; i++)
		shl_rank_wake(shl_job.ranks[t->sleepers[i]]);
	bool queued = t->queue != NULL;
	pthread_mutex_unlock(&t->mu);
	if (queued)
		shl_rma_remote_grant(t);
}

struct lock_wait {
	struct shl_win_target *t;
	bool exclusive;
	bool taken;
};

/* A wait's `done` may be asked again after it said true (shl_wait's last look before a
 * sleep, then its poll): a lock taken is remembered, not tried again. */
static bool lock_taken(void *arg)
{
	struct lock_wait *lw = arg;

	if (!lw->taken)
		lw->taken = shl_rma_lock_try(lw->t, lw->exclusive);
	return lw->taken;
}

/* Take the lock of `t`, on this node, for rank `r`: asleep until a release wakes it. */
static int lock_here(struct shl_rank *r, struct shl_win_target *t, bool exclusive)
{
	struct lock_wait lw = { t, exclusive, false };

	if (shl_rma_lock_try(t, exclusive))
		return MPI_SUCCESS;
	pthread_mutex_lock(&t->mu);
	if (t->nsleepers == t->cap_sleepers) {
		int cap = t->cap_sleepers ? 2 * t->cap_sleepers : 4;
		int *g = realloc(t->sleepers, (size_t)cap * sizeof(*g));
		if (g == NULL) {
			pthread_mutex_unlock(&t->mu);
			return MPI_ERR_NO_MEM;
		}
		t->sleepers = g;
		t->cap_sleepers = cap;
	}
	t->sleepers[t->nsleepers++] = r->world_rank;
	pthread_mutex_unlock(&t->mu);
	atomic_fetch_add(&t->waiting, 1);  /* seq_cst: see shl_rma_lock_release */
	shl_rank_lock(r);
	shl_wait(r, lock_taken, &lw);
	shl_rank_unlock(r);
	atomic_fetch_sub(&t->waiting, 1);
	pthread_mutex_lock(&t->mu);
	for (int i = 0; i < t->nsleepers; i++)
		if (t->sleepers[i] == r->world_rank) {
			t->sleepers[i] = t->sleepers[--t->nsleepers];
			break;
		}
	pthread_mutex_unlock(&t->mu);
	return MPI_SUCCESS;
}

/* ---- shared checks ---- */

/* Assertion bits of `fn` must be among `allowed`. */
static int check_assert(struct shl_win *w, const char *fn, int assert, int allowed)
{
	if ((assert & ~allowed) == 0)
		return MPI_SUCCESS;
	return shl_win_err(w, MPI_ERR_ASSERT, fn, "assert %#x holds bits (%#x) that are no "
			   "assertion of this call", assert, assert & ~allowed);
}

/* A rank argument of a passive-target call: valid, and (`held`) locked by this rank. */
static int check_rank(struct shl_win *w, const char *fn, int rank, bool held)
{
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (rank < 0 || rank >= w->size)
		return shl_win_err(w, MPI_ERR_RANK, fn, "rank %d is not a rank of the window "
				   "(size %d)", rank, w->size);
	if (held && !w->lock_all && !w->locked[rank])
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "rank %d is not locked by this rank "
				   "(MPI_Win_lock or MPI_Win_lock_all first)", rank);
	return MPI_SUCCESS;
}

/* Wait for the accesses to `target` (-1: all) on other nodes. */
static int flush(struct shl_win *w, const char *fn, int target)
{
	int err;

	if (!w->offnode || (target >= 0 && w->peers[target].t != NULL))
		return MPI_SUCCESS;
	err = shl_rma_remote_flush(shl_self, w, target);
	return err == MPI_SUCCESS ? err : shl_win_err(w, err, fn, "an access to %s failed at "
						      "the target", target >= 0 ? "the target"
						      : "a target");
}

/* ---- fence ---- */

int PMPI_Win_fence(int assert, MPI_Win win)
{
	static const char fn[] = "MPI_Win_fence";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS ||
	    (err = check_assert(w, fn, assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT |
				MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)) != MPI_SUCCESS)
		return err;
	if (w->lock_all || w->nlocked > 0 || w->nstart >= 0 || w->npost >= 0)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "a %s epoch is open on the window",
				   w->nstart >= 0 || w->npost >= 0 ? "post/start" : "lock");
	if ((err = flush(w, fn, -1)) != MPI_SUCCESS)
		return err;
	/* A fence that neither completes accesses nor lets any start needs no barrier. */
	if ((assert & (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)) !=
		    (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED) &&
	    (err = PMPI_Barrier(w->comm)) != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "the fence's barrier failed");
	w->fence = !(assert & MPI_MODE_NOSUCCEED);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_fence);

/* ---- post, start, complete, wait ---- */

/* The window ranks of `group`'s members into `out` (g->size of them). */
static int group_ranks(struct shl_win *w, const char *fn, MPI_Group group, int *out)
{
	if (w->rank_of_world == NULL) {
		w->rank_of_world = malloc((size_t)shl_job.size * sizeof(int));
		if (w->rank_of_world == NULL)
			return shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
		for (int i = 0; i < shl_job.size; i++)
			w->rank_of_world[i] = -1;
		for (int i = 0; i < w->size; i++)
			w->rank_of_world[w->peers[i].world] = i;
	}
	for (int j = 0; j < group->size; j++) {
		int i = w->rank_of_world[group->world[j]];
		if (i < 0)
			return shl_win_err(w, MPI_ERR_GROUP, fn, "member %d of group (world rank %d) "
					   "is not a member of the window", j, group->world[j]);
		out[j] = i;
	}
	return MPI_SUCCESS;
}

/* The window ranks of `group` in *ranks, and room for a request per member in *reqs. */
static int group_arrays(struct shl_win *w, const char *fn, MPI_Group group, int **ranks,
			MPI_Request **reqs)
{
	size_t n = group->size ? (size_t)group->size : 1;
	int err;

	*ranks = malloc(n * sizeof(**ranks));
	*reqs = malloc(n * sizeof(**reqs));
	err = *ranks && *reqs ? group_ranks(w, fn, group, *ranks)
			      : shl_win_err(w, MPI_ERR_NO_MEM, fn, "out of memory");
	if (err != MPI_SUCCESS) {
		free(*ranks);
		free(*reqs);
	}
	return err;
}

static int check_group(struct shl_win *w, const char *fn, MPI_Group group)
{
	if (!shl_group_ok(group))
		return shl_win_err(w, MPI_ERR_GROUP, fn, "group is not a valid group%s",
				   group == MPI_GROUP_NULL ? " (MPI_GROUP_NULL)" : "");
	return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
	static const char fn[] = "MPI_Win_post";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS ||
	    (err = check_group(w, fn, group)) != MPI_SUCCESS ||
	    (err = check_assert(w, fn, assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE |
				MPI_MODE_NOPUT)) != MPI_SUCCESS)
		return err;
	if (w->npost >= 0)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "an exposure epoch is open already "
				   "(MPI_Win_wait or MPI_Win_test ends it)");
	int n = group->size, *post;
	MPI_Request *done;
	if ((err = group_arrays(w, fn, group, &post, &done)) != MPI_SUCCESS)
		return err;
	/* The completions' receives first, so that no origin's completion waits unexpected;
	 * then each origin may start (unless it was told it need not wait: NOCHECK). */
	for (int j = 0; j < n && err == MPI_SUCCESS; j++)
		err = PMPI_Irecv(NULL, 0, MPI_BYTE, post[j], SHL_RMA_TAG_COMPLETE, w->comm, &done[j]);
	for (int j = 0; j < n && err == MPI_SUCCESS && !(assert & MPI_MODE_NOCHECK); j++)
		err = PMPI_Send(NULL, 0, MPI_BYTE, post[j], SHL_RMA_TAG_POST, w->comm);
	if (err != MPI_SUCCESS) {
		free(post);
		free(done);
		return shl_win_err(w, err, fn, "could not tell the origins");
	}
	free(w->post);
	free(w->post_done);
	w->post = post;
	w->post_done = done;
	w->npost = n;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_post);

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
	static const char fn[] = "MPI_Win_start";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS ||
	    (err = check_group(w, fn, group)) != MPI_SUCCESS ||
	    (err = check_assert(w, fn, assert, MPI_MODE_NOCHECK)) != MPI_SUCCESS)
		return err;
	if (w->nstart >= 0)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "an access epoch is open already "
				   "(MPI_Win_complete ends it)");
	int n = group->size, *start;
	MPI_Request *posted;
	if ((err = group_arrays(w, fn, group, &start, &posted)) != MPI_SUCCESS)
		return err;
	/* Accesses are done in their calls: the epoch starts once every target has posted. */
	if (!(assert & MPI_MODE_NOCHECK)) {
		for (int j = 0; j < n && err == MPI_SUCCESS; j++)
			err = PMPI_Irecv(NULL, 0, MPI_BYTE, start[j], SHL_RMA_TAG_POST, w->comm,
					 &posted[j]);
		if (err == MPI_SUCCESS)
			err = PMPI_Waitall(n, posted, MPI_STATUSES_IGNORE);
	}
	free(posted);
	if (err != MPI_SUCCESS) {
		free(start);
		return shl_win_err(w, err, fn, "could not wait for the targets' posts");
	}
	for (int j = 0; j < n; j++)
		w->in_start[start[j]] = 1;
	free(w->start);
	w->start = start;
	w->nstart = n;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_start);

int PMPI_Win_complete(MPI_Win win)
{
	static const char fn[] = "MPI_Win_complete";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (w->nstart < 0)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "no access epoch is open (MPI_Win_start "
				   "first)");
	for (int j = 0; j < w->nstart && err == MPI_SUCCESS; j++)
		err = flush(w, fn, w->start[j]);
	for (int j = 0; j < w->nstart; j++)
		w->in_start[w->start[j]] = 0;
	/* The epoch ends even when an access failed: the targets wait for its end. */
	for (int j = 0; j < w->nstart; j++) {
		int e = PMPI_Send(NULL, 0, MPI_BYTE, w->start[j], SHL_RMA_TAG_COMPLETE, w->comm);
		if (e != MPI_SUCCESS && err == MPI_SUCCESS)
			err = shl_win_err(w, e, fn, "could not tell target %d", w->start[j]);
	}
	w->nstart = -1;
	return err;
}
SHL_WEAK_ALIAS(Win_complete);

/* MPI_Win_wait (`flag` NULL) and MPI_Win_test. */
static int wait_origins(const char *fn, MPI_Win win, int *flag)
{
	struct shl_win *w;
	int err, done = 1;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (w->npost < 0)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "no exposure epoch is open (MPI_Win_post "
				   "first)");
	err = flag != NULL ? PMPI_Testall(w->npost, w->post_done, &done, MPI_STATUSES_IGNORE)
			   : PMPI_Waitall(w->npost, w->post_done, MPI_STATUSES_IGNORE);
	if (err != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "could not wait for the origins");
	if (flag != NULL)
		*flag = done;
	if (done)
		w->npost = -1;
	return MPI_SUCCESS;
}

int PMPI_Win_wait(MPI_Win win)
{
	return wait_origins("MPI_Win_wait", win, NULL);
}
SHL_WEAK_ALIAS(Win_wait);

int PMPI_Win_test(MPI_Win win, int *flag)
{
	if (flag == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Win_test", "flag is NULL");
	return wait_origins("MPI_Win_test", win, flag);
}
SHL_WEAK_ALIAS(Win_test);

/* ---- locks ---- */

/* Take the lock of `target` for this rank. */
static int take(struct shl_win *w, int target, bool exclusive)
{
	struct shl_win_peer *p = &w->peers[target];

	if (p->t != NULL)
		return lock_here(shl_self, p->t, exclusive);
	return shl_rma_remote_lock(shl_self, w, target, exclusive);
}

/* Give back the lock of `target` (its accesses from this rank complete first). */
static int give_back(struct shl_win *w, const char *fn, int target, bool exclusive)
{
	struct shl_win_peer *p = &w->peers[target];
	int err;

	if (p->t != NULL) {
		shl_rma_lock_release(p->t, exclusive);
		return MPI_SUCCESS;
	}
	err = flush(w, fn, target);
	int e = shl_rma_remote_unlock(shl_self, w, target, exclusive);
	return err != MPI_SUCCESS ? err : e == MPI_SUCCESS ? e
				    : shl_win_err(w, e, fn, "could not unlock target %d", target);
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
	static const char fn[] = "MPI_Win_lock";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
		return shl_win_err(w, MPI_ERR_LOCKTYPE, fn, "lock_type %d is neither "
				   "MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", lock_type);
	if ((err = check_rank(w, fn, rank, false)) != MPI_SUCCESS ||
	    (err = check_assert(w, fn, assert, MPI_MODE_NOCHECK)) != MPI_SUCCESS)
		return err;
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (w->lock_all || w->locked[rank])
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "rank %d is locked already by this "
				   "rank%s", rank, w->lock_all ? " (MPI_Win_lock_all)" : "");
	if (w->no_locks)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "the window was made with the info "
				   "hint no_locks=true");
	bool exclusive = lock_type == MPI_LOCK_EXCLUSIVE;
	if (!(assert & MPI_MODE_NOCHECK) && (err = take(w, rank, exclusive)) != MPI_SUCCESS)
		return shl_win_err(w, err, fn, "could not lock rank %d", rank);
	w->locked[rank] = (uint8_t)((exclusive ? SHL_WIN_EXCLUSIVE : SHL_WIN_SHARED) |
				    (assert & MPI_MODE_NOCHECK ? SHL_WIN_NOCHECK : 0));
	w->nlocked++;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_lock);

int PMPI_Win_unlock(int rank, MPI_Win win)
{
	static const char fn[] = "MPI_Win_unlock";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS ||
	    (err = check_rank(w, fn, rank, false)) != MPI_SUCCESS)
		return err;
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	int state = w->locked[rank];
	if (state == SHL_WIN_UNLOCKED)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "rank %d is not locked by MPI_Win_lock "
				   "of this rank", rank);
	w->locked[rank] = SHL_WIN_UNLOCKED;
	w->nlocked--;
	if (state & SHL_WIN_NOCHECK)
		return flush(w, fn, rank);
	return give_back(w, fn, rank, (state & ~SHL_WIN_NOCHECK) == SHL_WIN_EXCLUSIVE);
}
SHL_WEAK_ALIAS(Win_unlock);

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
	static const char fn[] = "MPI_Win_lock_all";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS ||
	    (err = check_assert(w, fn, assert, MPI_MODE_NOCHECK)) != MPI_SUCCESS)
		return err;
	if (w->lock_all || w->nlocked > 0)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "this rank holds %s already",
				   w->lock_all ? "MPI_Win_lock_all" : "locks of MPI_Win_lock");
	if (w->no_locks)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "the window was made with the info "
				   "hint no_locks=true");
	for (int i = 0; i < w->size && !(assert & MPI_MODE_NOCHECK); i++)
		if ((err = take(w, i, false)) != MPI_SUCCESS) {
			while (i-- > 0)
				give_back(w, fn, i, false);
			return shl_win_err(w, err, fn, "could not lock rank %d", i);
		}
	w->lock_all = true;
	w->lock_all_nocheck = assert & MPI_MODE_NOCHECK;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_lock_all);

int PMPI_Win_unlock_all(MPI_Win win)
{
	static const char fn[] = "MPI_Win_unlock_all";
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (!w->lock_all)
		return shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "this rank holds no MPI_Win_lock_all");
	w->lock_all = false;
	if (w->lock_all_nocheck)
		return flush(w, fn, -1);
	for (int i = 0; i < w->size; i++) {
		int e = give_back(w, fn, i, false);
		err = err != MPI_SUCCESS ? err : e;
	}
	return err;
}
SHL_WEAK_ALIAS(Win_unlock_all);

/* ---- flushes and sync ---- */

/* MPI_Win_flush(_local)(rank) (`all` false) and MPI_Win_flush(_local)_all. The local
 * variants wait as long: an answer from another node says the origin buffer is free too. */
static int flush_call(const char *fn, MPI_Win win, int rank, bool all)
{
	struct shl_win *w;
	int err;

	shl_rank_or_die(fn);
	/* The common case inline: nothing to wait for on a window of one node. */
	if (likely(shl_win_ok(win) && !win->offnode &&
		   (all ? win->lock_all || win->nlocked > 0
			: (unsigned)rank < (unsigned)win->size &&
				  (win->lock_all || win->locked[rank]))))
		return MPI_SUCCESS;
	if ((err = shl_win_arg(fn, win, &w)) != MPI_SUCCESS)
		return err;
	if (all ? !w->lock_all && w->nlocked == 0
		: (err = check_rank(w, fn, rank, true)) != MPI_SUCCESS)
		return err != MPI_SUCCESS ? err
			: shl_win_err(w, MPI_ERR_RMA_SYNC, fn, "no passive target epoch is open "
				      "(MPI_Win_lock or MPI_Win_lock_all first)");
	if (!all && rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	return flush(w, fn, all ? -1 : rank);
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
	return flush_call("MPI_Win_flush", win, rank, false);
}
SHL_WEAK_ALIAS(Win_flush);

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
	return flush_call("MPI_Win_flush_local", win, rank, false);
}
SHL_WEAK_ALIAS(Win_flush_local);

int PMPI_Win_flush_all(MPI_Win win)
{
	return flush_call("MPI_Win_flush_all", win, 0, true);
}
SHL_WEAK_ALIAS(Win_flush_all);

int PMPI_Win_flush_local_all(MPI_Win win)
{
	return flush_call("MPI_Win_flush_local_all", win, 0, true);
}
SHL_WEAK_ALIAS(Win_flush_local_all);

int PMPI_Win_sync(MPI_Win win)
{
	struct shl_win *w;
	int err;

	shl_rank_or_die("MPI_Win_sync");
	if ((err = shl_win_arg("MPI_Win_sync", win, &w)) != MPI_SUCCESS)
		return err;
	/* The window's memory is the ranks' own: a full fence orders this rank's loads and
	 * stores with those the next synchronization publishes. */
	atomic_thread_fence(memory_order_seq_cst);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Win_sync);
