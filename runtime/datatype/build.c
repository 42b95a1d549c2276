/* Derived datatypes: the constructors, the loop form they compile to, reference counts,
 * commit and free, and whether a typemap writes a byte twice. Entered by rank threads (any
 * of a rank's threads under MPI_THREAD_MULTIPLE); a type is shared only through its atomic
 * reference counts.
 * Must not write to predefined types: they are immutable statics shared by all ranks. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/datatype/internal.h"

/* ---- the loop form under construction ---- */

/* Room for a child's loops plus the two a block adds; normalize() brings it back to
 * SHL_DT_LOOPS. */
#define FORM_LOOPS (SHL_DT_LOOPS + 2)

struct form {
	size_t nruns, cap;
	struct shl_block *runs;
	int nloops;
	struct shl_dt_loop loops[FORM_LOOPS];
};

/* Append a run, merging it into the previous one when it continues it in memory. */
static int push_run(struct form *f, ptrdiff_t off, size_t len)
{
	if (len == 0)
		return 0;
	if (f->nruns > 0) {
		struct shl_block *last = &f->runs[f->nruns - 1];
		if (last->off + (ptrdiff_t)last->len == off) {
			last->len += len;
			return 0;
		}
	}
	if (f->nruns == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 4;
		struct shl_block *runs = realloc(f->runs, cap * sizeof(*runs));
		if (runs == NULL)
			return -ENOMEM;
		f->runs = runs;
		f->cap = cap;
	}
	f->runs[f->nruns++] = (struct shl_block){ off, len };
	return 0;
}

/* Append the runs of loops[first..nloops) x runs, shifted by `base`, to `out`. */
static int expand_loops(struct form *out, const struct shl_dt_loop *loops, int first,
			int nloops, const struct shl_block *runs, size_t nruns, ptrdiff_t base)
{
	size_t idx[FORM_LOOPS] = { 0 };
	ptrdiff_t org = base;
	int k;

	if (nruns == 0)
		return 0;
	for (k = first; k < nloops; k++)
		if (loops[k].count == 0)
			return 0;
	for (;;) {
		for (size_t r = 0; r < nruns; r++)
			if (push_run(out, org + runs[r].off, runs[r].len) != 0)
				return -ENOMEM;
		for (k = nloops - 1; k >= first; k--) {
			if (++idx[k] < loops[k].count) {
				org += loops[k].stride;
				break;
			}
			org -= (ptrdiff_t)(loops[k].count - 1) * loops[k].stride;
			idx[k] = 0;
		}
		if (k < first)
			return 0;
	}
}

/* Replace the innermost loop of `f` by the runs it generates. */
static int flatten_innermost(struct form *f)
{
	struct form g = { 0 };
	int k = f->nloops - 1;

	if (expand_loops(&g, f->loops, k, f->nloops, f->runs, f->nruns, 0) != 0) {
		free(g.runs);
		return -ENOMEM;
	}
	free(f->runs);
	f->runs = g.runs;
	f->nruns = g.nruns;
	f->cap = g.cap;
	f->nloops = k;
	return 0;
}

/* Runs of equal length at a constant distance become one run inside a loop. */
static void find_stride(struct form *f)
{
	if (f->nruns < 2 || f->nloops >= FORM_LOOPS)
		return;
	ptrdiff_t d = f->runs[1].off - f->runs[0].off;
	for (size_t r = 1; r < f->nruns; r++)
		if (f->runs[r].len != f->runs[0].len || f->runs[r].off - f->runs[r - 1].off != d)
			return;
	f->loops[f->nloops++] = (struct shl_dt_loop){ f->nruns, d };
	f->nruns = 1;
}

/* Bring `f` to its canonical small shape: no trivial loops, loops that continue each other
 * merged, an innermost loop over one dense run turned into a longer run, and at most
 * SHL_DT_LOOPS levels. The typemap order never changes. */
