/* type_get_contents_c_round_trips_large_counts: a type built by a _c constructor decodes
 * through MPI_Type_get_envelope_c/get_contents_c into its MPI_Count arguments, which rebuild
 * an equal type; the int get_envelope/get_contents refuse it with MPI_ERR_TYPE. */
/* ranks: 1 */
#include <limits.h>
#include "check.h"

#define MAXN 32

struct decoded {
	MPI_Count ni, na, nc, nd;
	int combiner;
	int ints[MAXN];
	MPI_Aint aints[MAXN];
	MPI_Count large[MAXN];
	MPI_Datatype types[MAXN];
};

static void decode(MPI_Datatype t, struct decoded *d)
{
	CHECK_MPI(MPI_Type_get_envelope_c(t, &d->ni, &d->na, &d->nc, &d->nd, &d->combiner));
	CHECK_CMP(d->ni, <=, MAXN);
	CHECK_CMP(d->na, <=, MAXN);
	CHECK_CMP(d->nc, <=, MAXN);
	CHECK_CMP(d->nd, <=, MAXN);
	CHECK_MPI(MPI_Type_get_contents_c(t, d->ni, d->na, d->nc, d->nd, d->ints, d->aints,
					  d->large, d->types));
}

static void free_types(struct decoded *d)
{
	for (MPI_Count i = 0; i < d->nd; i++) {
		MPI_Count ni, na, nc, nd;
		int comb;
		CHECK_MPI(MPI_Type_get_envelope_c(d->types[i], &ni, &na, &nc, &nd, &comb));
		if (comb != MPI_COMBINER_NAMED)
			CHECK_MPI(MPI_Type_free(&d->types[i]));
	}
}

/* The type the decoded _c arguments describe, built again by the same _c constructor. */
static MPI_Datatype rebuild(const struct decoded *d)
{
	const MPI_Count *c = d->large;
	MPI_Datatype t = MPI_DATATYPE_NULL, old = d->types[0];
	MPI_Count n = c[0];

	switch (d->combiner) {
	case MPI_COMBINER_CONTIGUOUS:
		CHECK_MPI(MPI_Type_contiguous_c(n, old, &t));
		break;
	case MPI_COMBINER_VECTOR:
		CHECK_MPI(MPI_Type_vector_c(n, c[1], c[2], old, &t));
		break;
	case MPI_COMBINER_HVECTOR:
		CHECK_MPI(MPI_Type_create_hvector_c(n, c[1], c[2], old, &t));
		break;
	case MPI_COMBINER_INDEXED:
		CHECK_MPI(MPI_Type_indexed_c(n, c + 1, c + 1 + n, old, &t));
		break;
	case MPI_COMBINER_HINDEXED:
		CHECK_MPI(MPI_Type_create_hindexed_c(n, c + 1, c + 1 + n, old, &t));
		break;
	case MPI_COMBINER_INDEXED_BLOCK:
		CHECK_MPI(MPI_Type_create_indexed_block_c(n, c[1], c + 2, old, &t));
		break;
	case MPI_COMBINER_HINDEXED_BLOCK:
		CHECK_MPI(MPI_Type_create_hindexed_block_c(n, c[1], c + 2, old, &t));
		break;
	case MPI_COMBINER_STRUCT:
		CHECK_MPI(MPI_Type_create_struct_c(n, c + 1, c + 1 + n, d->types, &t));
		break;
	case MPI_COMBINER_SUBARRAY: {
		int nd = d->ints[0];
		CHECK_MPI(MPI_Type_create_subarray_c(nd, c, c + nd, c + 2 * nd, d->ints[1],
						     d->types[0], &t));
		break;
	}
	case MPI_COMBINER_DARRAY: {
		const int *i = d->ints;
		int nd = i[2];
		CHECK_MPI(MPI_Type_create_darray_c(i[0], i[1], nd, c, i + 3, i + 3 + nd,
						   i + 3 + 2 * nd, i[3 + 3 * nd], old, &t));
		break;
	}
	case MPI_COMBINER_RESIZED:
		CHECK_MPI(MPI_Type_create_resized_c(old, c[0], c[1], &t));
		break;
	default:
		CHECK_INT(d->combiner, -1);
	}
	return t;
}

/* `t` (from a _c constructor) decodes to `combiner` with ni/na/nc/nd arguments whose large
 * counts start with `first`; the int decoders refuse it; its rebuild packs like it. */
