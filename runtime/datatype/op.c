/* MPI_Op: the predefined operations and their kernels on every type MPI 4.1 section 6.9.2
 * allows, user operations, MPI_Reduce_local, and the canonical-order fold of the reducing
 * collectives. Entered by rank threads; folds also by the thread running a meeting for
 * its members. Must not keep mutable file-scope state (the tables are const). */
#include <complex.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/datatype/op.h"

#define PREDEF(var, k, c) \
	SHL_API SHL_HANDLE_PREDEF struct shl_op var = { .magic = SHL_OP_MAGIC, .kind = k, .commute = c }
PREDEF(shl_mpi_max, SHL_OP_MAX, true);
PREDEF(shl_mpi_min, SHL_OP_MIN, true);
PREDEF(shl_mpi_sum, SHL_OP_SUM, true);
PREDEF(shl_mpi_prod, SHL_OP_PROD, true);
PREDEF(shl_mpi_land, SHL_OP_LAND, true);
PREDEF(shl_mpi_band, SHL_OP_BAND, true);
PREDEF(shl_mpi_lor, SHL_OP_LOR, true);
PREDEF(shl_mpi_bor, SHL_OP_BOR, true);
PREDEF(shl_mpi_lxor, SHL_OP_LXOR, true);
PREDEF(shl_mpi_bxor, SHL_OP_BXOR, true);
PREDEF(shl_mpi_minloc, SHL_OP_MINLOC, true);
PREDEF(shl_mpi_maxloc, SHL_OP_MAXLOC, true);
/* a REPLACE b = a and a NO_OP b = b (the accumulate functions' origin and target). */
PREDEF(shl_mpi_replace, SHL_OP_REPLACE, false);
PREDEF(shl_mpi_no_op, SHL_OP_NO_OP, false);

static const char *const op_names[] = {
	"MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND", "MPI_LOR",
	"MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE",
	"MPI_NO_OP", "a user operation",
};

void shl_op_hold(struct shl_op *op)
{
	if (op->kind == SHL_OP_USER)
		atomic_fetch_add_explicit(&op->refs, 1, memory_order_relaxed);
}

void shl_op_drop(struct shl_op *op)
{
	/* acq_rel: the last reference out sees every use of the object. */
	if (op->kind == SHL_OP_USER &&
	    atomic_fetch_sub_explicit(&op->refs, 1, memory_order_acq_rel) == 1)
		shl_handle_free(op);
}

/* ---- kernels ---- */

/* Signed sums and products wrap like the hardware's (no undefined behaviour). */
#define INT_KERNELS(c, T, U)                                                              \
	static void c##_max(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) if (x[i] > y[i]) y[i] = x[i]; } \
	static void c##_min(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) if (x[i] < y[i]) y[i] = x[i]; } \
	static void c##_sum(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = (T)((U)x[i] + (U)y[i]); } \
	static void c##_prod(const void *a, void *b, size_t n)                          \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = (T)((U)x[i] * (U)y[i]); } \
	static void c##_land(const void *a, void *b, size_t n)                          \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = x[i] && y[i]; } \
	static void c##_lor(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = x[i] || y[i]; } \
	static void c##_lxor(const void *a, void *b, size_t n)                          \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = !x[i] != !y[i]; } \
	static void c##_band(const void *a, void *b, size_t n)                          \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] &= x[i]; }      \
	static void c##_bor(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] |= x[i]; }      \
	static void c##_bxor(const void *a, void *b, size_t n)                          \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] ^= x[i]; }

INT_KERNELS(i8, int8_t, uint8_t)
INT_KERNELS(u8, uint8_t, uint8_t)
INT_KERNELS(i16, int16_t, uint16_t)
INT_KERNELS(u16, uint16_t, uint16_t)
INT_KERNELS(i32, int32_t, uint32_t)
INT_KERNELS(u32, uint32_t, uint32_t)
INT_KERNELS(i64, int64_t, uint64_t)
INT_KERNELS(u64, uint64_t, uint64_t)
/* The 16-byte Fortran types through byte-aligned names: a buffer of them (a derived type's
 * member, a packed accumulator) need not be 16-aligned, and the compiler may otherwise use
 * aligned vector moves on them. */