static int normalize(struct form *f)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (int k = 0; k < f->nloops; k++) {
			if (f->loops[k].count == 0 || f->nruns == 0) {
				f->nloops = 0;
				f->nruns = 0;
				return 0;
			}
			if (f->loops[k].count == 1) {
				memmove(&f->loops[k], &f->loops[k + 1],
					(size_t)(f->nloops - k - 1) * sizeof(f->loops[0]));
				f->nloops--;
				changed = true;
				break;
			}
			if (k + 1 < f->nloops &&
			    f->loops[k].stride ==
				    (ptrdiff_t)f->loops[k + 1].count * f->loops[k + 1].stride) {
				f->loops[k + 1].count *= f->loops[k].count;
				memmove(&f->loops[k], &f->loops[k + 1],
					(size_t)(f->nloops - k - 1) * sizeof(f->loops[0]));
				f->nloops--;
				changed = true;
				break;
			}
		}
		if (changed)
			continue;
		if (f->nloops > 0 && f->nruns == 1 &&
		    f->loops[f->nloops - 1].stride == (ptrdiff_t)f->runs[0].len) {
			f->runs[0].len *= f->loops[--f->nloops].count;
			changed = true;
			continue;
		}
		if (f->nruns >= 2) {
			size_t before = f->nruns;
			find_stride(f);
			changed = f->nruns != before;
		}
	}
	while (f->nloops > SHL_DT_LOOPS)
		if (flatten_innermost(f) != 0)
			return -ENOMEM;
	return 0;
}

/* Block i of a layout. */
static size_t blen_of(const struct shl_dt_tree *l, size_t i)
{
	return l->blens ? l->blens[i] : l->blen;
}

static ptrdiff_t disp_of(const struct shl_dt_tree *l, size_t i)
{
	return l->disps ? l->disps[i] : (ptrdiff_t)i * l->stride;
}

static struct shl_datatype *type_of(const struct shl_dt_tree *l, size_t i)
{
	return l->types ? l->types[i] : l->child;
}

/* Whether `l` has no per-block arrays: block i is `blen` of `child` at i * stride (vector,
 * hvector, contiguous). Such a tree may have 2^63 blocks, so nothing walks its blocks. */
static bool uniform(const struct shl_dt_tree *l)
{
	return l->blens == NULL && l->disps == NULL && l->types == NULL;
}

/* Whether the blocks of `l` are `count` copies of one block at a constant stride; if so,
 * that stride in *stride. */
static bool regular(const struct shl_dt_tree *l, ptrdiff_t *stride)
{
	*stride = l->count > 1 ? disp_of(l, 1) - disp_of(l, 0) : 0;
	if (uniform(l))
		return true;
	for (size_t i = 1; i < l->count; i++)
		if (blen_of(l, i) != blen_of(l, 0) || type_of(l, i) != type_of(l, 0) ||
		    disp_of(l, i) - disp_of(l, i - 1) != *stride)
			return false;
	return true;
}

static bool dense(const struct shl_datatype *t)
{
	return t->nloops == 0 && t->nruns == 1 && (ptrdiff_t)t->runs[0].len == t->extent;
}

/* Compile the blocks of `l` into the loop form of one element. */
static int compile(struct form *f, const struct shl_dt_tree *l)
{
	ptrdiff_t stride;

	if (l->count == 0)
		return 0;
	if (regular(l, &stride)) {
		const struct shl_datatype *c = type_of(l, 0);
		ptrdiff_t d = disp_of(l, 0);

		f->loops[f->nloops++] = (struct shl_dt_loop){ l->count, stride };
		f->loops[f->nloops++] = (struct shl_dt_loop){ blen_of(l, 0), c->extent };
		for (int k = 0; k < c->nloops; k++)
			f->loops[f->nloops++] = c->loops[k];
		for (size_t r = 0; r < c->nruns; r++)
			if (push_run(f, d + c->runs[r].off, c->runs[r].len) != 0)
				return -ENOMEM;
		if (c->nruns == 0)
			f->nloops = 0;
		return normalize(f);
	}
	for (size_t i = 0; i < l->count; i++) {
		const struct shl_datatype *c = type_of(l, i);
		size_t n = blen_of(l, i);
		ptrdiff_t d = disp_of(l, i);

		if (n > 0 && dense(c)) {
			if (push_run(f, d + c->runs[0].off, n * c->runs[0].len) != 0)
				return -ENOMEM;
			continue;
		}
		for (size_t j = 0; j < n; j++)
			if (expand_loops(f, c->loops, 0, c->nloops, c->runs, c->nruns,
					 d + (ptrdiff_t)j * c->extent) != 0)
				return -ENOMEM;
	}
	return normalize(f);
}

