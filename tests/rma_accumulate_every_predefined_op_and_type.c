/* rma_accumulate_every_predefined_op_and_type: MPI_Accumulate, MPI_Get_accumulate and
 * MPI_Fetch_and_op give exactly the target's value combined with the origin's, element by
 * element, for every predefined reduction op the standard allows on the type, plus
 * MPI_REPLACE and (fetching calls only) MPI_NO_OP: int, long long and unsigned char (every
 * arithmetic, logical and bitwise op; unsigned char sums and products wrap), double
 * (MAX, MIN, SUM, PROD), double _Complex (SUM, PROD), MPI_DOUBLE_INT (MINLOC, MAXLOC, with a
 * tie won by the lower index). Each rank accumulates into the next one in a ring, in a fence
 * epoch; the fetching calls return the target's values from before. Failures name the call,
 * the type, the op and the element. */
/* ranks: 2 4 8 */
#include <complex.h>
#include "lib/rma_epochs.h"

#define NEL 4           /* elements per call */
#define AREA 64         /* bytes of the window per call: at least NEL elements */

enum opk { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_BAND, O_LOR, O_BOR, O_LXOR, O_BXOR,
	   O_MINLOC, O_MAXLOC, O_REPLACE, O_NO_OP, NOPS };
static const char *const op_names[NOPS] = {
	"MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND", "MPI_LOR",
	"MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE",
	"MPI_NO_OP",
};

static MPI_Op op_handle(enum opk k)
{
	MPI_Op h[NOPS] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
			   MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE,
			   MPI_NO_OP };
	return h[k];
}

/* One type's case: its values and what each op gives, element by element. */
struct tcase {
	const char *name;
	MPI_Datatype type;
	size_t size;
	const void *target, *origin;
	/* combine(op, t, o, out): out = t op o; equal(a, b): the elements are the same value */
	void (*combine)(enum opk, const void *, const void *, void *);
	int (*equal)(const void *, const void *);
	unsigned ops;   /* bit k: op k applies */
};

#define INTEGER_OPS ((1u << O_MAX) | (1u << O_MIN) | (1u << O_SUM) | (1u << O_PROD) |      \
		     (1u << O_LAND) | (1u << O_BAND) | (1u << O_LOR) | (1u << O_BOR) |     \
		     (1u << O_LXOR) | (1u << O_BXOR))
#define ALWAYS ((1u << O_REPLACE) | (1u << O_NO_OP))

#define INTEGER_COMBINE(T, NAME)                                                        \
	static void NAME(enum opk k, const void *tp, const void *op, void *out)         \
	{                                                                               \
		T t = *(const T *)tp, o = *(const T *)op, r = t;                        \
		switch (k) {                                                            \
		case O_MAX: r = t > o ? t : o; break;                                   \
		case O_MIN: r = t < o ? t : o; break;                                   \
		case O_SUM: r = (T)(t + o); break;                                      \
		case O_PROD: r = (T)(t * o); break;                                     \
		case O_LAND: r = t && o; break;                                         \
		case O_BAND: r = t & o; break;                                          \
		case O_LOR: r = t || o; break;                                          \
		case O_BOR: r = t | o; break;                                           \
		case O_LXOR: r = !t != !o; break;                                       \
		case O_BXOR: r = t ^ o; break;                                          \
		case O_REPLACE: r = o; break;                                           \
		default: break;                                                         \
		}                                                                       \
		*(T *)out = r;                                                          \
	}
INTEGER_COMBINE(int, combine_int)
INTEGER_COMBINE(long long, combine_ll)
INTEGER_COMBINE(unsigned char, combine_uchar)

static void combine_double(enum opk k, const void *tp, const void *op, void *out)
{
	double t = *(const double *)tp, o = *(const double *)op, r = t;
	switch (k) {
	case O_MAX: r = t > o ? t : o; break;
	case O_MIN: r = t < o ? t : o; break;
	case O_SUM: r = t + o; break;
	case O_PROD: r = t * o; break;
	case O_REPLACE: r = o; break;
	default: break;
	}
	*(double *)out = r;
}

static void combine_complex(enum opk k, const void *tp, const void *op, void *out)
{
	double _Complex t = *(const double _Complex *)tp, o = *(const double _Complex *)op;
	*(double _Complex *)out = k == O_SUM ? t + o : k == O_PROD ? t * o :
				  k == O_REPLACE ? o : t;
}

struct dint { double v; int i; };

static void combine_dint(enum opk k, const void *tp, const void *op, void *out)
{
	struct dint t = *(const struct dint *)tp, o = *(const struct dint *)op, r = t;
	if (k == O_REPLACE)
		r = o;
	else if (k == O_MINLOC || k == O_MAXLOC) {
		int o_wins = k == O_MINLOC ? o.v < t.v : o.v > t.v;
		if (o_wins || (o.v == t.v && o.i < t.i))
			r = o;
	}
	*(struct dint *)out = r;
}

#define EQUAL(T, NAME) \
	static int NAME(const void *a, const void *b) { return *(const T *)a == *(const T *)b; }
EQUAL(int, equal_int)
EQUAL(long long, equal_ll)
EQUAL(unsigned char, equal_uchar)
EQUAL(double, equal_double)
EQUAL(double _Complex, equal_complex)

static int equal_dint(const void *a, const void *b)
{
	const struct dint *x = a, *y = b;
	return x->v == y->v && x->i == y->i;
}

static const int t_int[NEL] = { 5, -3, 0, 12 }, o_int[NEL] = { 2, -8, 0, 10 };
static const long long t_ll[NEL] = { 1LL << 40, -3, 0, 12 },
		       o_ll[NEL] = { 3, (1LL << 41) + 1, 0, 10 };