typedef __int128 i128u __attribute__((aligned(1)));
typedef unsigned __int128 u128u __attribute__((aligned(1)));
typedef _Float128 qu __attribute__((aligned(1)));
typedef _Complex _Float128 cqu __attribute__((aligned(1)));
INT_KERNELS(i128, i128u, u128u)

#define FLOAT_KERNELS(c, T)                                                               \
	static void c##_max(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) if (x[i] > y[i]) y[i] = x[i]; } \
	static void c##_min(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) if (x[i] < y[i]) y[i] = x[i]; } \
	static void c##_sum(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = y[i] + x[i]; } \
	static void c##_prod(const void *a, void *b, size_t n)                          \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = y[i] * x[i]; }

FLOAT_KERNELS(f, float)
FLOAT_KERNELS(d, double)
FLOAT_KERNELS(ld, long double)
FLOAT_KERNELS(q, qu)

#define COMPLEX_KERNELS(c, T)                                                             \
	static void c##_sum(const void *a, void *b, size_t n)                           \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = y[i] + x[i]; } \
	static void c##_prod(const void *a, void *b, size_t n)                          \
	{ const T *x = a; T *y = b; for (size_t i = 0; i < n; i++) y[i] = y[i] * x[i]; }

COMPLEX_KERNELS(cf, float _Complex)
COMPLEX_KERNELS(cd, double _Complex)
COMPLEX_KERNELS(cld, long double _Complex)
COMPLEX_KERNELS(cq, cqu)

static void bool_land(const void *a, void *b, size_t n)
{ const _Bool *x = a; _Bool *y = b; for (size_t i = 0; i < n; i++) y[i] = x[i] && y[i]; }
static void bool_lor(const void *a, void *b, size_t n)
{ const _Bool *x = a; _Bool *y = b; for (size_t i = 0; i < n; i++) y[i] = x[i] || y[i]; }
static void bool_lxor(const void *a, void *b, size_t n)
{ const _Bool *x = a; _Bool *y = b; for (size_t i = 0; i < n; i++) y[i] = x[i] != y[i]; }

/* MINLOC/MAXLOC on packed pairs (value, then int; unaligned): the better value wins, and
 * on a tie the lower index (MPI 4.1 section 6.9.4). */
#define LOC_KERNELS(c, V)                                                                 \
	static void c##_loc(const void *a, void *b, size_t n, bool max)                 \
	{                                                                               \
		const char *x = a;                                                      \
		char *y = b;                                                            \
		for (size_t i = 0; i < n; i++, x += sizeof(V) + sizeof(int),            \
					   y += sizeof(V) + sizeof(int)) {              \
			V u, v;                                                         \
			int iu, iv;                                                     \
			memcpy(&u, x, sizeof u);                                        \
			memcpy(&v, y, sizeof v);                                        \
			memcpy(&iu, x + sizeof(V), sizeof iu);                          \
			memcpy(&iv, y + sizeof(V), sizeof iv);                          \
			if (max ? u > v : u < v)                                        \
				memcpy(y, x, sizeof(V) + sizeof(int));                  \
			else if (u == v && iu < iv)                                     \
				memcpy(y + sizeof(V), &iu, sizeof iu);                  \
		}                                                                       \
	}                                                                               \
	static void c##_minloc(const void *a, void *b, size_t n) { c##_loc(a, b, n, false); } \
	static void c##_maxloc(const void *a, void *b, size_t n) { c##_loc(a, b, n, true); }

LOC_KERNELS(pf, float)
LOC_KERNELS(pd, double)
LOC_KERNELS(pl, long)
LOC_KERNELS(pi, int)
LOC_KERNELS(ps, short)
LOC_KERNELS(pld, long double)

