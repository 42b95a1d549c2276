/* Large copies and folds of a collective's run shared with the members blocked in its
 * meeting: the run records its big block copies (shl_coll_share_add) and its fold
 * (shl_coll_share_fold) instead of making them, then shl_coll_share_run cuts them into
 * chunks that the last arriver and every member waiting in a blocking call take, so one
 * run's memory traffic spreads over the ranks' cores.
 * Entered by the last arriver (add, run) and by blocked members (help). Must not allocate
 * on the helpers' side or keep a chunk from being taken once it is offered. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll_internal.h"

/* One recorded copy; `first` is its first chunk's number among all the run's chunks. */
struct move {
	void *dst;
	const struct shl_datatype *dtype;
	const void *src;
	const struct shl_datatype *stype;
	size_t bytes;
	uint32_t first;
};

/* A fold of dense inputs by a predefined kernel, chunk by chunk: each chunk of `acc` is
 * the first input's, then every other input folded in rank order (so each element sees
 * the same sequence of operations as a whole-vector fold: bitwise the same result), then
 * copied to every output. */
struct fold {
	shl_kern *k;
	size_t esize, bytes, chunk;   /* chunk: a multiple of esize */
	const void **in;
	void **out;
	int nin, nout;
	char *acc;
	uint32_t first;
};

struct shl_coll_share {
	struct move *moves;
	int nmoves, cap;
	struct fold *fold;            /* at most one per run, after the moves */
	uint32_t nchunks;
	_Atomic uint32_t next;        /* chunks handed out */
	_Atomic uint32_t done;        /* chunks finished */
};

/* The run's share, created on first use; NULL if `bytes` is too little to share, nobody
 * waits in a blocking call to help, or memory is exhausted. */
static struct shl_coll_share *share_of(struct shl_meeting *m, size_t bytes)
{
	bool blocked = false;

	if (bytes < SHL_COLL_SHARE_MIN)
		return NULL;
	for (int i = 0; i < m->n && !blocked; i++)
		blocked = !m->arrival[i]->heap;
	if (!blocked)
		return NULL;
	if (m->share == NULL)
		m->share = calloc(1, sizeof(*m->share));
	return m->share;
}

int shl_coll_share_add(struct shl_meeting *m, void *dst, const struct shl_datatype *dtype,
		       const void *src, const struct shl_datatype *stype, size_t bytes)
{
	struct shl_coll_share *s = share_of(m, bytes);

	if (s == NULL || s->fold != NULL)
		return -EINVAL;
	if (s->nmoves == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		struct move *v = realloc(s->moves, (size_t)cap * sizeof(*v));
		if (v == NULL)
			return -ENOMEM;
		s->moves = v;
		s->cap = cap;
	}
	s->moves[s->nmoves++] = (struct move){ dst, dtype, src, stype, bytes, s->nchunks };
	s->nchunks += (uint32_t)((bytes + SHL_COLL_SHARE_CHUNK - 1) / SHL_COLL_SHARE_CHUNK);
	return 0;
}

int shl_coll_share_fold(struct shl_meeting *m, shl_kern *k, size_t esize, size_t bytes,
			const void *const *in, int nin, void *const *out, int nout)
{
	struct shl_coll_share *s = share_of(m, bytes);
	struct fold *f;

	if (s == NULL || s->fold != NULL || nin < 1 || esize == 0)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	*f = (struct fold){ .k = k, .esize = esize, .bytes = bytes, .nin = nin, .nout = nout,
			    .chunk = SHL_COLL_SHARE_CHUNK / esize * esize, .first = s->nchunks };
	f->in = malloc((size_t)nin * sizeof(*f->in));
	f->out = malloc((size_t)(nout ? nout : 1) * sizeof(*f->out));
	f->acc = malloc(bytes);
	if (f->in == NULL || f->out == NULL || f->acc == NULL || f->chunk == 0) {
		free(f->in);
		free(f->out);
		free(f->acc);
		free(f);
		return -ENOMEM;
	}
	memcpy(f->in, in, (size_t)nin * sizeof(*f->in));
	memcpy(f->out, out, (size_t)nout * sizeof(*f->out));
	s->fold = f;
	s->nchunks += (uint32_t)((bytes + f->chunk - 1) / f->chunk);
	return 0;
}

