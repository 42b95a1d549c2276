/* shl_dt_copy: typed data from one layout straight into another, in one pass, and
 * shl_dt_copy_range: one slice of the signature of such a copy. They are the only routines
 * that move message data (eager packing, unpacking, and the single copy of a large message
 * between two ranks' buffers, possibly in slices shared by both ranks). Entered by any rank
 * thread, for its own receive or send or to help a peer's; reads both types, writes neither.
 * Must not allocate, lock or fail.
 *
 * Addresses are computed as integers: a buffer may be MPI_BOTTOM (NULL) with absolute
 * displacements in the type. */
#include <string.h>

#include "runtime/core/rt.h"

/* ---- strided streams: equal chunks, one loop per element ---- */

/* Chunks ahead to prefetch (a hint: never dereferenced, so past the end is harmless);
 * figures: docs/performance.md, "Derived datatypes". */
#define SHL_DT_AHEAD 8

/* Chunk i of the current row is at row + i*s; a row has n chunks; rows are e bytes apart. */
struct strm {
	uintptr_t p, row;
	size_t i, n;
	ptrdiff_t s, e;
};

/* One run per element inside at most one loop: a vector of a dense type, a column. */
static bool strided(const struct shl_datatype *t)
{
	return t->nruns == 1 && t->nloops <= 1;
}

static void open_strided(struct strm *x, const struct shl_datatype *t, uintptr_t base)
{
	x->p = x->row = base + (uintptr_t)t->runs[0].off;
	x->i = 0;
	x->n = t->nloops ? t->loops[0].count : 1;
	x->s = t->nloops ? t->loops[0].stride : 0;
	x->e = t->extent;
}

/* A strided stream positioned at the chunk holding signature byte `from`; returns the
 * offset of that byte inside its chunk. */
static size_t seek_strided(struct strm *x, const struct shl_datatype *t, uintptr_t base,
			   size_t from)
{
	size_t len = t->runs[0].len, elem = from / t->size, rem = from % t->size;

	open_strided(x, t, base + (uintptr_t)((ptrdiff_t)elem * t->extent));
	x->i = rem / len;
	x->p = x->row + (uintptr_t)((ptrdiff_t)x->i * x->s);
	return rem % len;
}

/* Dense bytes as a stream of `len`-byte chunks that never ends its row. */
static void open_dense(struct strm *x, uintptr_t base, size_t len)
{
	x->p = x->row = base;
	x->i = 0;
	x->n = SIZE_MAX;
	x->s = (ptrdiff_t)len;
	x->e = 0;
}

static inline void step(struct strm *x)
{
	if (++x->i == x->n) {
		x->i = 0;
		x->row += (uintptr_t)x->e;
		x->p = x->row;
	} else {
		x->p += (uintptr_t)x->s;
	}
}

/* Copy whole `len`-byte chunks while at least one remains; returns the bytes left over.
 * Always inlined so that a constant `len` becomes a fixed-size move. */
static inline __attribute__((always_inline)) size_t chunks(struct strm *d, struct strm *s,
							   size_t len, size_t bytes)
{
	for (; bytes >= len; bytes -= len) {
		/* Rows of a column block are pages apart: ask for the next rows early. */
		__builtin_prefetch((const void *)(s->p + (uintptr_t)(SHL_DT_AHEAD * s->s)), 0);
		__builtin_prefetch((const void *)(d->p + (uintptr_t)(SHL_DT_AHEAD * d->s)), 1);
		memcpy((void *)d->p, (const void *)s->p, len);
		step(d);
		step(s);
	}
	return bytes;
}

/* Run lengths with a fixed-size move of their own: the common scalars, and the 32/64-byte
 * rows of narrow column blocks, which a memcpy call per row makes ~10 % slower (figures:
 * docs/performance.md, "Derived datatypes"). */
