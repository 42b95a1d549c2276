/* Large copies and folds of a collective's run shared with the members blocked in its
 * meeting: the run records its big block copies (shl_coll_share_add) and its fold
 * (shl_coll_share_fold) instead of making them, then shl_coll_share_run cuts them into
 * chunks of the shared-copy engine (datatype/share.h) that the last arriver and every
 * member waiting in a blocking call take, so one run's memory traffic spreads over the
 * ranks' cores.
 * Entered by the last arriver (add, run) and by blocked members (help). Must not allocate
 * on the helpers' side or keep a chunk from being taken once it is offered. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/coll/internal.h"
#include "runtime/datatype/share.h"

/* One recorded copy; `first` is its first chunk's number among all the run's chunks. */
struct move {
	struct shl_share_copy copy;
	uint32_t first;
};

/* A fold of dense inputs by a predefined kernel, chunk by chunk: each chunk of `acc` is
 * the first input's, then every other input folded in rank order (so each element sees
 * the same sequence of operations as a whole-vector fold: bitwise the same result), then
 * copied to every other output. `acc` is an output when one is not a later input (that
 * saves a pass over the vector), else memory of its own (`own_acc`). */
struct fold {
	shl_kern *k;
	size_t esize, bytes, chunk;   /* chunk: a multiple of esize */
	const void **in;
	void **out;
	int nin, nout;
	char *acc;
	bool own_acc;
	uint32_t first;
};

/* An output of `f` that may hold the accumulator: not an input after the first, which an
 * accumulating chunk would overwrite before it is folded (MPI_IN_PLACE); NULL if none. */
static char *acc_output(const struct fold *f)
{
	for (int o = 0; o < f->nout; o++) {
		bool later_input = false;
		for (int j = 1; j < f->nin && !later_input; j++)
			later_input = f->out[o] == f->in[j];
		if (!later_input)
			return f->out[o];
	}
	return NULL;
}

struct shl_coll_share {
	struct move *moves;
	int nmoves, cap;
	struct fold *fold;            /* at most one per run, after the moves */
	uint32_t nchunks;             /* recorded so far */
	struct shl_share share;       /* the chunks, once offered */
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
	s->moves[s->nmoves++] = (struct move){ { dst, dtype, src, stype, bytes }, s->nchunks };
	s->nchunks += shl_share_chunks(bytes, SHL_COLL_SHARE_CHUNK);
	return 0;
}

int shl_coll_share_fold(struct shl_meeting *m, shl_kern *k, size_t esize, size_t bytes,
			const void *const *in, int nin, void *const *out, int nout)
{
	struct shl_coll_share *s = share_of(m, bytes);
	struct fold *f;

	if (s == NULL || s->fold != NULL || nin < 1 || esize == 0 || esize > SHL_COLL_SHARE_MIN)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	/* A chunk for every core, of SHL_COLL_SHARE_MIN to SHL_COLL_SHARE_CHUNK bytes. */
	size_t chunk = (bytes / (size_t)shl_job.cores + 4095) & ~(size_t)4095;
	chunk = chunk < SHL_COLL_SHARE_MIN ? SHL_COLL_SHARE_MIN
		: chunk > SHL_COLL_SHARE_CHUNK ? SHL_COLL_SHARE_CHUNK : chunk;
	*f = (struct fold){ .k = k, .esize = esize, .bytes = bytes, .nin = nin, .nout = nout,
			    .chunk = chunk / esize * esize, .first = s->nchunks };
	f->in = malloc((size_t)nin * sizeof(*f->in));
	f->out = malloc((size_t)(nout ? nout : 1) * sizeof(*f->out));
	if (f->in != NULL && f->out != NULL) {
		memcpy(f->in, in, (size_t)nin * sizeof(*f->in));
		memcpy(f->out, out, (size_t)nout * sizeof(*f->out));
		f->acc = acc_output(f);
		if (f->acc == NULL)
			f->own_acc = (f->acc = malloc(bytes)) != NULL;
	}
	if (f->acc == NULL) {
		free(f->in);
		free(f->out);
		free(f);
		return -ENOMEM;
	}
	s->fold = f;
	s->nchunks += shl_share_chunks(bytes, f->chunk);
	return 0;
}

static void fold_chunk(const struct fold *f, uint32_t i)
{
	size_t off = (size_t)(i - f->first) * f->chunk;
	size_t len = f->bytes - off < f->chunk ? f->bytes - off : f->chunk;

	if (f->acc != f->in[0])
		memcpy(f->acc + off, (const char *)f->in[0] + off, len);
	for (int j = 1; j < f->nin; j++)
		f->k((const char *)f->in[j] + off, f->acc + off, len / f->esize);
	for (int j = 0; j < f->nout; j++)
		if (f->out[j] != f->acc)
			memcpy((char *)f->out[j] + off, f->acc + off, len);
}

/* shl_share_take's maker: chunk `i` of share `arg`, a fold's, or a move's (found by
 * bisection over `first`). */
static void make(void *arg, uint32_t i)
{
	const struct shl_coll_share *s = arg;
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
	shl_share_copy_chunk(&s->moves[lo].copy, SHL_COLL_SHARE_CHUNK, i - s->moves[lo].first);
}

void shl_coll_share_run(struct shl_meeting *m)
{
	struct shl_comm_shared *sh = m->sh;
	struct shl_coll_share *s = m->share, *none = NULL;
	bool offered;

	if (s == NULL)
		return;
	m->share = NULL;
	shl_share_offer(&s->share, s->nchunks);
	/* One offer per communicator at a time, and only of two chunks or more; a second
	 * run, or a single chunk, is copied alone. The CAS is the seq_cst publication
	 * shl_rank_wake needs. */
	offered = s->nchunks > 1 && atomic_compare_exchange_strong(&sh->share, &none, s);
	/* Helpers beyond the other cores, or the other chunks, would only queue for them:
	 * at 8 ranks on 2 cores, waking all 7 made a 32 KiB Bcast 1.3-1.6x slower. */
	int wake = (int)s->nchunks - 1 < shl_job.cores - 1 ? (int)s->nchunks - 1
							    : shl_job.cores - 1;
	for (int i = 0; offered && i < m->n && wake > 0; i++)
		if (!m->arrival[i]->heap && m->arrival[i]->req->owner != shl_self) {
			shl_rank_wake(m->arrival[i]->req->owner);
			wake--;
		}
	shl_share_take(&s->share, false, make, s);
	shl_share_finish(&s->share);
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
		if (s->fold->own_acc)
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
		shl_share_take(&s->share, false, make, s);
	atomic_fetch_sub(&sh->share_users, 1);
}