/* ---- bounds, sizes, element counts ---- */

/* The bounds of `n` (> 0) elements of `c` from byte `d`: b[0], b[1] bound their extents,
 * b[2], b[3] their data. False when one overflows an address. */
static bool block_bounds(const struct shl_datatype *c, size_t n, ptrdiff_t d, ptrdiff_t b[4])
{
	ptrdiff_t span, first, last;

	if (n - 1 > PTRDIFF_MAX || __builtin_mul_overflow((ptrdiff_t)(n - 1), c->extent, &span))
		return false;
	first = span < 0 ? span : 0;
	last = span > 0 ? span : 0;
	return !(__builtin_add_overflow(d, c->lb, &b[0]) ||
		 __builtin_add_overflow(b[0], first, &b[0]) ||
		 __builtin_add_overflow(d, c->lb, &b[1]) ||
		 __builtin_add_overflow(b[1], c->extent, &b[1]) ||
		 __builtin_add_overflow(b[1], last, &b[1]) ||
		 __builtin_add_overflow(d, c->true_lb, &b[2]) ||
		 __builtin_add_overflow(b[2], first, &b[2]) ||
		 __builtin_add_overflow(d, c->true_lb, &b[3]) ||
		 __builtin_add_overflow(b[3], c->true_extent, &b[3]) ||
		 __builtin_add_overflow(b[3], last, &b[3]));
}

/* Size, element count and bounds of one element of `l` into `t`. False when one of them
 * overflows (only reachable through the _c constructors' MPI_Count arguments). A uniform
 * tree is measured from its first and last blocks: its bounds are linear in the index. */
static bool bounds(struct shl_datatype *t, const struct shl_dt_tree *l, bool pad)
{
	bool any = false, anydata = false, even = uniform(l);
	ptrdiff_t lo = 0, hi = 0, tlo = 0, thi = 0, b[4];
	size_t step = even && l->count > 2 ? l->count - 1 : 1;
	unsigned align = 1;

	t->size = 0;
	t->elements = 0;
	for (size_t i = 0; i < l->count; i += step) {
		const struct shl_datatype *c = type_of(l, i);
		size_t n = blen_of(l, i), size, elements, times = even ? l->count : 1;
		ptrdiff_t d = l->disps ? l->disps[i] : 0;

		if (n == 0)
			continue;
		if ((!l->disps && __builtin_mul_overflow((ptrdiff_t)i, l->stride, &d)) ||
		    !block_bounds(c, n, d, b))
			return false;
		if (i == 0 || !even) {
			if (__builtin_mul_overflow(n, c->size, &size) ||
			    __builtin_mul_overflow(size, times, &size) ||
			    __builtin_add_overflow(t->size, size, &t->size) ||
			    __builtin_mul_overflow(n, c->elements, &elements) ||
			    __builtin_mul_overflow(elements, times, &elements) ||
			    __builtin_add_overflow(t->elements, elements, &t->elements))
				return false;
		}
		if (c->align > align)
			align = c->align;
		if (!any || b[0] < lo)
			lo = b[0];
		if (!any || b[1] > hi)
			hi = b[1];
		any = true;
		if (c->size == 0)
			continue;
		if (!anydata || b[2] < tlo)
			tlo = b[2];
		if (!anydata || b[3] > thi)
			thi = b[3];
		anydata = true;
	}
	if (__builtin_sub_overflow(hi, lo, &t->extent) ||
	    __builtin_sub_overflow(thi, tlo, &t->true_extent) || t->size > PTRDIFF_MAX)
		return false;
	/* MPI 4.1 5.1.6: a struct's upper bound is padded to the strictest alignment of its
	 * components (the epsilon that makes arrays of the C struct line up). */
	if (pad && any && t->extent % (ptrdiff_t)align != 0)
		t->extent += (ptrdiff_t)align - t->extent % (ptrdiff_t)align;
	t->lb = lo;
	t->true_lb = tlo;
	t->align = (uint8_t)align;
	return true;
}