/* MPI_2REAL and MPI_2DOUBLE_PRECISION: the index is a value of the same type (aligned:
 * these pairs are never packed apart). */
#define LOC2_KERNELS(c, V)                                                                \
	static void c##_loc(const void *a, void *b, size_t n, bool max)                 \
	{                                                                               \
		const V *x = a;                                                         \
		V *y = b;                                                               \
		for (size_t i = 0; i < 2 * n; i += 2) {                                  \
			if (max ? x[i] > y[i] : x[i] < y[i])                            \
				y[i] = x[i], y[i + 1] = x[i + 1];                       \
			else if (x[i] == y[i] && x[i + 1] < y[i + 1])                   \
				y[i + 1] = x[i + 1];                                    \
		}                                                                       \
	}                                                                               \
	static void c##_minloc(const void *a, void *b, size_t n) { c##_loc(a, b, n, false); } \
	static void c##_maxloc(const void *a, void *b, size_t n) { c##_loc(a, b, n, true); }

LOC2_KERNELS(p2f, float)
LOC2_KERNELS(p2d, double)

#define INTS(c) [SHL_OP_MAX] = c##_max, [SHL_OP_MIN] = c##_min, [SHL_OP_SUM] = c##_sum,   \
	[SHL_OP_PROD] = c##_prod, [SHL_OP_LAND] = c##_land, [SHL_OP_LOR] = c##_lor,       \
	[SHL_OP_LXOR] = c##_lxor, [SHL_OP_BAND] = c##_band, [SHL_OP_BOR] = c##_bor,       \
	[SHL_OP_BXOR] = c##_bxor
#define FLOATS(c) [SHL_OP_MAX] = c##_max, [SHL_OP_MIN] = c##_min, [SHL_OP_SUM] = c##_sum, \
	[SHL_OP_PROD] = c##_prod
#define COMPLEX(c) [SHL_OP_SUM] = c##_sum, [SHL_OP_PROD] = c##_prod
#define LOGICALS(c) [SHL_OP_LAND] = c##_land, [SHL_OP_LOR] = c##_lor, [SHL_OP_LXOR] = c##_lxor
#define LOCS(c) [SHL_OP_MINLOC] = c##_minloc, [SHL_OP_MAXLOC] = c##_maxloc

/* Which op applies to which C type: MPI 4.1 section 6.9.2's table (integer: MIN MAX SUM
 * PROD, logical and bitwise; floating: MIN MAX SUM PROD; complex: SUM PROD; logical: LAND
 * LOR LXOR; byte: bitwise; pairs: MINLOC MAXLOC), plus the pairs both Open MPI and MPICH
 * accept beyond it: MPI_CHAR as I8, logical operations on MPI_AINT, MPI_OFFSET and
 * MPI_COUNT (docs/process-model.md, "Reductions beyond the standard"). */
#define A(t) [SHL_DT_ARITH_##t]
static shl_kern *const kernels[SHL_DT_ARITH_COUNT][SHL_OP_REPLACE] = {
	A(I8) = { INTS(i8) }, A(U8) = { INTS(u8) }, A(I16) = { INTS(i16) },
	A(U16) = { INTS(u16) }, A(I32) = { INTS(i32) }, A(U32) = { INTS(u32) },
	A(I64) = { INTS(i64) }, A(U64) = { INTS(u64) },
	A(F) = { FLOATS(f) }, A(D) = { FLOATS(d) }, A(LD) = { FLOATS(ld) },
	A(CF) = { COMPLEX(cf) }, A(CD) = { COMPLEX(cd) }, A(CLD) = { COMPLEX(cld) },
	A(BOOL) = { [SHL_OP_LAND] = bool_land, [SHL_OP_LOR] = bool_lor,
		    [SHL_OP_LXOR] = bool_lxor },
	A(BYTE) = { [SHL_OP_BAND] = u8_band, [SHL_OP_BOR] = u8_bor, [SHL_OP_BXOR] = u8_bxor },
	A(P_F) = { LOCS(pf) }, A(P_D) = { LOCS(pd) }, A(P_L) = { LOCS(pl) },
	A(P_I) = { LOCS(pi) }, A(P_S) = { LOCS(ps) }, A(P_LD) = { LOCS(pld) },
	/* Fortran: LOGICAL has only the logical operations (MPI 4.1 6.9.2). */
	A(L1) = { LOGICALS(i8) }, A(L2) = { LOGICALS(i16) }, A(L4) = { LOGICALS(i32) },
	A(L8) = { LOGICALS(i64) }, A(L16) = { LOGICALS(i128) },
	A(I128) = { INTS(i128) }, A(Q) = { FLOATS(q) }, A(CQ) = { COMPLEX(cq) },
	A(P_2F) = { LOCS(p2f) }, A(P_2D) = { LOCS(p2d) },
};
#undef A
static_assert(sizeof(long) == 8 && sizeof(MPI_Aint) == 8 && sizeof(MPI_Count) == 8,
	      "MPI_LONG, MPI_AINT and MPI_COUNT are SHL_DT_ARITH_I64 (datatype/query.c)");

