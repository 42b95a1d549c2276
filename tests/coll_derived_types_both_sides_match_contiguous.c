/* coll_derived_types_both_sides_match_contiguous: every data collective (blocking, and
 * nonblocking and persistent samples) run with a non-contiguous resized vector on the send
 * side and a reordering resized struct on the receive side delivers exactly what the same
 * call with contiguous doubles delivers, leaves receive padding alone and never reads send
 * padding; also with MPI_BOTTOM and absolute addresses, small and large blocks. */
/* ranks: 1 2 3 4 64 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define SENT (-1.0)   /* receive padding and unwritten elements */
#define PAD (-7.0)    /* send padding: must never arrive anywhere */

static int rank, size;
/* S: doubles 0 and 2 of an extent of 4 doubles. R: doubles 1 then 0 of an extent of 3. */
static MPI_Datatype S, R;

enum coll {
	BCAST, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV,
	ALLTOALLW, REDUCE, ALLREDUCE, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN, IALLTOALL,
	IALLGATHERV, IREDUCE, ALLTOALL_INIT, BCAST_BOTTOM, ALLTOALLW_BOTTOM, NCOLL
};
static const char *const names[] = {
	"Bcast", "Gather", "Gatherv", "Scatter", "Scatterv", "Allgather", "Allgatherv",
	"Alltoall", "Alltoallv", "Alltoallw", "Reduce", "Allreduce", "Reduce_scatter_block",
	"Scan", "Exscan", "Ialltoall", "Iallgatherv", "Ireduce", "Alltoall_init",
	"Bcast(MPI_BOTTOM)", "Alltoallw_c(MPI_BOTTOM)",
};

/* The logical data (element e = doubles 2e, 2e+1) in S's layout. */
static double *to_s(const double *l, size_t elems)
{
	double *s = malloc((4 * elems + 1) * sizeof(double));

	for (size_t e = 0; e < elems; e++) {
		s[4 * e] = l[2 * e];
		s[4 * e + 1] = PAD;
		s[4 * e + 2] = l[2 * e + 1];
		s[4 * e + 3] = PAD;
	}
	return s;
}

static bool reducing(enum coll c)
{
	return c == REDUCE || c == IREDUCE || c == ALLREDUCE || c == REDUCE_SCATTER_BLOCK ||
	       c == SCAN || c == EXSCAN;
}

static double *new_buf(size_t doubles)
{
	double *r = malloc((doubles + 1) * sizeof(double));

	for (size_t i = 0; i < doubles; i++)
		r[i] = SENT;
	return r;
}

/* S's layout back to logical order (reductions receive with S); padding untouched. */
static void from_s(double *l, const double *s, size_t elems)
{
	for (size_t e = 0; e < elems; e++) {
		l[2 * e] = s[4 * e];
		l[2 * e + 1] = s[4 * e + 2];
		CHECK(s[4 * e + 1] == SENT && s[4 * e + 3] == SENT);
	}
}

static double *new_r(size_t elems)
{
	double *r = malloc((3 * elems + 1) * sizeof(double));

	for (size_t i = 0; i < 3 * elems; i++)
		r[i] = SENT;
	return r;
}

/* R's layout back to logical order; its padding must be untouched. */
static void from_r(double *l, const double *r, size_t elems)
{
	for (size_t e = 0; e < elems; e++) {
		l[2 * e] = r[3 * e + 1];
		l[2 * e + 1] = r[3 * e];
		CHECK(r[3 * e + 2] == SENT);
	}
}

/* Run collective `c` with `cnt` elements per block from logical send data `ls` into
 * logical receive data `lr` (n * cnt elements, SENT before), through S and R (`derived`)
 * or contiguous doubles. Counts and displacements are in elements of the type used. */