/* ---- construction ---- */

static void drop_tree(struct shl_dt_tree *l)
{
	if (l->types != NULL) {
		for (size_t i = 0; i < l->count; i++)
			shl_dt_release(l->types[i]);
	} else if (l->child != NULL) {
		shl_dt_release(l->child);
	}
	free(l->blens);
	free(l->disps);
	free(l->types);
}

static void drop_contents(struct shl_dt_contents *c)
{
	for (size_t i = 0; i < c->ntypes; i++)
		shl_dt_release(c->types[i]);
	free(c->ints);
	free(c->aints);
	free(c->large);
	free(c->types);
}

void shl_dt_destroy(struct shl_datatype *t)
{
	drop_tree(&t->tree);
	drop_contents(&t->contents);
	if (t->runs != t->blocks)
		free(t->runs);
	free((char *)t->name);
	shl_handle_free(t);  /* a stale handle fails validation from now on */
}

/* Copy an array of n elements of `size` bytes (NULL when n is 0). */
static void *dup_array(const void *src, size_t n, size_t size, bool *fail)
{
	void *p;

	if (n == 0 || src == NULL)
		return NULL;
	p = malloc(n * size);
	if (p == NULL)
		*fail = true;
	else
		memcpy(p, src, n * size);
	return p;
}

int shl_dt_build(const struct shl_dt_tree *l, const struct shl_dt_resize *rs, bool pad,
		 struct shl_datatype **out)
{
	struct shl_datatype *t = shl_handle_alloc(sizeof(*t));
	struct form f = { 0 };
	bool fail = false;
	int rc = -ENOMEM;

	*out = NULL;
	if (t == NULL)
		return -ENOMEM;
	t->tree = *l;
	t->tree.blens = dup_array(l->blens, l->count, sizeof(*l->blens), &fail);
	t->tree.disps = dup_array(l->disps, l->count, sizeof(*l->disps), &fail);
	t->tree.types = dup_array(l->types, l->count, sizeof(*l->types), &fail);
	if (fail) {
		free(t->tree.blens);
		free(t->tree.disps);
		free(t->tree.types);
		shl_handle_free(t);
		return -ENOMEM;
	}
	for (size_t i = 0; l->types != NULL && i < l->count; i++)
		shl_dt_hold(l->types[i]);
	if (l->types == NULL)
		shl_dt_hold(l->child);
	atomic_init(&t->refs, 1);
	atomic_init(&t->handles, 0);
	t->magic = SHL_TYPE_MAGIC;
	if (!bounds(t, l, pad)) {
		rc = -EOVERFLOW;
		goto fail;
	}
	if (rs != NULL) {
		t->lb = rs->lb;
		t->extent = rs->extent;
	}
	if (compile(&f, l) != 0)
		goto fail;
	t->nloops = (uint8_t)f.nloops;
	memcpy(t->loops, f.loops, (size_t)f.nloops * sizeof(f.loops[0]));
	t->nruns = f.nruns;
	if (f.nruns <= 2) {
		memcpy(t->blocks, f.runs, f.nruns * sizeof(f.runs[0]));
		t->runs = t->blocks;
		free(f.runs);
	} else {
		t->runs = f.runs;
	}
	f.runs = NULL;
	t->contig = t->size == 0 ||
		    (t->nloops == 0 && t->nruns == 1 && t->runs[0].off == 0 &&
		     (ptrdiff_t)t->runs[0].len == t->extent);
	*out = t;
	return 0;
fail:
	free(f.runs);
	t->runs = t->blocks;
	shl_dt_destroy(t);
	return rc;
}