/* The one basic type a derived type is made of, found by walking one element. */
struct basic_scan {
	const struct shl_datatype *basic;
	bool mixed;
};

static bool scan_basic(void *arg, const struct shl_datatype *b, char *addr, size_t n)
{
	struct basic_scan *s = arg;

	if (s->basic == NULL)
		s->basic = b;
	else if (s->basic != b)
		s->mixed = true;
	return !s->mixed;
}

shl_kern *shl_op_kern(const struct shl_op *op, const struct shl_datatype *basic)
{
	return op->kind < SHL_OP_REPLACE ? kernels[basic->arith][op->kind] : NULL;
}

/* ---- folds ---- */

int shl_fold_init(struct shl_fold *f, struct shl_op *op, MPI_Datatype type, MPI_Count count,
		  bool accumulate, char why[SHL_OP_WHY])
{
	const struct shl_datatype *basic = type;

	*f = (struct shl_fold){ .op = op, .type = type, .count = count,
				.bytes = (size_t)count * type->size };
	if (op->kind == SHL_OP_USER) {
		if (count > INT_MAX && op->fn_c == NULL) {
			snprintf(why, SHL_OP_WHY, "count %lld is above INT_MAX, the most a user "
				 "function (int *len) takes", count);
			return MPI_ERR_COUNT;
		}
		/* A buffer for `count` elements in the type's own layout. */
		ptrdiff_t lo = type->true_lb, hi = type->true_lb + type->true_extent;
		if (count > 1)
			shl_dt_span(type, (size_t)count, &lo, &hi);
		f->span = count > 0 ? (size_t)(hi - lo) : 1;
		f->shift = -lo;
		return 0;
	}
	if (!type->predefined) {
		struct basic_scan s = { 0 };
		shl_dt_walk(type, NULL, 1, scan_basic, &s);
		if (s.mixed) {
			snprintf(why, SHL_OP_WHY, "%s is not defined on a derived datatype "
				 "mixing basic types", op_names[op->kind]);
			return MPI_ERR_OP;
		}
		basic = s.basic;
	}
	f->span = f->bytes ? f->bytes : 1;
	f->basic = basic;
	if (basic == NULL || f->bytes == 0)
		return 0;  /* nothing to combine */
	f->nbasic = f->bytes / basic->size;
	if (op->kind == SHL_OP_REPLACE || op->kind == SHL_OP_NO_OP) {
		if (!accumulate) {
			snprintf(why, SHL_OP_WHY, "%s is only for accumulate operations",
				 op_names[op->kind]);
			return MPI_ERR_OP;
		}
		return 0;
	}
	f->k = shl_op_kern(op, basic);
	if (f->k == NULL) {
		snprintf(why, SHL_OP_WHY, "%s is not defined on %s", op_names[op->kind],
			 basic->name ? basic->name : "this datatype");
		return MPI_ERR_OP;
	}
	return 0;
}

