/* Reference typemaps for the datatype tests: a datatype written out by hand as its list of
 * (byte offset, length) entries in typemap order, and checks that a real MPI datatype
 * moves exactly those bytes in that order through MPI_Pack, MPI_Unpack and point-to-point.
 * Entered by one rank thread at a time; uses only the public MPI interface and check.h. */
#ifndef SHOAL_TESTS_TYPEMAP_H
#define SHOAL_TESTS_TYPEMAP_H

#include <stdlib.h>
#include <string.h>
#include "check.h"

/* One element of a datatype: entries in typemap order, and its lb and extent. */
struct tm {
	size_t n, cap;
	long *off;
	long *len;
	long lb, extent;
};

static inline void tm_push(struct tm *t, long off, long len)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->off = realloc(t->off, t->cap * sizeof(long));
		t->len = realloc(t->len, t->cap * sizeof(long));
		CHECK(t->off != NULL && t->len != NULL);
	}
	t->off[t->n] = off;
	t->len[t->n] = len;
	t->n++;
}

static inline struct tm tm_basic(long size)
{
	struct tm t = { 0 };

	tm_push(&t, 0, size);
	t.lb = 0;
	t.extent = size;
	return t;
}

/* Append `count` elements of `c`, the k-th at disp + k * c->extent. */
static inline void tm_add(struct tm *t, const struct tm *c, long disp, long count)
{
	for (long k = 0; k < count; k++)
		for (size_t i = 0; i < c->n; i++)
			tm_push(t, disp + k * c->extent + c->off[i], c->len[i]);
}

static inline void tm_free(struct tm *t)
{
	free(t->off);
	free(t->len);
	memset(t, 0, sizeof(*t));
}

static inline long tm_size(const struct tm *t)
{
	long s = 0;

	for (size_t i = 0; i < t->n; i++)
		s += t->len[i];
	return s;
}

/* The byte a pattern buffer holds at index i; never 0 (0 marks untouched bytes). */
static inline unsigned char tm_pat(long i, int seed)
{
	return (unsigned char)(1 + (unsigned long)(i * 7 + seed * 13) % 251);
}

/* The buffer a type is laid over: `origin` bytes of room below the buffer address, so
 * negative displacements stay inside. */
struct tm_buf {
	unsigned char *mem;
	long size, origin;
};

static inline struct tm_buf tm_alloc(long below, long above)
{
	struct tm_buf b = { malloc((size_t)(below + above)), below + above, below };

	CHECK(b.mem != NULL);
	return b;
}

/* `count` elements of `t` packed by hand from `src` (origin applied) into a new buffer. */
static inline unsigned char *tm_pack(const struct tm *t, long count, const struct tm_buf *src)
{
	unsigned char *out = malloc((size_t)(tm_size(t) * count) + 1), *p = out;

	CHECK(out != NULL);
	for (long k = 0; k < count; k++)
		for (size_t i = 0; i < t->n; i++) {
			long at = src->origin + k * t->extent + t->off[i];
			CHECK_CMP(at, >=, 0);
			CHECK_CMP(at + t->len[i], <=, src->size);
			memcpy(p, src->mem + at, (size_t)t->len[i]);
			p += t->len[i];
		}
	return out;
}

/* `ty` must be `t`: size, extent, and the bytes MPI_Pack, MPI_Unpack and a self
 * MPI_Sendrecv (typed on one side, MPI_BYTE on the other) move for `count` elements. */