static void lockstep(struct strm *d, struct strm *s, size_t len, size_t bytes)
{
	switch (len) {
	case 4:
		bytes = chunks(d, s, 4, bytes);
		break;
	case 8:
		bytes = chunks(d, s, 8, bytes);
		break;
	case 16:
		bytes = chunks(d, s, 16, bytes);
		break;
	case 32:
		bytes = chunks(d, s, 32, bytes);
		break;
	case 64:
		bytes = chunks(d, s, 64, bytes);
		break;
	default:
		bytes = chunks(d, s, len, bytes);
		break;
	}
	if (bytes > 0)
		memcpy((void *)d->p, (const void *)s->p, bytes);
}

/* ---- the general walk over the loop form ---- */

/* A position in typed data: `left` bytes remain in the run at `p`. A NULL `t` is dense. */
struct cur {
	const struct shl_datatype *t;
	uintptr_t elem, org, p;
	size_t left, run;
	size_t idx[SHL_DT_LOOPS];
};

static void open_cur(struct cur *c, const struct shl_datatype *t, uintptr_t base)
{
	c->p = base;
	c->left = SIZE_MAX;
	c->t = NULL;
	if (t == NULL || t->contig)
		return;
	c->t = t;
	c->elem = c->org = base;
	c->run = 0;
	memset(c->idx, 0, sizeof(c->idx));
	c->p = base + (uintptr_t)t->runs[0].off;
	c->left = t->runs[0].len;
}

/* Move to the next run in typemap order: the next run of the body, else the next turn of
 * the innermost loop that has one left, else the next element. */
static void next_run(struct cur *c)
{
	const struct shl_datatype *t = c->t;
	int k;

	if (++c->run < t->nruns)
		goto set;
	c->run = 0;
	for (k = t->nloops - 1; k >= 0; k--) {
		if (++c->idx[k] < t->loops[k].count) {
			c->org += (uintptr_t)t->loops[k].stride;
			goto set;
		}
		c->idx[k] = 0;
		c->org -= (uintptr_t)((ptrdiff_t)(t->loops[k].count - 1) * t->loops[k].stride);
	}
	c->elem += (uintptr_t)t->extent;
	c->org = c->elem;
set:
	c->p = c->org + (uintptr_t)t->runs[c->run].off;
	c->left = t->runs[c->run].len;
}

/* A cursor at signature byte `from` of data laid out by `t` (NULL: dense) at `base`:
 * the element, then the turn of each loop (the body, all runs once, repeats over the
 * loop nest, innermost fastest), then the run. O(loops + runs), no walk from the start. */
static void seek_cur(struct cur *c, const struct shl_datatype *t, uintptr_t base, size_t from)
{
	size_t body, turn, rem;

	open_cur(c, t, base);
	if (c->t == NULL) {
		c->p = base + from;
		return;
	}
	body = t->size;
	for (int k = 0; k < t->nloops; k++)
		body /= t->loops[k].count;   /* exact: the size is body x every count */
	turn = from % t->size / body;
	rem = from % t->size % body;
	c->elem = base + (uintptr_t)((ptrdiff_t)(from / t->size) * t->extent);
	c->org = c->elem;
	for (int k = t->nloops - 1; k >= 0; k--) {
		c->idx[k] = turn % t->loops[k].count;
		turn /= t->loops[k].count;
		c->org += (uintptr_t)((ptrdiff_t)c->idx[k] * t->loops[k].stride);
	}
	for (c->run = 0; rem >= t->runs[c->run].len; c->run++)
		rem -= t->runs[c->run].len;
	c->p = c->org + (uintptr_t)t->runs[c->run].off + rem;
	c->left = t->runs[c->run].len - rem;
}

static void walk_both(struct cur *d, struct cur *s, size_t bytes)
{
	while (bytes > 0) {
		size_t n = d->left < s->left ? d->left : s->left;

		if (n > bytes)
			n = bytes;
		memcpy((void *)d->p, (const void *)s->p, n);
		bytes -= n;
		d->p += n;
		s->p += n;
		d->left -= n;
		s->left -= n;
		if (d->left == 0 && bytes > 0)
			next_run(d);
		if (s->left == 0 && bytes > 0)
			next_run(s);
	}
}