int shl_dt_set_contents(struct shl_datatype *t, const struct shl_dt_contents *c)
{
	struct shl_dt_contents *d = &t->contents;
	bool fail = false;

	*d = *c;
	d->ints = dup_array(c->ints, c->nints, sizeof(*c->ints), &fail);
	d->aints = dup_array(c->aints, c->naints, sizeof(*c->aints), &fail);
	d->large = dup_array(c->large, c->nlarge, sizeof(*c->large), &fail);
	d->types = dup_array(c->types, c->ntypes, sizeof(*c->types), &fail);
	if (fail) {
		free(d->ints);
		free(d->aints);
		free(d->large);
		free(d->types);
		memset(d, 0, sizeof(*d));
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->ntypes; i++)
		shl_dt_hold(d->types[i]);
	return 0;
}

/* ---- walking the typemap ---- */

static bool walk(const struct shl_datatype *t, uintptr_t buf, size_t count, shl_dt_visit fn,
		 void *ctx)
{
	const struct shl_dt_tree *l = &t->tree;

	if (t->predefined)
		return fn(ctx, t, (char *)buf, count);
	for (size_t k = 0; k < count; k++) {
		uintptr_t base = buf + (uintptr_t)((ptrdiff_t)k * t->extent);
		for (size_t i = 0; i < l->count; i++) {
			size_t n = blen_of(l, i);
			if (n > 0 && !walk(type_of(l, i), base + (uintptr_t)disp_of(l, i), n, fn,
					   ctx))
				return false;
		}
	}
	return true;
}

bool shl_dt_walk(const struct shl_datatype *t, char *buf, size_t count, shl_dt_visit fn,
		 void *ctx)
{
	return walk(t, (uintptr_t)buf, count, fn, ctx);
}

struct tally {
	size_t rest;
	MPI_Count n;
};

static bool tally(void *arg, const struct shl_datatype *b, char *addr, size_t n)
{
	struct tally *c = arg;
	size_t k;

	if (c->rest >= n * b->size) {
		c->rest -= n * b->size;
		c->n += (MPI_Count)(n * b->elements);
		return c->rest > 0;
	}
	k = c->rest / b->size;
	c->rest -= k * b->size;
	c->n += (MPI_Count)(k * b->elements);
	/* A pair's value without its int still counts as one basic element. */
	if (b->kind == SHL_DT_PAIR && c->rest >= b->pair->size) {
		c->rest -= b->pair->size;
		c->n++;
	}
	return false;
}

MPI_Count shl_dt_elements(const struct shl_datatype *t, size_t bytes)
{
	struct tally c;

	if (t->size == 0)
		return 0;
	c.n = (MPI_Count)((bytes / t->size) * t->elements);
	c.rest = bytes % t->size;
	if (c.rest > 0)
		walk(t, 0, 1, tally, &c);
	return c.rest == 0 ? c.n : -1;
}

/* The inverse walk: bytes of the first `rest` basic elements of one element. */
struct measure {
	size_t rest;
	size_t bytes;
};

static bool measure(void *arg, const struct shl_datatype *b, char *addr, size_t n)
{
	struct measure *m = arg;
	size_t k;

	if (m->rest >= n * b->elements) {
		m->rest -= n * b->elements;
		m->bytes += n * b->size;
		return m->rest > 0;
	}
	k = m->rest / b->elements;
	m->rest -= k * b->elements;
	m->bytes += k * b->size;
	/* One basic element into a pair is its value (as tally counts it). */
	if (m->rest > 0 && b->kind == SHL_DT_PAIR)
		m->bytes += b->pair->size;
	m->rest = 0;
	return false;
}

