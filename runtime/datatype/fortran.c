/* The Fortran datatypes of MPI 4.1 (section 3.2.2 and the optional sized types of 19.1.9):
 * MPI_INTEGER, MPI_REAL, MPI_LOGICAL ... as predefined objects shared by every rank, and
 * MPI_Type_create_f90_integer/real/complex, which answer one cached derived type per
 * argument set and rank (combiner MPI_COMBINER_F90_*). The layouts are gfortran's on x86-64: default
 * INTEGER, REAL and LOGICAL are 4 bytes, .TRUE. is 1, REAL(16) is IEEE binary128
 * (_Float128, not the x87 long double that is REAL(10)). MPI_REAL2 and MPI_COMPLEX4 are
 * MPI_DATATYPE_NULL: gfortran has no 2-byte REAL.
 * Entered by rank threads; the predefined objects are immutable statics, the f90 cache is
 * process-wide under its own mutex (its types are never freed). */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/datatype/internal.h"

/* One predefined Fortran type of `sz` bytes made of `n` components (a COMPLEX: 2), each
 * `ext` bytes in external32 (the table of MPI 4.1 section 15.5.2 gives the Fortran sizes:
 * LOGICAL and INTEGER 4, INTEGERn n, REALn n, COMPLEXn n, CHARACTER 1). Integers of 16
 * bytes, whose external32 form is the same width big-endian, convert as SHL_DT_FLOAT: a
 * plain byte swap (the integer path works in 64 bits). */
#define FTYPE(var, sz, al, mpiname, k, ext, n, elems, a)                                \
	SHL_API SHL_HANDLE_PREDEF struct shl_datatype var = {                           \
		.magic = SHL_TYPE_MAGIC, .predefined = true, .contig = true,            \
		.committed = true, .kind = k, .ext_size = ext, .ncomp = n,              \
		.arith = SHL_DT_ARITH_##a, .align = al, .size = sz, .lb = 0,            \
		.extent = sz, .true_lb = 0, .true_extent = sz,                          \
		.elements = elems, .nruns = 1, .runs = var.blocks,                      \
		.blocks = { { 0, sz } }, .name = mpiname }

#define B SHL_DT_BYTES
#define S SHL_DT_SIGNED
#define F SHL_DT_FLOAT
FTYPE(shl_mpi_character, 1, 1, "MPI_CHARACTER", B, 1, 1, 1, NONE);
FTYPE(shl_mpi_logical, 4, 4, "MPI_LOGICAL", S, 4, 1, 1, L4);
FTYPE(shl_mpi_integer, 4, 4, "MPI_INTEGER", S, 4, 1, 1, I32);
FTYPE(shl_mpi_real, 4, 4, "MPI_REAL", F, 4, 1, 1, F);
FTYPE(shl_mpi_double_precision, 8, 8, "MPI_DOUBLE_PRECISION", F, 8, 1, 1, D);
FTYPE(shl_mpi_complex, 8, 4, "MPI_COMPLEX", F, 4, 2, 1, CF);
FTYPE(shl_mpi_double_complex, 16, 8, "MPI_DOUBLE_COMPLEX", F, 8, 2, 1, CD);
FTYPE(shl_mpi_integer1, 1, 1, "MPI_INTEGER1", S, 1, 1, 1, I8);
FTYPE(shl_mpi_integer2, 2, 2, "MPI_INTEGER2", S, 2, 1, 1, I16);
FTYPE(shl_mpi_integer4, 4, 4, "MPI_INTEGER4", S, 4, 1, 1, I32);
FTYPE(shl_mpi_integer8, 8, 8, "MPI_INTEGER8", S, 8, 1, 1, I64);
FTYPE(shl_mpi_integer16, 16, 16, "MPI_INTEGER16", F, 16, 1, 1, I128);
FTYPE(shl_mpi_real4, 4, 4, "MPI_REAL4", F, 4, 1, 1, F);
FTYPE(shl_mpi_real8, 8, 8, "MPI_REAL8", F, 8, 1, 1, D);
FTYPE(shl_mpi_real16, 16, 16, "MPI_REAL16", F, 16, 1, 1, Q);
FTYPE(shl_mpi_complex8, 8, 4, "MPI_COMPLEX8", F, 4, 2, 1, CF);
FTYPE(shl_mpi_complex16, 16, 8, "MPI_COMPLEX16", F, 8, 2, 1, CD);
FTYPE(shl_mpi_complex32, 32, 16, "MPI_COMPLEX32", F, 16, 2, 1, CQ);
FTYPE(shl_mpi_logical1, 1, 1, "MPI_LOGICAL1", S, 1, 1, 1, L1);
FTYPE(shl_mpi_logical2, 2, 2, "MPI_LOGICAL2", S, 2, 1, 1, L2);
FTYPE(shl_mpi_logical4, 4, 4, "MPI_LOGICAL4", S, 4, 1, 1, L4);
FTYPE(shl_mpi_logical8, 8, 8, "MPI_LOGICAL8", S, 8, 1, 1, L8);
FTYPE(shl_mpi_logical16, 16, 16, "MPI_LOGICAL16", F, 16, 1, 1, L16);
/* The MINLOC/MAXLOC pairs of Fortran (MPI 4.1 6.9.4): a value and an index of the same
 * type, two basic elements. MPI_2INTEGER has MPI_2INT's layout and kernels. */
