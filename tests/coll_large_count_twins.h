/* The body of the coll_large_count_*_match_int_twins tests: every large-count collective
 * (MPI_…_c) run in one mode (blocking, MPI_I…_c then MPI_Wait, or MPI_…_init_c started
 * once) must leave every buffer exactly as its int twin, run blocking on the same data,
 * does: ordinary counts, MPI_IN_PLACE where the call allows it, and v/w forms whose blocks
 * lie in reverse rank order with a gap after each. Not a test by itself. */
#ifndef SHOAL_TESTS_COLL_LARGE_COUNT_TWINS_H
#define SHOAL_TESTS_COLL_LARGE_COUNT_TWINS_H

#include <stdbool.h>

#include "check.h"

enum mode { BLOCKING, NONBLOCKING, PERSISTENT };

/* Run the large-count form of collective X (nonblocking twin IX) in mode m with the
 * arguments given, and wait for it. */
#define RUN_C(m, X, IX, ...)                                                            \
	do {                                                                            \
		MPI_Request run_q_;                                                     \
		if ((m) == BLOCKING) {                                                  \
			CHECK_MPI(MPI_##X##_c(__VA_ARGS__));                            \
		} else if ((m) == NONBLOCKING) {                                        \
			CHECK_MPI(MPI_##IX##_c(__VA_ARGS__, &run_q_));                  \
			CHECK_MPI(MPI_Wait(&run_q_, MPI_STATUS_IGNORE));                \
		} else {                                                                \
			CHECK_MPI(MPI_##X##_init_c(__VA_ARGS__, MPI_INFO_NULL, &run_q_)); \
			CHECK_MPI(MPI_Start(&run_q_));                                  \
			CHECK_MPI(MPI_Wait(&run_q_, MPI_STATUS_IGNORE));                \
			CHECK_MPI(MPI_Request_free(&run_q_));                           \
		}                                                                       \
	} while (0)

static int n, me, root;

/* Distinct values for rank r's buffer `seed`; -7 marks bytes no call should write. */
static void fill(int *b, size_t len, int seed, int r)
{
	for (size_t i = 0; i < len; i++)
		b[i] = seed * 1000000 + r * 1000 + (int)i;
}

static int *ints(size_t len)
{
	int *b = malloc((len ? len : 1) * sizeof(int));

	CHECK(b != NULL);
	for (size_t i = 0; i < len; i++)
		b[i] = -7;
	return b;
}

static void same(const char *what, int ip, const int *c, const int *i, size_t len)
{
	for (size_t k = 0; k < len; k++)
		if (c[k] != i[k]) {
			char m[200];
			snprintf(m, sizeof(m), "%s%s: element %zu is %d after the _c call, %d after "
				 "the int call", what, ip ? " (MPI_IN_PLACE)" : "", k, c[k], i[k]);
			check_fail(__FILE__, __LINE__, m);
		}
}

/* A v layout of n blocks: block j has cnt(j) elements at displacement dsp[j], the blocks
 * in reverse order with one unused element after each; returns the elements spanned. */
struct layout {
	int *ci, *di;                 /* int twin's arrays */
	MPI_Count *cc;                /* _c arrays: counts, element and byte displacements */
	MPI_Aint *dc, *bc;
	int *bi;                      /* int byte displacements (…w) */
	size_t span;
};

static struct layout layout(int (*cnt)(int j, int arg), int arg)
{
	struct layout l = { malloc(n * sizeof(int)), malloc(n * sizeof(int)),
			    malloc(n * sizeof(MPI_Count)), malloc(n * sizeof(MPI_Aint)),
			    malloc(n * sizeof(MPI_Aint)), malloc(n * sizeof(int)), 0 };

	CHECK(l.ci && l.di && l.cc && l.dc && l.bc && l.bi);
	for (int j = n - 1; j >= 0; j--) {
		l.ci[j] = cnt(j, arg);
		l.cc[j] = l.ci[j];
		l.di[j] = (int)l.span;
		l.dc[j] = (MPI_Aint)l.span;
		l.bi[j] = l.di[j] * (int)sizeof(int);
		l.bc[j] = l.bi[j];
		l.span += (size_t)l.ci[j] + 1;
	}
	return l;
}

static void layout_free(struct layout *l)
{
	free(l->ci), free(l->di), free(l->cc), free(l->dc), free(l->bc), free(l->bi);
}

static int cnt_by_rank(int j, int arg)
{
	return j % 3 + 1;
}

/* Elements rank i sends rank j in the all-to-all v/w cases; symmetric when in place. */
static int cnt_pair(int i, int j, int ip)
{
	return (ip ? i + j : 2 * i + j) % 3 + 1;
}

static int cnt_to_me(int j, int ip)
{
	return cnt_pair(j, me, ip);
}

static int cnt_from_me(int j, int ip)
{
	return cnt_pair(me, j, ip);
}

static void bcast(enum mode m)
{
	int *bc = ints(5), *bi = ints(5);

	if (me == root)
		fill(bc, 5, 1, me), fill(bi, 5, 1, me);
	RUN_C(m, Bcast, Ibcast, bc, 5, MPI_INT, root, MPI_COMM_WORLD);
	CHECK_MPI(MPI_Bcast(bi, 5, MPI_INT, root, MPI_COMM_WORLD));
	same("Bcast", 0, bc, bi, 5);
	free(bc), free(bi);
}

static void gather(enum mode m, int ip)
{
	int *s = ints(2), *rc = ints(2 * (size_t)n), *ri = ints(2 * (size_t)n);
	bool inp = ip && me == root;

	fill(s, 2, 2, me);
	if (inp)
		memcpy(rc + 2 * me, s, 2 * sizeof(int)), memcpy(ri + 2 * me, s, 2 * sizeof(int));
	RUN_C(m, Gather, Igather, inp ? MPI_IN_PLACE : s, 2, MPI_INT, rc, 2, MPI_INT, root,
	      MPI_COMM_WORLD);
	CHECK_MPI(MPI_Gather(inp ? MPI_IN_PLACE : s, 2, MPI_INT, ri, 2, MPI_INT, root,
			     MPI_COMM_WORLD));
	same("Gather", ip, rc, ri, 2 * (size_t)n);
	free(s), free(rc), free(ri);
}

static void gatherv(enum mode m, int ip)
{
	struct layout l = layout(cnt_by_rank, 0);
	int *s = ints(3), *rc = ints(l.span), *ri = ints(l.span);
	bool inp = ip && me == root;

	fill(s, (size_t)l.ci[me], 3, me);
	if (inp) {
		memcpy(rc + l.di[me], s, (size_t)l.ci[me] * sizeof(int));
		memcpy(ri + l.di[me], s, (size_t)l.ci[me] * sizeof(int));
	}
	RUN_C(m, Gatherv, Igatherv, inp ? MPI_IN_PLACE : s, l.cc[me], MPI_INT, rc, l.cc, l.dc,
	      MPI_INT, root, MPI_COMM_WORLD);
	CHECK_MPI(MPI_Gatherv(inp ? MPI_IN_PLACE : s, l.ci[me], MPI_INT, ri, l.ci, l.di,
			      MPI_INT, root, MPI_COMM_WORLD));
	same("Gatherv", ip, rc, ri, l.span);
	free(s), free(rc), free(ri), layout_free(&l);
}

static void scatter(enum mode m, int ip)
{
	int *s = ints(2 * (size_t)n), *rc = ints(2), *ri = ints(2);
	bool inp = ip && me == root;

	fill(s, 2 * (size_t)n, 4, me);
	RUN_C(m, Scatter, Iscatter, s, 2, MPI_INT, inp ? MPI_IN_PLACE : rc, 2, MPI_INT, root,
	      MPI_COMM_WORLD);
	CHECK_MPI(MPI_Scatter(s, 2, MPI_INT, inp ? MPI_IN_PLACE : ri, 2, MPI_INT, root,
			      MPI_COMM_WORLD));
	same("Scatter", ip, rc, ri, 2);
	free(s), free(rc), free(ri);
}

static void scatterv(enum mode m, int ip)
{
	struct layout l = layout(cnt_by_rank, 0);
	int *s = ints(l.span), *rc = ints(3), *ri = ints(3);
	bool inp = ip && me == root;

	fill(s, l.span, 5, me);
	RUN_C(m, Scatterv, Iscatterv, s, l.cc, l.dc, MPI_INT, inp ? MPI_IN_PLACE : rc,
	      l.cc[me], MPI_INT, root, MPI_COMM_WORLD);
	CHECK_MPI(MPI_Scatterv(s, l.ci, l.di, MPI_INT, inp ? MPI_IN_PLACE : ri, l.ci[me],
			       MPI_INT, root, MPI_COMM_WORLD));
	same("Scatterv", ip, rc, ri, 3);
	free(s), free(rc), free(ri), layout_free(&l);
}

static void allgather(enum mode m, int ip)
{
	int *s = ints(2), *rc = ints(2 * (size_t)n), *ri = ints(2 * (size_t)n);

	fill(s, 2, 6, me);
	if (ip)
		memcpy(rc + 2 * me, s, 2 * sizeof(int)), memcpy(ri + 2 * me, s, 2 * sizeof(int));
	RUN_C(m, Allgather, Iallgather, ip ? MPI_IN_PLACE : s, 2, MPI_INT, rc, 2, MPI_INT,
	      MPI_COMM_WORLD);
	CHECK_MPI(MPI_Allgather(ip ? MPI_IN_PLACE : s, 2, MPI_INT, ri, 2, MPI_INT,
				MPI_COMM_WORLD));
	same("Allgather", ip, rc, ri, 2 * (size_t)n);
	free(s), free(rc), free(ri);
}

static void allgatherv(enum mode m, int ip)
{
	struct layout l = layout(cnt_by_rank, 0);
	int *s = ints(3), *rc = ints(l.span), *ri = ints(l.span);

	fill(s, (size_t)l.ci[me], 7, me);
	if (ip) {
		memcpy(rc + l.di[me], s, (size_t)l.ci[me] * sizeof(int));
		memcpy(ri + l.di[me], s, (size_t)l.ci[me] * sizeof(int));
	}
	RUN_C(m, Allgatherv, Iallgatherv, ip ? MPI_IN_PLACE : s, l.cc[me], MPI_INT, rc, l.cc,
	      l.dc, MPI_INT, MPI_COMM_WORLD);
	CHECK_MPI(MPI_Allgatherv(ip ? MPI_IN_PLACE : s, l.ci[me], MPI_INT, ri, l.ci, l.di,
				 MPI_INT, MPI_COMM_WORLD));
	same("Allgatherv", ip, rc, ri, l.span);
	free(s), free(rc), free(ri), layout_free(&l);
}

static void alltoall(enum mode m, int ip)
{
	size_t len = 2 * (size_t)n;
	int *s = ints(len), *rc = ints(len), *ri = ints(len);

	fill(s, len, 8, me);
	if (ip)
		memcpy(rc, s, len * sizeof(int)), memcpy(ri, s, len * sizeof(int));
	RUN_C(m, Alltoall, Ialltoall, ip ? MPI_IN_PLACE : s, 2, MPI_INT, rc, 2, MPI_INT,
	      MPI_COMM_WORLD);
	CHECK_MPI(MPI_Alltoall(ip ? MPI_IN_PLACE : s, 2, MPI_INT, ri, 2, MPI_INT,
			       MPI_COMM_WORLD));
	same("Alltoall", ip, rc, ri, len);
	free(s), free(rc), free(ri);
}

/* Alltoallv (w false) or Alltoallw with every type MPI_INT and byte displacements. */
static void alltoallvw(enum mode m, int ip, bool w)
{
	struct layout sl = layout(cnt_from_me, ip), rl = layout(cnt_to_me, ip);
	int *s = ints(sl.span), *rc = ints(rl.span), *ri = ints(rl.span);
	MPI_Datatype *t = malloc(n * sizeof(MPI_Datatype));
	const char *what = w ? "Alltoallw" : "Alltoallv";

	CHECK(t != NULL);
	for (int j = 0; j < n; j++)
		t[j] = MPI_INT;
	fill(s, sl.span, w ? 10 : 9, me);
	if (ip)
		fill(rc, rl.span, 11, me), fill(ri, rl.span, 11, me);
	const void *sb = ip ? MPI_IN_PLACE : s;
	if (w) {
		RUN_C(m, Alltoallw, Ialltoallw, sb, sl.cc, sl.bc, t, rc, rl.cc, rl.bc, t,
		      MPI_COMM_WORLD);
		CHECK_MPI(MPI_Alltoallw(sb, sl.ci, sl.bi, t, ri, rl.ci, rl.bi, t,
					MPI_COMM_WORLD));
	} else {
		RUN_C(m, Alltoallv, Ialltoallv, sb, sl.cc, sl.dc, MPI_INT, rc, rl.cc, rl.dc,
		      MPI_INT, MPI_COMM_WORLD);
		CHECK_MPI(MPI_Alltoallv(sb, sl.ci, sl.di, MPI_INT, ri, rl.ci, rl.di, MPI_INT,
					MPI_COMM_WORLD));
	}
	same(what, ip, rc, ri, rl.span);
	free(s), free(rc), free(ri), free(t), layout_free(&sl), layout_free(&rl);
}

static void reduce(enum mode m, int ip)
{
	int *s = ints(3), *rc = ints(3), *ri = ints(3);
	bool inp = ip && me == root;

	fill(s, 3, 12, me);
	if (inp)
		memcpy(rc, s, sizeof(int) * 3), memcpy(ri, s, sizeof(int) * 3);
	RUN_C(m, Reduce, Ireduce, inp ? MPI_IN_PLACE : s, rc, 3, MPI_INT, MPI_SUM, root,
	      MPI_COMM_WORLD);
	CHECK_MPI(MPI_Reduce(inp ? MPI_IN_PLACE : s, ri, 3, MPI_INT, MPI_SUM, root,
			     MPI_COMM_WORLD));
	same("Reduce", ip, rc, ri, 3);
	free(s), free(rc), free(ri);
}

/* Allreduce (which 0), Scan (1) or Exscan (2) of 3 ints with MPI_SUM. */
static void symmetric(enum mode m, int ip, int which)
{
	static const char *const names[] = { "Allreduce", "Scan", "Exscan" };
	int *s = ints(3), *rc = ints(3), *ri = ints(3);
	const void *sb = ip ? MPI_IN_PLACE : s;

	fill(s, 3, 13 + which, me);
	if (ip)
		memcpy(rc, s, sizeof(int) * 3), memcpy(ri, s, sizeof(int) * 3);
	if (which == 0) {
		RUN_C(m, Allreduce, Iallreduce, sb, rc, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		CHECK_MPI(MPI_Allreduce(sb, ri, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	} else if (which == 1) {
		RUN_C(m, Scan, Iscan, sb, rc, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		CHECK_MPI(MPI_Scan(sb, ri, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	} else {
		RUN_C(m, Exscan, Iexscan, sb, rc, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		CHECK_MPI(MPI_Exscan(sb, ri, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	}
	same(names[which], ip, rc, ri, 3);
	free(s), free(rc), free(ri);
}

static void reduce_scatter(enum mode m, int ip)
{
	struct layout l = layout(cnt_by_rank, 0);
	size_t total = 0;

	for (int j = 0; j < n; j++)
		total += (size_t)l.ci[j];
	int *s = ints(total), *rc = ints(total), *ri = ints(total);
	fill(s, total, 16, me);
	if (ip)
		memcpy(rc, s, total * sizeof(int)), memcpy(ri, s, total * sizeof(int));
	RUN_C(m, Reduce_scatter, Ireduce_scatter, ip ? MPI_IN_PLACE : s, rc, l.cc, MPI_INT,
	      MPI_SUM, MPI_COMM_WORLD);
	CHECK_MPI(MPI_Reduce_scatter(ip ? MPI_IN_PLACE : s, ri, l.ci, MPI_INT, MPI_SUM,
				     MPI_COMM_WORLD));
	same("Reduce_scatter", ip, rc, ri, ip ? total : (size_t)l.ci[me]);
	free(s), free(rc), free(ri), layout_free(&l);
}

static void reduce_scatter_block(enum mode m, int ip)
{
	size_t len = 2 * (size_t)n;
	int *s = ints(len), *rc = ints(len), *ri = ints(len);

	fill(s, len, 17, me);
	if (ip)
		memcpy(rc, s, len * sizeof(int)), memcpy(ri, s, len * sizeof(int));
	RUN_C(m, Reduce_scatter_block, Ireduce_scatter_block, ip ? MPI_IN_PLACE : s, rc, 2,
	      MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	CHECK_MPI(MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : s, ri, 2, MPI_INT, MPI_SUM,
					   MPI_COMM_WORLD));
	same("Reduce_scatter_block", ip, rc, ri, ip ? len : 2);
	free(s), free(rc), free(ri);
}

/* Every collective of the chapter in mode m, each without and with MPI_IN_PLACE, then
 * `extra` (if any). */
static int run_twins(int argc, char **argv, enum mode m, void (*extra)(void))
{
	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	root = n - 1;
	bcast(m);
	for (int ip = 0; ip < 2; ip++) {
		gather(m, ip);
		gatherv(m, ip);
		scatter(m, ip);
		scatterv(m, ip);
		allgather(m, ip);
		allgatherv(m, ip);
		alltoall(m, ip);
		alltoallvw(m, ip, false);
		alltoallvw(m, ip, true);
		reduce(m, ip);
		for (int which = 0; which < 3; which++)
			symmetric(m, ip, which);
		reduce_scatter(m, ip);
		reduce_scatter_block(m, ip);
	}
	if (extra != NULL)
		extra();
	CHECK_MPI(MPI_Finalize());
	return 0;
}

#endif