/* Both sides have the same layout: one cursor, each run copied to the same offset. */
static void walk_same(struct cur *s, uintptr_t delta, size_t bytes)
{
	for (;;) {
		size_t n = s->left < bytes ? s->left : bytes;

		memcpy((void *)(s->p + delta), (const void *)s->p, n);
		bytes -= n;
		if (bytes == 0)
			return;
		next_run(s);
	}
}

void shl_dt_copy(void *dst, const struct shl_datatype *dtype, const void *src,
		 const struct shl_datatype *stype, size_t bytes)
{
	bool dd = dtype == NULL || dtype->contig, sd = stype == NULL || stype->contig;
	struct cur dc, sc;

	if (bytes == 0)
		return;
	if (dd && sd) {
		memcpy(dst, src, bytes);
		return;
	}
	if ((dd || strided(dtype)) && (sd || strided(stype))) {
		size_t len = dd ? stype->runs[0].len : dtype->runs[0].len;
		if ((dd || dtype->runs[0].len == len) && (sd || stype->runs[0].len == len)) {
			struct strm d, s;
			if (dd)
				open_dense(&d, (uintptr_t)dst, len);
			else
				open_strided(&d, dtype, (uintptr_t)dst);
			if (sd)
				open_dense(&s, (uintptr_t)src, len);
			else
				open_strided(&s, stype, (uintptr_t)src);
			lockstep(&d, &s, len, bytes);
			return;
		}
	}
	open_cur(&sc, stype, (uintptr_t)src);
	if (dtype == stype) {
		walk_same(&sc, (uintptr_t)dst - (uintptr_t)src, bytes);
		return;
	}
	open_cur(&dc, dtype, (uintptr_t)dst);
	walk_both(&dc, &sc, bytes);
}

void shl_dt_copy_range(void *dst, const struct shl_datatype *dtype, const void *src,
		       const struct shl_datatype *stype, size_t from, size_t bytes)
{
	bool dd = dtype == NULL || dtype->contig, sd = stype == NULL || stype->contig;
	struct cur dc, sc;

	if (bytes == 0)
		return;
	if (dd && sd) {
		memcpy((char *)dst + from, (const char *)src + from, bytes);
		return;
	}
	/* Strided runs of one length on both sides: lockstep (with its prefetch) after the
	 * partial run `from` may start in. Run boundaries fall at multiples of the length on
	 * both sides, so both start at the same offset `at` inside a run. */
	if ((dd || strided(dtype)) && (sd || strided(stype))) {
		size_t len = dd ? stype->runs[0].len : dtype->runs[0].len, at = 0;
		if ((dd || dtype->runs[0].len == len) && (sd || stype->runs[0].len == len)) {
			struct strm d, s;
			if (!dd)
				at = seek_strided(&d, dtype, (uintptr_t)dst, from);
			if (!sd)
				at = seek_strided(&s, stype, (uintptr_t)src, from);
			if (dd)
				open_dense(&d, (uintptr_t)dst + from - at, len);
			if (sd)
				open_dense(&s, (uintptr_t)src + from - at, len);
			if (at > 0) {
				size_t head = len - at < bytes ? len - at : bytes;
				memcpy((void *)(d.p + at), (const void *)(s.p + at), head);
				bytes -= head;
				step(&d);
				step(&s);
			}
			if (bytes > 0)
				lockstep(&d, &s, len, bytes);
			return;
		}
	}
	seek_cur(&sc, stype, (uintptr_t)src, from);
	if (dtype == stype) {
		walk_same(&sc, (uintptr_t)dst - (uintptr_t)src, bytes);
		return;
	}
	seek_cur(&dc, dtype, (uintptr_t)dst, from);
	walk_both(&dc, &sc, bytes);
}