static void run(enum coll c, bool derived, int cnt, const double *ls, double *lr)
{
	MPI_Comm w = MPI_COMM_WORLD;
	size_t n = (size_t)size, all = n * (size_t)cnt;
	int u = derived ? 1 : 2;          /* doubles are 2 per element */
	bool red = reducing(c);
	MPI_Datatype st = derived ? S : MPI_DOUBLE, rt = derived ? (red ? S : R) : MPI_DOUBLE;
	MPI_Aint sext = derived ? 4 * sizeof(double) : 2 * sizeof(double);
	MPI_Aint rext = derived ? 3 * sizeof(double) : 2 * sizeof(double);
	double *sb = derived ? to_s(ls, all) : memcpy(malloc(all * 16 + 8), ls, all * 16);
	double *rb = !derived ? lr : red ? new_buf(4 * all) : new_r(all);
	int *sc = malloc(n * sizeof(int)), *sd = malloc(n * sizeof(int));
	int *rc = malloc(n * sizeof(int)), *rd = malloc(n * sizeof(int));
	MPI_Aint *ad = malloc(n * sizeof(MPI_Aint));
	MPI_Count *acnt = malloc(n * sizeof(MPI_Count));
	MPI_Datatype *sts = malloc(n * sizeof(MPI_Datatype)), *rts = malloc(n * sizeof(MPI_Datatype));
	MPI_Request q;
	int root = size - 1;

	/* v forms: block k holds cnt - k % 2 elements (at least 1) in slot size-1-k of cnt
	 * elements: reverse rank order, a gap after the shorter blocks. */
	for (int k = 0; k < size; k++) {
		rc[k] = (cnt > 1 ? cnt - k % 2 : cnt) * u;
		rd[k] = (size - 1 - k) * cnt * u;
	}
	for (int k = 0; k < size; k++) {
		sc[k] = cnt * u;
		sd[k] = k * cnt * u;
		sts[k] = st;
		rts[k] = rt;
	}
	switch (c) {
	case BCAST:
		if (rank == root)
			CHECK_MPI(MPI_Bcast(sb, cnt * u, st, root, w));
		else
			CHECK_MPI(MPI_Bcast(rb, cnt * u, rt, root, w));
		break;
	case GATHER:
		CHECK_MPI(MPI_Gather(sb, cnt * u, st, rb, cnt * u, rt, 0, w));
		break;
	case GATHERV: {
		int mine = rc[rank];
		CHECK_MPI(MPI_Gatherv(sb, mine, st, rb, rc, rd, rt, root, w));
		break;
	}
	case SCATTER:
		CHECK_MPI(MPI_Scatter(sb, cnt * u, st, rb, cnt * u, rt, 0, w));
		break;
	case SCATTERV:
		/* Root sends the reversed, gapped v layout; each rank receives its block. */
		CHECK_MPI(MPI_Scatterv(sb, rc, rd, st, rb, rc[rank], rt, root, w));
		break;
	case ALLGATHER:
		CHECK_MPI(MPI_Allgather(sb, cnt * u, st, rb, cnt * u, rt, w));
		break;
	case ALLGATHERV:
		CHECK_MPI(MPI_Allgatherv(sb, rc[rank], st, rb, rc, rd, rt, w));
		break;
	case IALLGATHERV:
		CHECK_MPI(MPI_Iallgatherv(sb, rc[rank], st, rb, rc, rd, rt, w, &q));
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
		break;
	case ALLTOALL:
		CHECK_MPI(MPI_Alltoall(sb, cnt * u, st, rb, cnt * u, rt, w));
		break;
	case IALLTOALL:
		CHECK_MPI(MPI_Ialltoall(sb, cnt * u, st, rb, cnt * u, rt, w, &q));
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
		break;
	case ALLTOALL_INIT:
		CHECK_MPI(MPI_Alltoall_init(sb, cnt * u, st, rb, cnt * u, rt, w, MPI_INFO_NULL, &q));
		for (int i = 0; i < 2; i++) {
			CHECK_MPI(MPI_Start(&q));
			CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
		}
		CHECK_MPI(MPI_Request_free(&q));
		break;
	case ALLTOALLV:
		/* Rank i sends rc[j] elements... every rank agrees: block to j has the size j
		 * receives from anyone, rc[i] for the receiver's view of sender i. Use the same
		 * length for both sides: len(i -> j) = rc[i] (the sender's index). */
		for (int k = 0; k < size; k++) {
			sc[k] = rc[rank];
			sd[k] = k * cnt * u;
		}
		CHECK_MPI(MPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, w));
		break;
	case ALLTOALLW:
		for (int k = 0; k < size; k++) {
			sd[k] = (int)(k * cnt * sext);
			rd[k] = (int)(rd[k] / u * rext);
		}
		CHECK_MPI(MPI_Alltoallw(sb, sc, sd, sts, rb, sc, rd, rts, w));
		break;
	case ALLTOALLW_BOTTOM:
		/* Receive blocks at absolute addresses, in reverse rank order. */
		for (int k = 0; k < size; k++) {
			acnt[k] = cnt * u;
			MPI_Get_address((char *)rb + (size_t)(size - 1 - k) * cnt * rext, &ad[k]);
		}
		{
			MPI_Aint *sad = malloc(n * sizeof(MPI_Aint));
			for (int k = 0; k < size; k++)
				sad[k] = k * cnt * sext;
			CHECK_MPI(MPI_Alltoallw_c(sb, acnt, sad, sts, MPI_BOTTOM, acnt, ad, rts, w));
			free(sad);
		}
		break;
	case BCAST_BOTTOM: {
		MPI_Datatype blk, abs;
		MPI_Aint a;
		void *b = rank == root ? (void *)sb : (void *)rb;
		CHECK_MPI(MPI_Type_contiguous(cnt * u, rank == root ? st : rt, &blk));
		MPI_Get_address(b, &a);
		CHECK_MPI(MPI_Type_create_struct(1, (int[]){ 1 }, &a, &blk, &abs));
		CHECK_MPI(MPI_Type_commit(&abs));
		CHECK_MPI(MPI_Bcast(MPI_BOTTOM, 1, abs, root, w));
		MPI_Type_free(&abs);
		MPI_Type_free(&blk);
		break;
	}
	case REDUCE:
		CHECK_MPI(MPI_Reduce(sb, rb, cnt * u, st, MPI_SUM, 0, w));
		break;
	case IREDUCE:
		CHECK_MPI(MPI_Ireduce(sb, rb, cnt * u, st, MPI_SUM, 0, w, &q));
		CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
		break;
	case ALLREDUCE:
		CHECK_MPI(MPI_Allreduce(sb, rb, cnt * u, st, MPI_SUM, w));
		break;
	case REDUCE_SCATTER_BLOCK:
		CHECK_MPI(MPI_Reduce_scatter_block(sb, rb, cnt * u, st, MPI_SUM, w));
		break;
	case SCAN:
		CHECK_MPI(MPI_Scan(sb, rb, cnt * u, st, MPI_SUM, w));
		break;
	case EXSCAN:
		CHECK_MPI(MPI_Exscan(sb, rb, cnt * u, st, MPI_SUM, w));
		break;
	default:
		CHECK(!"unknown collective");
	}
	if (derived) {
		/* Reductions take one type on both sides: S; the rest receive with R. */
		if (red)
			from_s(lr, rb, all);
		else
			from_r(lr, rb, all);
		free(rb);
	}
	free(sb);
	free(sc), free(sd), free(rc), free(rd), free(ad), free(acnt), free(sts), free(rts);
}