static void round_trip(MPI_Datatype t, int combiner, MPI_Count ni, MPI_Count nc, MPI_Count nd,
		       MPI_Count first)
{
	struct decoded d;
	int a, b, c, e, ints[MAXN];
	MPI_Aint aints[MAXN];
	MPI_Datatype types[MAXN];

	decode(t, &d);
	CHECK_INT(d.combiner, combiner);
	CHECK_INT(d.ni, ni);
	CHECK_INT(d.na, 0);
	CHECK_INT(d.nc, nc);
	CHECK_INT(d.nd, nd);
	CHECK_INT(d.large[0], first);
	CHECK_CLASS(MPI_Type_get_envelope(t, &a, &b, &c, &e), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_contents(t, MAXN, MAXN, MAXN, ints, aints, types),
		    MPI_ERR_TYPE);
	/* Too little room for the large counts. */
	CHECK_CLASS(MPI_Type_get_contents_c(t, MAXN, MAXN, nc - 1, MAXN, d.ints, d.aints,
					    d.large, d.types), MPI_ERR_ARG);

	MPI_Datatype u = rebuild(&d);
	MPI_Count s1, s2, lb1, lb2, e1, e2;
	CHECK_MPI(MPI_Type_size_c(t, &s1));
	CHECK_MPI(MPI_Type_size_c(u, &s2));
	CHECK_INT(s1, s2);
	CHECK_MPI(MPI_Type_get_extent_c(t, &lb1, &e1));
	CHECK_MPI(MPI_Type_get_extent_c(u, &lb2, &e2));
	CHECK_INT(lb1, lb2);
	CHECK_INT(e1, e2);
	CHECK_MPI(MPI_Type_commit(&t));
	CHECK_MPI(MPI_Type_commit(&u));
	MPI_Count tlb, text;
	CHECK_MPI(MPI_Type_get_true_extent_c(t, &tlb, &text));
	long below = tlb < 0 ? (long)-tlb : 0, span = below + (long)(tlb + text) + 1;
	unsigned char *src = malloc((size_t)span), *p1 = malloc((size_t)s1 + 1),
		      *p2 = malloc((size_t)s1 + 1);
	CHECK(src != NULL && p1 != NULL && p2 != NULL);
	for (long k = 0; k < span; k++)
		src[k] = (unsigned char)(k * 13 + 1);
	MPI_Count pos1 = 0, pos2 = 0;
	CHECK_MPI(MPI_Pack_c(src + below, 1, t, p1, s1, &pos1, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack_c(src + below, 1, u, p2, s1, &pos2, MPI_COMM_WORLD));
	CHECK_INT(pos1, s1);
	CHECK_INT(pos2, s1);
	CHECK(memcmp(p1, p2, (size_t)s1) == 0);
	free(src);
	free(p1);
	free(p2);
	free_types(&d);
	CHECK_MPI(MPI_Type_free(&u));
	CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
	MPI_Datatype t, vec;
	struct decoded d;

	MPI_Init(&argc, &argv);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

	/* A count beyond INT_MAX comes back exactly. */
	MPI_Count big = (MPI_Count)INT_MAX + 3;
	CHECK_MPI(MPI_Type_contiguous_c(big, MPI_BYTE, &t));
	decode(t, &d);
	CHECK_INT(d.combiner, MPI_COMBINER_CONTIGUOUS);
	CHECK_INT(d.nc, 1);
	CHECK_INT(d.large[0], big);
	CHECK(d.types[0] == MPI_BYTE);
	CHECK_MPI(MPI_Type_free(&t));

	CHECK_MPI(MPI_Type_contiguous_c(7, MPI_INT, &t));
	round_trip(t, MPI_COMBINER_CONTIGUOUS, 0, 1, 1, 7);
	CHECK_MPI(MPI_Type_vector_c(3, 2, 5, MPI_DOUBLE, &t));
	round_trip(t, MPI_COMBINER_VECTOR, 0, 3, 1, 3);
	CHECK_MPI(MPI_Type_create_hvector_c(3, 2, 44, MPI_INT, &t));
	round_trip(t, MPI_COMBINER_HVECTOR, 0, 3, 1, 3);
	{
		MPI_Count bl[3] = { 1, 3, 2 }, dp[3] = { 6, 0, 11 };
		CHECK_MPI(MPI_Type_indexed_c(3, bl, dp, MPI_SHORT, &t));
		round_trip(t, MPI_COMBINER_INDEXED, 0, 7, 1, 3);
		CHECK_MPI(MPI_Type_create_hindexed_c(3, bl, dp, MPI_SHORT, &t));
		round_trip(t, MPI_COMBINER_HINDEXED, 0, 7, 1, 3);
		CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, dp, MPI_INT, &t));
		round_trip(t, MPI_COMBINER_INDEXED_BLOCK, 0, 5, 1, 3);
		CHECK_MPI(MPI_Type_create_hindexed_block_c(3, 2, dp, MPI_CHAR, &t));
		round_trip(t, MPI_COMBINER_HINDEXED_BLOCK, 0, 5, 1, 3);
	}
	/* A struct over a derived type: the decoded type is a new handle to free. */
	CHECK_MPI(MPI_Type_vector_c(2, 1, 3, MPI_FLOAT, &vec));
	{
		MPI_Count bl[2] = { 2, 1 }, dp[2] = { 0, 40 };
		MPI_Datatype ty[2] = { vec, MPI_DOUBLE };
		CHECK_MPI(MPI_Type_create_struct_c(2, bl, dp, ty, &t));
		round_trip(t, MPI_COMBINER_STRUCT, 0, 5, 2, 2);
	}
	{
		MPI_Count sz[2] = { 6, 9 }, sub[2] = { 2, 4 }, st[2] = { 3, 5 };
		CHECK_MPI(MPI_Type_create_subarray_c(2, sz, sub, st, MPI_ORDER_FORTRAN, MPI_INT,
						     &t));
		round_trip(t, MPI_COMBINER_SUBARRAY, 2, 6, 1, 6);
		CHECK_MPI(MPI_Type_create_subarray_c(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t));
		decode(t, &d);
		CHECK_INT(d.ints[0], 2);
		CHECK_INT(d.ints[1], MPI_ORDER_C);
		CHECK_INT(d.large[3], 4);
		CHECK_INT(d.large[5], 5);
		CHECK_MPI(MPI_Type_free(&t));
	}
	{
		MPI_Count gs[2] = { 10, 7 };
		int dist[2] = { MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK };
		int darg[2] = { 2, MPI_DISTRIBUTE_DFLT_DARG }, ps[2] = { 3, 2 };
		CHECK_MPI(MPI_Type_create_darray_c(6, 4, 2, gs, dist, darg, ps, MPI_ORDER_C,
						   MPI_DOUBLE, &t));
		decode(t, &d);
		CHECK_INT(d.ni, 3 * 2 + 4);
		CHECK_INT(d.ints[1], 4);
		CHECK_INT(d.ints[3], MPI_DISTRIBUTE_CYCLIC);
		CHECK_INT(d.ints[9], MPI_ORDER_C);
		round_trip(t, MPI_COMBINER_DARRAY, 10, 2, 1, 10);
	}
	CHECK_MPI(MPI_Type_create_resized_c(vec, -4, 100, &t));
	round_trip(t, MPI_COMBINER_RESIZED, 0, 2, 1, -4);
	CHECK_MPI(MPI_Type_free(&vec));

	/* Types from int constructors decode the same through both, with no large counts. */
	CHECK_MPI(MPI_Type_create_hvector(3, 2, 44, MPI_INT, &t));
	decode(t, &d);
	CHECK_INT(d.combiner, MPI_COMBINER_HVECTOR);
	CHECK_INT(d.ni, 2);
	CHECK_INT(d.na, 1);
	CHECK_INT(d.nc, 0);
	CHECK_INT(d.ints[1], 2);
	CHECK_INT(d.aints[0], 44);
	int ni, na, nd, comb;
	CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
	CHECK_INT(ni, 2);
	CHECK_INT(na, 1);
	CHECK_MPI(MPI_Type_free(&t));

	/* Predefined: named, no contents. */
	CHECK_MPI(MPI_Type_get_envelope_c(MPI_INT, &d.ni, &d.na, &d.nc, &d.nd, &d.combiner));
	CHECK_INT(d.combiner, MPI_COMBINER_NAMED);
	CHECK_INT(d.ni + d.na + d.nc + d.nd, 0);
	CHECK_CLASS(MPI_Type_get_contents_c(MPI_INT, 1, 1, 1, 1, d.ints, d.aints, d.large,
					    d.types), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Type_get_envelope_c(MPI_DATATYPE_NULL, &d.ni, &d.na, &d.nc, &d.nd,
					    &d.combiner), MPI_ERR_TYPE);

	MPI_Finalize();
	return 0;
}