FTYPE(shl_mpi_2real, 8, 4, "MPI_2REAL", F, 4, 2, 2, P_2F);
FTYPE(shl_mpi_2double_precision, 16, 8, "MPI_2DOUBLE_PRECISION", F, 8, 2, 2, P_2D);
SHL_API SHL_HANDLE_PREDEF struct shl_datatype shl_mpi_2integer = {
	.magic = SHL_TYPE_MAGIC, .predefined = true, .committed = true, .contig = true,
	.kind = SHL_DT_PAIR, .ncomp = 2, .arith = SHL_DT_ARITH_P_I, .align = 4, .size = 8,
	.lb = 0, .extent = 8, .true_lb = 0, .true_extent = 8, .elements = 2, .nruns = 1,
	.runs = shl_mpi_2integer.blocks, .blocks = { { 0, 8 } }, .pair = &shl_mpi_integer,
	.pair_off = 4, .name = "MPI_2INTEGER" };
#undef B
#undef S
#undef F

_Static_assert(sizeof(_Float128) == 16 && sizeof(__int128) == 16 &&
	       sizeof(_Complex _Float128) == 32, "REAL(16), INTEGER(16), COMPLEX(16) layouts");

/* ---- MPI_Type_create_f90_integer / real / complex ---- */

/* The types already answered: one per (rank, combiner, p, r), so that repeated calls give
 * the same handle (MPI 4.1 19.1.9 lets an implementation cache them; a program may call
 * these often). Per rank, as the attributes a rank may put on them are its own. Never
 * freed: it is erroneous to free them. */
struct f90_entry {
	int owner, combiner, p, r;
	struct shl_datatype *t;
};

static pthread_mutex_t f90_lock = PTHREAD_MUTEX_INITIALIZER;
static struct f90_entry *f90_cache;
static size_t f90_n, f90_cap;

/* A new derived type equal to `base` with the F90 contents (ints: r, or p and r). */
static int f90_make(const struct shl_datatype *base, int combiner, int p, int r,
		    struct shl_datatype **out)
{
	struct shl_dt_tree l = { .count = 1, .blen = 1, .child = (struct shl_datatype *)base };
	struct shl_dt_resize rs = { base->lb, base->extent };
	int ints[2] = { p, r };
	struct shl_dt_contents c = { .combiner = combiner };
	struct shl_datatype *t;
	int rc = shl_dt_build(&l, &rs, false, &t);

	if (rc != 0)
		return rc;
	if (combiner == MPI_COMBINER_F90_INTEGER)
		c.nints = 1, c.ints = &ints[1];
	else
		c.nints = 2, c.ints = ints;
	rc = shl_dt_set_contents(t, &c);
	if (rc != 0) {
		shl_dt_release(t);
		return rc;
	}
	t->committed = true;
	atomic_store_explicit(&t->handles, 1, memory_order_relaxed);
	*out = t;
	return 0;
}