void *shl_fold_buf(const struct shl_fold *f)
{
	char *p = malloc(f->span);

	return p ? p + f->shift : NULL;
}

void shl_fold_free(const struct shl_fold *f, void *acc)
{
	if (acc != NULL)
		free((char *)acc - f->shift);
}

static bool packed(const struct shl_fold *f)
{
	return f->op->kind != SHL_OP_USER;
}

void shl_fold_load(const struct shl_fold *f, void *acc, const void *src, MPI_Datatype stype)
{
	shl_dt_copy(acc, packed(f) ? NULL : f->type, src, stype, f->bytes);
}

void shl_fold_step(const struct shl_fold *f, void **acc, void **tmp, const void *src,
		   MPI_Datatype stype)
{
	if (f->bytes == 0)
		return;
	switch (f->op->kind) {
	case SHL_OP_REPLACE:    /* acc REPLACE src = acc */
		return;
	case SHL_OP_NO_OP:      /* acc NO_OP src = src */
		shl_fold_load(f, *acc, src, stype);
		return;
	case SHL_OP_USER: {
		/* The user's function computes inoutvec = invec op inoutvec: acc goes in
		 * as invec, a copy of src as inoutvec, and the copy becomes acc. */
		void *x = *tmp;
		shl_fold_load(f, x, src, stype);
		shl_op_call(f->op, *acc, x, f->count, f->type);
		*tmp = *acc;
		*acc = x;
		return;
	}
	default:
		/* Predefined operations are commutative bitwise (IEEE + and * are), so the
		 * kernel's in op inout is acc op src. */
		if (stype->contig) {
			f->k(src, *acc, f->nbasic);
		} else {
			shl_fold_load(f, *tmp, src, stype);
			f->k(*tmp, *acc, f->nbasic);
		}
	}
}

void shl_fold_store(const struct shl_fold *f, void *dst, MPI_Datatype dtype, const void *acc)
{
	shl_dt_copy(dst, dtype, acc, packed(f) ? NULL : f->type, f->bytes);
}

void shl_fold_store_part(const struct shl_fold *f, void *dst, MPI_Datatype dtype,
			 const void *acc, size_t first, size_t n)
{
	const char *src = (const char *)acc + (packed(f) ? (ptrdiff_t)(first * f->type->size)
							 : (ptrdiff_t)first * f->type->extent);

	shl_dt_copy(dst, dtype, src, packed(f) ? NULL : f->type, n * f->type->size);
}

void shl_fold_dup(const struct shl_fold *f, void *dst, const void *src)
{
	memcpy((char *)dst - f->shift, (const char *)src - f->shift, f->span);
}

/* ---- MPI functions ---- */

/* MPI_Op_create (fn) and MPI_Op_create_c (fn_c): exactly one function is given. */
static int op_create(const char *fn, MPI_User_function *user_fn,
		     MPI_User_function_c *user_fn_c, bool fortran, int commute, MPI_Op *op)
{
	struct shl_op *o;

	shl_rank_or_die(fn);
	if ((user_fn == NULL && user_fn_c == NULL) || op == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "%s is NULL", op ? "user_fn" : "op");
	o = shl_handle_alloc(sizeof(*o));
	if (o == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	*o = (struct shl_op){ .magic = SHL_OP_MAGIC, .kind = SHL_OP_USER, .commute = commute != 0,
			      .fortran = fortran, .fn = user_fn, .fn_c = user_fn_c };
	atomic_init(&o->refs, 1);
	*op = o;
	return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
	return op_create("MPI_Op_create", user_fn, NULL, false, commute, op);
}
SHL_WEAK_ALIAS(Op_create);

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
	return op_create("MPI_Op_create_c", NULL, user_fn, false, commute, op);
}
SHL_WEAK_ALIAS(Op_create_c);

/* The Fortran functions are kept as C function pointers of another type and called back
 * through their own type (shl_op_call_fortran). */
SHL_API int shl_f_op_create(shl_f_user_function *fn, int commute, MPI_Op *op)
{
	return op_create("MPI_Op_create", (MPI_User_function *)fn, NULL, true, commute, op);
}

