/* type_darray_every_distribution_matches_owner_formula: MPI_Type_create_darray (and its _c
 * twin) with BLOCK, CYCLIC and NONE, default and explicit distribution arguments, empty
 * processes, 1 to 3 dimensions, in C and Fortran order, selects for every process exactly
 * the elements the standard's owner formula gives it, in local array order, with the
 * global array as extent. */
/* ranks: 1 */
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"

#define MAXD 3
#define MAXE 512

struct cfg {
	int ndims, gs[MAXD], dist[MAXD], darg[MAXD], ps[MAXD], order;
};

/* The global indices of dimension d that process coordinate `coord` owns, in order. */
static int owned(const struct cfg *c, int d, int coord, int *out)
{
	int n = 0, g = c->gs[d], p = c->ps[d], a = c->darg[d];

	for (int i = 0; i < g; i++) {
		int owner;
		switch (c->dist[d]) {
		case MPI_DISTRIBUTE_BLOCK:
			if (a == MPI_DISTRIBUTE_DFLT_DARG)
				a = (g + p - 1) / p;
			owner = i / a;
			break;
		case MPI_DISTRIBUTE_CYCLIC:
			if (a == MPI_DISTRIBUTE_DFLT_DARG)
				a = 1;
			owner = (i / a) % p;
			break;
		default:
			owner = 0;
		}
		if (owner == coord)
			out[n++] = i;
	}
	return n;
}

/* Offsets (in ints) of the global array that process `rank` owns, in the typemap order. */
static int reference(const struct cfg *c, int rank, int *ref)
{
	int coords[MAXD], idx[MAXD][64], len[MAXD], pos[MAXD] = { 0 }, n = 0, rem = rank;

	for (int d = c->ndims - 1; d >= 0; d--) {   /* the process grid is row-major */
		coords[d] = rem % c->ps[d];
		rem /= c->ps[d];
	}
	for (int d = 0; d < c->ndims; d++)
		if ((len[d] = owned(c, d, coords[d], idx[d])) == 0)
			return 0;
	for (;;) {
		int off = 0;
		if (c->order == MPI_ORDER_C)
			for (int d = 0; d < c->ndims; d++)
				off = off * c->gs[d] + idx[d][pos[d]];
		else
			for (int d = c->ndims - 1; d >= 0; d--)
				off = off * c->gs[d] + idx[d][pos[d]];
		ref[n++] = off;
		/* Odometer: the last dimension fastest in C order, the first in Fortran order. */
		int d, k;
		for (k = 0; k < c->ndims; k++) {
			d = c->order == MPI_ORDER_C ? c->ndims - 1 - k : k;
			if (++pos[d] < len[d])
				break;
			pos[d] = 0;
		}
		if (k == c->ndims)
			return n;
	}
}

static void check_cfg(const struct cfg *c, bool large)
{
	int nprocs = 1, total = 1, global[MAXE], got[MAXE], ref[MAXE];

	for (int d = 0; d < c->ndims; d++)
		nprocs *= c->ps[d], total *= c->gs[d];
	CHECK_CMP(total, <=, MAXE);
	for (int i = 0; i < total; i++)
		global[i] = i;
	for (int rank = 0; rank < nprocs; rank++) {
		MPI_Datatype t;
		MPI_Aint lb, extent;
		int size, n = reference(c, rank, ref);
		if (large) {
			MPI_Count gs[MAXD];
			for (int d = 0; d < c->ndims; d++)
				gs[d] = c->gs[d];
			CHECK_MPI(MPI_Type_create_darray_c(nprocs, rank, c->ndims, gs, c->dist,
							   c->darg, c->ps, c->order, MPI_INT, &t));
		} else {
			CHECK_MPI(MPI_Type_create_darray(nprocs, rank, c->ndims, c->gs, c->dist,
							 c->darg, c->ps, c->order, MPI_INT, &t));
		}
		CHECK_MPI(MPI_Type_commit(&t));
		CHECK_MPI(MPI_Type_size(t, &size));
		CHECK_INT(size, n * (int)sizeof(int));
		CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
		CHECK_INT(lb, 0);
		CHECK_INT(extent, total * (int)sizeof(int));
		for (int i = 0; i < MAXE; i++)
			got[i] = -1;
		CHECK_MPI(MPI_Sendrecv(global, 1, t, 0, 0, got, MAXE, MPI_INT, 0, 0, MPI_COMM_SELF,
				       MPI_STATUS_IGNORE));
		for (int i = 0; i < n; i++)
			if (got[i] != ref[i]) {
				fprintf(stderr, "ndims %d order %s rank %d: element %d\n", c->ndims,
					c->order == MPI_ORDER_C ? "C" : "Fortran", rank, i);
				CHECK_INT(got[i], ref[i]);
			}
		CHECK_INT(got[n], -1);
		CHECK_MPI(MPI_Type_free(&t));
	}
}

int main(int argc, char **argv)
{
	const int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE,
		  D = MPI_DISTRIBUTE_DFLT_DARG;
	const struct cfg cfgs[] = {
		{ 1, { 10 }, { B }, { D }, { 3 }, MPI_ORDER_C },
		{ 1, { 10 }, { B }, { 5 }, { 3 }, MPI_ORDER_C },        /* process 2 is empty */
		{ 1, { 10 }, { C }, { D }, { 3 }, MPI_ORDER_FORTRAN },
		{ 1, { 11 }, { C }, { 3 }, { 2 }, MPI_ORDER_C },
		{ 1, { 7 }, { N }, { D }, { 1 }, MPI_ORDER_C },
		{ 2, { 5, 7 }, { N, C }, { D, 2 }, { 1, 3 }, MPI_ORDER_C },
		{ 2, { 5, 7 }, { N, C }, { D, 2 }, { 1, 3 }, MPI_ORDER_FORTRAN },
		{ 2, { 6, 9 }, { C, B }, { 2, D }, { 2, 3 }, MPI_ORDER_FORTRAN },
		{ 2, { 6, 9 }, { B, C }, { D, D }, { 4, 2 }, MPI_ORDER_C },
		{ 3, { 4, 5, 6 }, { B, C, B }, { D, D, 4 }, { 2, 2, 2 }, MPI_ORDER_C },
		{ 3, { 4, 5, 6 }, { B, C, B }, { D, D, 4 }, { 2, 2, 2 }, MPI_ORDER_FORTRAN },
		{ 3, { 3, 8, 5 }, { C, N, C }, { 2, D, D }, { 2, 1, 3 }, MPI_ORDER_FORTRAN },
	};

	CHECK_MPI(MPI_Init(&argc, &argv));
	for (size_t i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		check_cfg(&cfgs[i], false);
		check_cfg(&cfgs[i], true);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