int main(int argc, char **argv)
{
	MPI_Datatype v, st;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &v));
	CHECK_MPI(MPI_Type_create_resized(v, 0, 4 * sizeof(double), &S));
	CHECK_MPI(MPI_Type_commit(&S));
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 1, 1 },
					 (MPI_Aint[]){ sizeof(double), 0 },
					 (MPI_Datatype[]){ MPI_DOUBLE, MPI_DOUBLE }, &st));
	CHECK_MPI(MPI_Type_create_resized(st, 0, 3 * sizeof(double), &R));
	CHECK_MPI(MPI_Type_commit(&R));

	/* 3 elements per block (small path) and ~8192 elements per rank (large copies). */
	int cnts[2] = { 3, size < 8192 ? 8192 / size : 1 };
	for (int ci = 0; ci < 2; ci++) {
		int cnt = cnts[ci];
		size_t all = (size_t)size * cnt;
		double *ls = malloc(all * 16), *ref = malloc(all * 16), *got = malloc(all * 16);
		for (size_t i = 0; i < 2 * all; i++)
			ls[i] = (double)(rank * 1000003 + (long)i % 9973);
		for (int c = 0; c < NCOLL; c++) {
			for (size_t i = 0; i < 2 * all; i++)
				ref[i] = got[i] = SENT;
			run((enum coll)c, false, cnt, ls, ref);
			run((enum coll)c, true, cnt, ls, got);
			if (c == EXSCAN && rank == 0)
				continue;   /* recvbuf undefined there (MPI 4.1, 6.11.2) */
			for (size_t i = 0; i < 2 * all; i++)
				if (got[i] != ref[i]) {
					fprintf(stderr, "rank %d: %s, %d per block: double %zu\n", rank,
						names[c], cnt, i);
					CHECK(got[i] == ref[i]);
				}
		}
		free(ls), free(ref), free(got);
	}
	MPI_Type_free(&v);
	MPI_Type_free(&st);
	MPI_Type_free(&S);
	MPI_Type_free(&R);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