SHL_API int shl_f_op_create_c(shl_f_user_function_c *fn, int commute, MPI_Op *op)
{
	return op_create("MPI_Op_create_c", NULL, (MPI_User_function_c *)fn, true, commute, op);
}

void shl_op_call_fortran(const struct shl_op *op, const void *in, void *inout, MPI_Count len,
			 MPI_Datatype type)
{
	MPI_Fint t = shl_handle_to_int(type);

	if (op->fn_c != NULL) {
		MPI_Count n = len;
		((shl_f_user_function_c *)op->fn_c)((void *)in, inout, &n, &t);
	} else {
		MPI_Fint n = (MPI_Fint)len;
		((shl_f_user_function *)op->fn)((void *)in, inout, &n, &t);
	}
}

int PMPI_Op_free(MPI_Op *op)
{
	shl_rank_or_die("MPI_Op_free");
	if (op == NULL || !shl_op_ok(*op))
		return shl_err(NULL, MPI_ERR_OP, "MPI_Op_free", "invalid op argument");
	if ((*op)->kind != SHL_OP_USER)
		return shl_err(NULL, MPI_ERR_OP, "MPI_Op_free", "%s is predefined and cannot be "
			       "freed", op_names[(*op)->kind]);
	shl_op_drop(*op);
	*op = MPI_OP_NULL;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Op_free);

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
	shl_rank_or_die("MPI_Op_commutative");
	if (!shl_op_ok(op))
		return shl_err(NULL, MPI_ERR_OP, "MPI_Op_commutative", "invalid op argument");
	if (commute == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Op_commutative", "commute is NULL");
	*commute = op->commute;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Op_commutative);

/* MPI_Reduce_local and MPI_Reduce_local_c. */
static int reduce_local(const char *fn, const void *inbuf, void *inoutbuf, MPI_Count count,
			MPI_Datatype datatype, MPI_Op op)
{
	struct shl_fold f;
	char why[SHL_OP_WHY];
	void *a = NULL, *b = NULL;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_check_count(NULL, fn, "", count, datatype)) != MPI_SUCCESS ||
	    (err = shl_check_layout(NULL, fn, "", count, datatype)) != MPI_SUCCESS)
		return err;
	if (!shl_op_ok(op))
		return shl_err(NULL, MPI_ERR_OP, fn, "invalid op argument");
	if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
		return shl_err(NULL, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed here");
	if ((err = shl_check_buf(NULL, fn, "inbuf", inbuf, count, datatype)) != MPI_SUCCESS ||
	    (err = shl_check_buf(NULL, fn, "inoutbuf", inoutbuf, count, datatype)) != MPI_SUCCESS)
		return err;
	err = shl_fold_init(&f, op, datatype, count, true, why);
	if (err != MPI_SUCCESS)
		return shl_err(NULL, err, fn, "%s", why);
	if (count == 0 || f.bytes == 0)
		return MPI_SUCCESS;
	if (op->kind == SHL_OP_USER) {
		shl_op_call(op, inbuf, inoutbuf, count, datatype);
		return MPI_SUCCESS;
	}
	/* inout = in op inout: acc starts as `in` and takes `inout` as the right operand. */
	a = shl_fold_buf(&f);
	b = shl_fold_buf(&f);
	if (a == NULL || b == NULL) {
		err = shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
		goto out;
	}
	shl_fold_load(&f, a, inbuf, datatype);
	shl_fold_step(&f, &a, &b, inoutbuf, datatype);
	shl_fold_store(&f, inoutbuf, datatype, a);
out:
	shl_fold_free(&f, a);
	shl_fold_free(&f, b);
	return err;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
		      MPI_Op op)
{
	return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}
SHL_WEAK_ALIAS(Reduce_local);

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
			MPI_Datatype datatype, MPI_Op op)
{
	return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}
SHL_WEAK_ALIAS(Reduce_local_c);