static void fold_chunk(const struct fold *f, uint32_t i)
{
	size_t off = (size_t)(i - f->first) * f->chunk;
	size_t len = f->bytes - off < f->chunk ? f->bytes - off : f->chunk;

	memcpy(f->acc + off, (const char *)f->in[0] + off, len);
	for (int j = 1; j < f->nin; j++)
		f->k((const char *)f->in[j] + off, f->acc + off, len / f->esize);
	for (int j = 0; j < f->nout; j++)
		memcpy((char *)f->out[j] + off, f->acc + off, len);
}

/* Make chunk `i`: a fold's, or a move's (found by bisection over `first`). */
static void copy_chunk(const struct shl_coll_share *s, uint32_t i)
{
	int lo = 0, hi = s->nmoves - 1;

	if (s->fold != NULL && i >= s->fold->first) {
		fold_chunk(s->fold, i);
		return;
	}

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (s->moves[mid].first <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	const struct move *v = &s->moves[lo];
	size_t off = (size_t)(i - v->first) * SHL_COLL_SHARE_CHUNK;
	size_t len = v->bytes - off < SHL_COLL_SHARE_CHUNK ? v->bytes - off : SHL_COLL_SHARE_CHUNK;

	if (v->dtype->contig && v->stype->contig)
		memcpy((char *)v->dst + off, (const char *)v->src + off, len);
	else
		shl_dt_copy_range(v->dst, v->dtype, v->src, v->stype, off, len);
}

static void take_chunks(struct shl_coll_share *s)
{
	uint32_t i;

	while ((i = atomic_fetch_add_explicit(&s->next, 1, memory_order_relaxed)) < s->nchunks) {
		copy_chunk(s, i);
		/* Pairs with the acquire load in shl_coll_share_run: the chunk is written. */
		atomic_fetch_add_explicit(&s->done, 1, memory_order_release);
	}
}

void shl_coll_share_run(struct shl_meeting *m)
{
	struct shl_comm_shared *sh = m->sh;
	struct shl_coll_share *s = m->share, *none = NULL;
	bool offered;

	if (s == NULL)
		return;
	m->share = NULL;
	/* One offer per communicator at a time; a second run just copies alone. The CAS is
	 * the seq_cst publication shl_rank_wake needs. */
	offered = atomic_compare_exchange_strong(&sh->share, &none, s);
	if (offered)
		for (int i = 0; i < m->n; i++)
			if (!m->arrival[i]->heap)
				shl_rank_wake(m->arrival[i]->req->owner);
	take_chunks(s);
	for (unsigned spins = 0;
	     atomic_load_explicit(&s->done, memory_order_acquire) < s->nchunks; spins++) {
		if (spins < 1000)
			__builtin_ia32_pause();
		else
			sched_yield();  /* a helper was preempted mid-chunk */
	}
	if (offered) {
		/* Withdraw the offer, then wait out helpers that picked it up before (pairs
		 * with the increment in shl_coll_share_help: one of us sees the other). */
		atomic_store(&sh->share, NULL);
		while (atomic_load(&sh->share_users) > 0)
			sched_yield();
	}
	if (s->fold != NULL) {
		free(s->fold->in);
		free(s->fold->out);
		free(s->fold->acc);
		free(s->fold);
	}
	free(s->moves);
	free(s);
}

void shl_coll_share_help(struct shl_comm_shared *sh)
{
	struct shl_coll_share *s;

	if (atomic_load_explicit(&sh->share, memory_order_relaxed) == NULL)
		return;
	atomic_fetch_add(&sh->share_users, 1);
	s = atomic_load(&sh->share);
	if (s != NULL)
		take_chunks(s);
	atomic_fetch_sub(&sh->share_users, 1);
}