static int f90_type(const char *fn, const struct shl_datatype *base, int combiner, int p,
		    int r, MPI_Datatype *newtype)
{
	struct shl_datatype *t = NULL;
	int owner = shl_self != NULL ? shl_self->world_rank : -1;
	int rc = 0;

	pthread_mutex_lock(&f90_lock);
	for (size_t i = 0; i < f90_n && t == NULL; i++)
		if (f90_cache[i].owner == owner && f90_cache[i].combiner == combiner &&
		    f90_cache[i].p == p && f90_cache[i].r == r)
			t = f90_cache[i].t;
	if (t == NULL && f90_n == f90_cap) {
		size_t cap = f90_cap ? 2 * f90_cap : 16;
		struct f90_entry *e = realloc(f90_cache, cap * sizeof(*e));
		if (e == NULL)
			rc = -ENOMEM;
		else
			f90_cache = e, f90_cap = cap;
	}
	if (t == NULL && rc == 0) {
		rc = f90_make(base, combiner, p, r, &t);
		if (rc == 0)
			f90_cache[f90_n++] = (struct f90_entry){ owner, combiner, p, r, t };
	}
	pthread_mutex_unlock(&f90_lock);
	if (rc != 0)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory building the datatype");
	*newtype = t;
	return MPI_SUCCESS;
}

/* gfortran's SELECTED_INT_KIND(r): the smallest kind holding 10**r. */
static const struct shl_datatype *int_kind(int r)
{
	return r <= 2 ? &shl_mpi_integer1 : r <= 4 ? &shl_mpi_integer2 : r <= 9 ? &shl_mpi_integer4
	       : r <= 18 ? &shl_mpi_integer8 : r <= 38 ? &shl_mpi_integer16 : NULL;
}

/* gfortran's SELECTED_REAL_KIND(p, r) as an index: 0 REAL(4), 1 REAL(8), 2 REAL(10) (the
 * x87 format, C's long double), 3 REAL(16); -1 when none has the precision or range.
 * MPI_UNDEFINED leaves that requirement out. */
static int real_kind(int p, int r)
{
	static const int maxp[] = { 6, 15, 18, 33 }, maxr[] = { 37, 307, 4931, 4931 };

	for (int k = 0; k < 4; k++)
		if ((p == MPI_UNDEFINED || p <= maxp[k]) && (r == MPI_UNDEFINED || r <= maxr[k]))
			return k;
	return -1;
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
	const char *fn = "MPI_Type_create_f90_integer";
	const struct shl_datatype *base = r >= 0 ? int_kind(r) : NULL;

	if (newtype == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "newtype is NULL");
	if (base == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "no INTEGER kind has a decimal range of %d "
			       "(0 to 38 are)", r);
	return f90_type(fn, base, MPI_COMBINER_F90_INTEGER, 0, r, newtype);
}
SHL_WEAK_ALIAS(Type_create_f90_integer);

static int f90_real(const char *fn, bool cplx, int p, int r, MPI_Datatype *newtype)
{
	static const struct shl_datatype *const reals[] = {
		&shl_mpi_real4, &shl_mpi_real8, &shl_mpi_long_double, &shl_mpi_real16,
	}, *const complexes[] = {
		&shl_mpi_complex8, &shl_mpi_complex16, &shl_mpi_c_long_double_complex,
		&shl_mpi_complex32,
	};
	int k;

	if (newtype == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "newtype is NULL");
	if ((p < 0 && p != MPI_UNDEFINED) || (r < 0 && r != MPI_UNDEFINED) ||
	    (p == MPI_UNDEFINED && r == MPI_UNDEFINED))
		return shl_err(NULL, MPI_ERR_ARG, fn, "p %d and r %d: each must be at least 0 or "
			       "MPI_UNDEFINED, and not both MPI_UNDEFINED", p, r);
	k = real_kind(p, r);
	if (k < 0)
		return shl_err(NULL, MPI_ERR_ARG, fn, "no REAL kind has precision %d and decimal "
			       "range %d (at most 33 and 4931)", p, r);
	return f90_type(fn, cplx ? complexes[k] : reals[k],
			cplx ? MPI_COMBINER_F90_COMPLEX : MPI_COMBINER_F90_REAL, p, r, newtype);
}

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
	return f90_real("MPI_Type_create_f90_real", false, p, r, newtype);
}
SHL_WEAK_ALIAS(Type_create_f90_real);

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
	return f90_real("MPI_Type_create_f90_complex", true, p, r, newtype);
}
SHL_WEAK_ALIAS(Type_create_f90_complex);