static inline void tm_check(MPI_Datatype ty, const struct tm *t, long count, const char *what)
{
	int size, pos = 0;
	MPI_Aint lb, extent;
	long total = tm_size(t) * count, below = 0, above = 1;
	int rank;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Type_size(ty, &size));
	if (size != tm_size(t))
		fprintf(stderr, "%s: size\n", what);
	CHECK_INT(size, tm_size(t));
	CHECK_MPI(MPI_Type_get_extent(ty, &lb, &extent));
	if (lb != t->lb || extent != t->extent)
		fprintf(stderr, "%s: lb/extent\n", what);
	CHECK_INT(lb, t->lb);
	CHECK_INT(extent, t->extent);
	for (long k = 0; k < count; k++)
		for (size_t i = 0; i < t->n; i++) {
			long lo = k * t->extent + t->off[i], hi = lo + t->len[i];
			if (-lo > below)
				below = -lo;
			if (hi > above)
				above = hi;
		}
	struct tm_buf src = tm_alloc(below, above), dst = tm_alloc(below, above);
	for (long i = 0; i < src.size; i++)
		src.mem[i] = tm_pat(i, 1);
	unsigned char *want = tm_pack(t, count, &src);
	unsigned char *got = malloc((size_t)total + 1);
	CHECK(got != NULL);

	/* MPI_Pack gathers exactly the typemap's bytes, in order. */
	CHECK_MPI(MPI_Pack(src.mem + src.origin, (int)count, ty, got, (int)total, &pos,
			   MPI_COMM_WORLD));
	CHECK_INT(pos, total);
	for (long i = 0; i < total; i++)
		if (got[i] != want[i]) {
			fprintf(stderr, "%s: packed byte %ld is %d, want %d\n", what, i, got[i],
				want[i]);
			CHECK_INT(got[i], want[i]);
		}

	/* MPI_Unpack scatters them back and touches nothing else. */
	memset(dst.mem, 0, (size_t)dst.size);
	pos = 0;
	CHECK_MPI(MPI_Unpack(want, (int)total, &pos, dst.mem + dst.origin, (int)count, ty,
			     MPI_COMM_WORLD));
	CHECK_INT(pos, total);
	unsigned char *back = tm_pack(t, count, &dst);
	CHECK(memcmp(back, want, (size_t)total) == 0);
	free(back);
	long touched = 0;
	for (long i = 0; i < dst.size; i++)
		touched += dst.mem[i] != 0;
	CHECK_CMP(touched, <=, total);

	/* Point-to-point to self: typed -> bytes, then bytes -> typed. */
	MPI_Status st;
	int n;
	memset(got, 0, (size_t)total + 1);
	CHECK_MPI(MPI_Sendrecv(src.mem + src.origin, (int)count, ty, rank, 7, got, (int)total,
			       MPI_BYTE, rank, 7, MPI_COMM_WORLD, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
	CHECK_INT(n, total);
	CHECK(memcmp(got, want, (size_t)total) == 0);
	memset(dst.mem, 0, (size_t)dst.size);
	CHECK_MPI(MPI_Sendrecv(want, (int)total, MPI_BYTE, rank, 8, dst.mem + dst.origin,
			       (int)count, ty, rank, 8, MPI_COMM_WORLD, &st));
	back = tm_pack(t, count, &dst);
	CHECK(memcmp(back, want, (size_t)total) == 0);
	free(back);

	/* Typed -> same type. */
	memset(dst.mem, 0, (size_t)dst.size);
	CHECK_MPI(MPI_Sendrecv(src.mem + src.origin, (int)count, ty, rank, 9, dst.mem + dst.origin,
			       (int)count, ty, rank, 9, MPI_COMM_WORLD, &st));
	back = tm_pack(t, count, &dst);
	CHECK(memcmp(back, want, (size_t)total) == 0);
	free(back);

	free(want);
	free(got);
	free(src.mem);
	free(dst.mem);
}

/* tm_check for a few counts, including one whose message takes the large protocol. */
static inline void tm_check_counts(MPI_Datatype ty, const struct tm *t, const char *what)
{
	long size = tm_size(t);

	tm_check(ty, t, 1, what);
	tm_check(ty, t, 3, what);
	if (size > 0 && size < (1L << 20))
		tm_check(ty, t, (100 * 1024) / size + 1, what);
}

#endif