static const unsigned char t_uc[NEL] = { 200, 3, 0, 0xf0 }, o_uc[NEL] = { 100, 5, 0, 0x3c };
static const double t_dbl[NEL] = { 1.5, -2.0, 0.25, 1e300 },
		    o_dbl[NEL] = { 2.5, -3.0, -0.25, 1e-300 };
static double _Complex t_cx[NEL], o_cx[NEL];
static const struct dint t_di[NEL] = { { 2.0, 5 }, { 1.0, 7 }, { 4.0, 1 }, { -1.0, 0 } },
			 o_di[NEL] = { { 2.0, 3 }, { 3.0, 1 }, { 4.0, 9 }, { -2.0, 4 } };

static void check_elements(const struct tcase *tc, const char *what, const char *got,
			   const char *want)
{
	for (int e = 0; e < NEL; e++)
		if (!tc->equal(got + e * tc->size, want + e * tc->size)) {
			char m[CHECK_MSG_MAX];
			snprintf(m, sizeof m, "%s: %s element %d differs", rma_case, what, e);
			check_fail(__FILE__, __LINE__, m);
		}
}

/* The window of every rank: areas of AREA bytes, 0 for MPI_Accumulate, 1 for
 * MPI_Get_accumulate, 2 for MPI_Fetch_and_op (its first element). */
static void run(const struct tcase *tc, enum opk k, MPI_Win win, char *mem)
{
	char res[AREA], fop[AREA], want[AREA];
	int next = rma_next(), fetch_only = k == O_NO_OP;
	MPI_Op op = op_handle(k);

	memset(res, 0x5a, sizeof res);
	memset(fop, 0x5a, sizeof fop);
	for (int e = 0; e < NEL; e++)
		tc->combine(k, (const char *)tc->target + e * tc->size,
			    (const char *)tc->origin + e * tc->size, want + e * tc->size);
	rma_lock_self(win, 1);
	for (int area = 0; area < 3; area++)
		memcpy(mem + area * AREA, tc->target, NEL * tc->size);
	rma_unlock_self(win);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
	if (!fetch_only) {
		rma_set_case("MPI_Accumulate of %s with %s", tc->name, op_names[k]);
		RMA_CHECK_MPI(MPI_Accumulate(tc->origin, NEL, tc->type, next, 0, NEL, tc->type,
					     op, win));
	}
	rma_set_case("MPI_Get_accumulate of %s with %s", tc->name, op_names[k]);
	RMA_CHECK_MPI(MPI_Get_accumulate(tc->origin, NEL, tc->type, res, NEL, tc->type, next,
					 AREA, NEL, tc->type, op, win));
	rma_set_case("MPI_Fetch_and_op of %s with %s", tc->name, op_names[k]);
	RMA_CHECK_MPI(MPI_Fetch_and_op(tc->origin, fop, tc->type, next, 2 * AREA, op, win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	rma_lock_self(win, 0);
	if (!fetch_only) {
		rma_set_case("MPI_Accumulate of %s with %s", tc->name, op_names[k]);
		check_elements(tc, "target", mem, want);
	}
	rma_set_case("MPI_Get_accumulate of %s with %s", tc->name, op_names[k]);
	check_elements(tc, "target", mem + AREA, want);
	check_elements(tc, "fetched", res, tc->target);
	rma_set_case("MPI_Fetch_and_op of %s with %s", tc->name, op_names[k]);
	char want_fop[AREA];
	memcpy(want_fop, tc->target, NEL * tc->size);
	memcpy(want_fop, want, tc->size);   /* the first element only */
	check_elements(tc, "target", mem + 2 * AREA, want_fop);
	if (!tc->equal(fop, tc->target))
		check_fail(__FILE__, __LINE__, rma_case);
	rma_unlock_self(win);
}

int main(int argc, char **argv)
{
	char *mem;
	MPI_Win win;

	for (int e = 0; e < NEL; e++) {
		t_cx[e] = (e + 1) + (2 - e) * I;
		o_cx[e] = (3 - e) + (e + 4) * I;   /* (1+2i)(3+4i) = -5+10i, ... */
	}
	const struct tcase cases[] = {
		{ "int", MPI_INT, sizeof(int), t_int, o_int, combine_int, equal_int,
		  INTEGER_OPS | ALWAYS },
		{ "long long", MPI_LONG_LONG, sizeof(long long), t_ll, o_ll, combine_ll,
		  equal_ll, INTEGER_OPS | ALWAYS },
		{ "unsigned char", MPI_UNSIGNED_CHAR, 1, t_uc, o_uc, combine_uchar,
		  equal_uchar, INTEGER_OPS | ALWAYS },
		{ "double", MPI_DOUBLE, sizeof(double), t_dbl, o_dbl, combine_double,
		  equal_double, (1u << O_MAX) | (1u << O_MIN) | (1u << O_SUM) | (1u << O_PROD) |
		  ALWAYS },
		{ "double _Complex", MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex), t_cx, o_cx,
		  combine_complex, equal_complex, (1u << O_SUM) | (1u << O_PROD) | ALWAYS },
		{ "MPI_DOUBLE_INT", MPI_DOUBLE_INT, sizeof(struct dint), t_di, o_di,
		  combine_dint, equal_dint, (1u << O_MINLOC) | (1u << O_MAXLOC) | ALWAYS },
	};

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Win_allocate(3 * AREA, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
		for (int k = 0; k < NOPS; k++)
			if (cases[c].ops & (1u << k))
				run(&cases[c], k, win, mem);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