MPI_Count shl_dt_element_bytes(const struct shl_datatype *t, MPI_Count n)
{
	struct measure m = { 0, 0 };
	size_t whole;

	if (t->elements == 0)
		return n == 0 ? 0 : -1;
	if (__builtin_mul_overflow((size_t)n / t->elements, t->size, &whole))
		return -1;
	m.rest = (size_t)n % t->elements;
	if (m.rest > 0)
		walk(t, 0, 1, measure, &m);
	if (__builtin_add_overflow(whole, m.bytes, &whole) || whole > PTRDIFF_MAX)
		return -1;
	return (MPI_Count)whole;
}

/* ---- overlapping typemaps ---- */

/* Runs of one element checked exactly; beyond this only the size bound decides (exact for a
 * plain vector). Sorting 4096 runs is tens of microseconds (qsort, n log n = 50k compares),
 * and typemaps already in address order (the usual case) skip the sort. */
#define SHL_DT_OVERLAP_EXACT 4096

static int by_offset(const void *a, const void *b)
{
	const struct shl_block *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* The runs of one element in typemap order: the loop nest as an odometer. */
struct runs_iter {
	const struct shl_datatype *t;
	size_t idx[SHL_DT_LOOPS];
	size_t run;
	ptrdiff_t org;
};

static struct shl_block next_run(struct runs_iter *it)
{
	const struct shl_datatype *t = it->t;
	struct shl_block b = { it->org + t->runs[it->run].off, t->runs[it->run].len };

	if (++it->run < t->nruns)
		return b;
	it->run = 0;
	for (int k = t->nloops - 1; k >= 0; k--) {
		if (++it->idx[k] < t->loops[k].count) {
			it->org += t->loops[k].stride;
			break;
		}
		it->idx[k] = 0;
		it->org -= (ptrdiff_t)(t->loops[k].count - 1) * t->loops[k].stride;
	}
	return b;
}

/* Sort `n` runs and report whether two of them share a byte. Out of memory: false. */
static bool sorted_overlap(const struct shl_datatype *t, size_t n)
{
	struct runs_iter it = { .t = t };
	struct shl_block *all = malloc(n * sizeof(*all));
	bool found = false;

	if (all == NULL)
		return false;
	for (size_t i = 0; i < n; i++)
		all[i] = next_run(&it);
	qsort(all, n, sizeof(*all), by_offset);
	for (size_t i = 1; i < n && !found; i++)
		found = all[i].off < all[i - 1].off + (ptrdiff_t)all[i - 1].len;
	free(all);
	return found;
}

bool shl_dt_find_overlap(const struct shl_datatype *t)
{
	struct runs_iter it = { .t = t };
	ptrdiff_t prev_off = PTRDIFF_MIN, prev_end = PTRDIFF_MIN;
	size_t n = t->nruns;

	if (t->predefined || t->size == 0)
		return false;
	/* More data than the bytes it spans: some byte is written twice, however large. For a
	 * vector of one run this is exact (|stride| < length), so big vectors are decided. */
	if (t->size > (size_t)t->true_extent)
		return true;
	for (int k = 0; k < t->nloops; k++)
		if (__builtin_mul_overflow(n, t->loops[k].count, &n) || n > SHL_DT_OVERLAP_EXACT)
			return false;   /* too big to expand: called disjoint */
	for (size_t i = 0; i < n; i++) {
		struct shl_block b = next_run(&it);
		if (b.off < prev_off)
			return sorted_overlap(t, n);
		if (b.off < prev_end)
			return true;
		prev_off = b.off;
		prev_end = b.off + (ptrdiff_t)b.len;
	}
	return false;
}
