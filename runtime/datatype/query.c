/* Predefined datatypes and the queries on any datatype: sizes, extents, element counts,
 * envelope and contents, names. Entered by rank threads; the predefined objects are
 * immutable statics shared by every rank. Must not write to a predefined type. */
#include <complex.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "runtime/core/rt.h"
#include "runtime/datatype/internal.h"

/* External32 sizes are MPI 4.1 Table 13 (section 15.5.2): e.g. MPI_LONG is 4 bytes there
 * although it is 8 here, MPI_WCHAR 2 (a Unicode code point up to U+FFFF; wchar_t is 4 bytes
 * of UCS-4 here), MPI_LONG_DOUBLE an IEEE binary128 of 16. */
#define BASIC(var, ctype, mpiname, k, ext, n, a)                                        \
	SHL_API SHL_HANDLE_PREDEF struct shl_datatype var = {                                             \
		.magic = SHL_TYPE_MAGIC, .predefined = true, .contig = true,            \
		.committed = true, .kind = k, .ext_size = ext, .ncomp = n,              \
		.arith = SHL_DT_ARITH_##a,                                              \
		.align = _Alignof(ctype), .size = sizeof(ctype), .lb = 0,               \
		.extent = sizeof(ctype), .true_lb = 0, .true_extent = sizeof(ctype),    \
		.elements = 1, .nruns = 1, .runs = var.blocks,                          \
		.blocks = { { 0, sizeof(ctype) } }, .name = mpiname }

#define B SHL_DT_BYTES
#define S SHL_DT_SIGNED
#define U SHL_DT_UNSIGNED
#define F SHL_DT_FLOAT
#define L SHL_DT_LDOUBLE
BASIC(shl_mpi_char, char, "MPI_CHAR", B, 1, 1, I8);
BASIC(shl_mpi_signed_char, signed char, "MPI_SIGNED_CHAR", B, 1, 1, I8);
BASIC(shl_mpi_unsigned_char, unsigned char, "MPI_UNSIGNED_CHAR", B, 1, 1, U8);
BASIC(shl_mpi_byte, unsigned char, "MPI_BYTE", B, 1, 1, BYTE);
BASIC(shl_mpi_packed, unsigned char, "MPI_PACKED", B, 1, 1, NONE);
BASIC(shl_mpi_wchar, wchar_t, "MPI_WCHAR", U, 2, 1, NONE);
BASIC(shl_mpi_short, short, "MPI_SHORT", S, 2, 1, I16);
BASIC(shl_mpi_unsigned_short, unsigned short, "MPI_UNSIGNED_SHORT", U, 2, 1, U16);
BASIC(shl_mpi_int, int, "MPI_INT", S, 4, 1, I32);
BASIC(shl_mpi_unsigned, unsigned, "MPI_UNSIGNED", U, 4, 1, U32);
BASIC(shl_mpi_long, long, "MPI_LONG", S, 4, 1, I64);
BASIC(shl_mpi_unsigned_long, unsigned long, "MPI_UNSIGNED_LONG", U, 4, 1, U64);
BASIC(shl_mpi_long_long, long long, "MPI_LONG_LONG", S, 8, 1, I64);
BASIC(shl_mpi_unsigned_long_long, unsigned long long, "MPI_UNSIGNED_LONG_LONG", U, 8, 1, U64);
BASIC(shl_mpi_float, float, "MPI_FLOAT", F, 4, 1, F);
BASIC(shl_mpi_double, double, "MPI_DOUBLE", F, 8, 1, D);
BASIC(shl_mpi_long_double, long double, "MPI_LONG_DOUBLE", L, 16, 1, LD);
BASIC(shl_mpi_c_bool, _Bool, "MPI_C_BOOL", B, 1, 1, BOOL);
BASIC(shl_mpi_int8_t, int8_t, "MPI_INT8_T", S, 1, 1, I8);
BASIC(shl_mpi_int16_t, int16_t, "MPI_INT16_T", S, 2, 1, I16);
BASIC(shl_mpi_int32_t, int32_t, "MPI_INT32_T", S, 4, 1, I32);
BASIC(shl_mpi_int64_t, int64_t, "MPI_INT64_T", S, 8, 1, I64);
BASIC(shl_mpi_uint8_t, uint8_t, "MPI_UINT8_T", U, 1, 1, U8);
BASIC(shl_mpi_uint16_t, uint16_t, "MPI_UINT16_T", U, 2, 1, U16);
BASIC(shl_mpi_uint32_t, uint32_t, "MPI_UINT32_T", U, 4, 1, U32);
BASIC(shl_mpi_uint64_t, uint64_t, "MPI_UINT64_T", U, 8, 1, U64);
BASIC(shl_mpi_c_float_complex, float _Complex, "MPI_C_FLOAT_COMPLEX", F, 4, 2, CF);
BASIC(shl_mpi_c_double_complex, double _Complex, "MPI_C_DOUBLE_COMPLEX", F, 8, 2, CD);
BASIC(shl_mpi_c_long_double_complex, long double _Complex, "MPI_C_LONG_DOUBLE_COMPLEX", L, 16, 2,
      CLD);
BASIC(shl_mpi_aint, MPI_Aint, "MPI_AINT", S, 8, 1, I64);
BASIC(shl_mpi_offset, MPI_Offset, "MPI_OFFSET", S, 8, 1, I64);
BASIC(shl_mpi_count, MPI_Count, "MPI_COUNT", S, 8, 1, I64);
/* C++ bool and std::complex have the layout of their C counterparts on this ABI. */
BASIC(shl_mpi_cxx_bool, _Bool, "MPI_CXX_BOOL", B, 1, 1, BOOL);
BASIC(shl_mpi_cxx_float_complex, float _Complex, "MPI_CXX_FLOAT_COMPLEX", F, 4, 2, CF);
BASIC(shl_mpi_cxx_double_complex, double _Complex, "MPI_CXX_DOUBLE_COMPLEX", F, 8, 2, CD);
BASIC(shl_mpi_cxx_long_double_complex, long double _Complex, "MPI_CXX_LONG_DOUBLE_COMPLEX", L, 16, 2,
      CLD);
#undef B
#undef S
#undef U
#undef F
#undef L

/* The MINLOC/MAXLOC pair types: a value followed by an int, laid out as the C struct
 * { T value; int index; } (MPI 4.1 section 6.9.4), which may have padding in the middle
 * (MPI_SHORT_INT) or at the end (MPI_DOUBLE_INT). When the int follows the value at once
 * the two are one run. */
#define PAIR(var, ctype, valtype, mpiname, a)                                             \
	struct var##_layout { ctype v; int i; };                                          \
	SHL_API SHL_HANDLE_PREDEF struct shl_datatype var = {                                               \
		.magic = SHL_TYPE_MAGIC, .predefined = true, .committed = true,           \
		.contig = offsetof(struct var##_layout, i) == sizeof(ctype) &&            \
			  sizeof(struct var##_layout) == sizeof(ctype) + sizeof(int),     \
		.kind = SHL_DT_PAIR, .ncomp = 2, .arith = SHL_DT_ARITH_##a,               \
		.align = _Alignof(struct var##_layout),                                   \
		.size = sizeof(ctype) + sizeof(int), .lb = 0,                             \
		.extent = sizeof(struct var##_layout), .true_lb = 0,                      \
		.true_extent = offsetof(struct var##_layout, i) + sizeof(int),            \
		.elements = 2, .runs = var.blocks,                                        \
		.nruns = offsetof(struct var##_layout, i) == sizeof(ctype) ? 1 : 2,       \
		.blocks = { { 0, offsetof(struct var##_layout, i) == sizeof(ctype)        \
				     ? sizeof(ctype) + sizeof(int) : sizeof(ctype) },      \
			    { offsetof(struct var##_layout, i), sizeof(int) } },          \
		.pair = &valtype, .pair_off = offsetof(struct var##_layout, i),           \
		.name = mpiname }

PAIR(shl_mpi_float_int, float, shl_mpi_float, "MPI_FLOAT_INT", P_F);
PAIR(shl_mpi_double_int, double, shl_mpi_double, "MPI_DOUBLE_INT", P_D);
PAIR(shl_mpi_long_int, long, shl_mpi_long, "MPI_LONG_INT", P_L);
PAIR(shl_mpi_2int, int, shl_mpi_int, "MPI_2INT", P_I);
PAIR(shl_mpi_short_int, short, shl_mpi_short, "MPI_SHORT_INT", P_S);
PAIR(shl_mpi_long_double_int, long double, shl_mpi_long_double, "MPI_LONG_DOUBLE_INT", P_LD);

/* ---- sizes and extents ---- */

/* A datatype argument of a query: valid (freed-but-alive types still answer queries). */
static int check_type(const char *fn, MPI_Datatype t)
{
	if (!shl_type_ok(t))
		return shl_err(NULL, MPI_ERR_TYPE, fn, "invalid datatype argument%s",
			       t == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	return MPI_SUCCESS;
}

static int check_ptrs(const char *fn, const void *a, const void *b)
{
	if (a == NULL || b == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "an output argument is NULL");
	return MPI_SUCCESS;
}

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
	int err = check_type("MPI_Type_size", datatype);

	if (err == MPI_SUCCESS)
		err = check_ptrs("MPI_Type_size", size, size);
	if (err != MPI_SUCCESS)
		return err;
	*size = datatype->size > INT_MAX ? MPI_UNDEFINED : (int)datatype->size;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_size);

static int size_count(const char *fn, MPI_Datatype datatype, MPI_Count *size)
{
	int err = check_type(fn, datatype);

	if (err == MPI_SUCCESS)
		err = check_ptrs(fn, size, size);
	if (err != MPI_SUCCESS)
		return err;
	*size = (MPI_Count)datatype->size;
	return MPI_SUCCESS;
}

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
	return size_count("MPI_Type_size_x", datatype, size);
}
SHL_WEAK_ALIAS(Type_size_x);

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
	return size_count("MPI_Type_size_c", datatype, size);
}
SHL_WEAK_ALIAS(Type_size_c);

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
	int err = check_type("MPI_Type_get_extent", datatype);

	if (err == MPI_SUCCESS)
		err = check_ptrs("MPI_Type_get_extent", lb, extent);
	if (err != MPI_SUCCESS)
		return err;
	*lb = datatype->lb;
	*extent = datatype->extent;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_get_extent);

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
	int err = check_type("MPI_Type_get_true_extent", datatype);

	if (err == MPI_SUCCESS)
		err = check_ptrs("MPI_Type_get_true_extent", true_lb, true_extent);
	if (err != MPI_SUCCESS)
		return err;
	*true_lb = datatype->true_lb;
	*true_extent = datatype->true_extent;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_get_true_extent);

/* The MPI_Count flavours of get_extent (`true_`: of get_true_extent). */
static int extent_count(const char *fn, MPI_Datatype t, bool true_, MPI_Count *lb,
			MPI_Count *extent)
{
	int err = check_type(fn, t);

	if (err == MPI_SUCCESS)
		err = check_ptrs(fn, lb, extent);
	if (err != MPI_SUCCESS)
		return err;
	*lb = true_ ? t->true_lb : t->lb;
	*extent = true_ ? t->true_extent : t->extent;
	return MPI_SUCCESS;
}

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
	return extent_count("MPI_Type_get_extent_x", datatype, false, lb, extent);
}
SHL_WEAK_ALIAS(Type_get_extent_x);

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
	return extent_count("MPI_Type_get_extent_c", datatype, false, lb, extent);
}
SHL_WEAK_ALIAS(Type_get_extent_c);

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
				MPI_Count *true_extent)
{
	return extent_count("MPI_Type_get_true_extent_x", datatype, true, true_lb, true_extent);
}
SHL_WEAK_ALIAS(Type_get_true_extent_x);

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
				MPI_Count *true_extent)
{
	return extent_count("MPI_Type_get_true_extent_c", datatype, true, true_lb, true_extent);
}
SHL_WEAK_ALIAS(Type_get_true_extent_c);

/* ---- counts from a status ---- */

static int status_query(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
			const void *out)
{
	if (status == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "status is NULL (MPI_STATUS_IGNORE)");
	if (!shl_type_ok(datatype))
		return shl_err(NULL, MPI_ERR_TYPE, fn, "invalid datatype argument");
	if (out == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "count is NULL");
	return MPI_SUCCESS;
}

/* Whole elements of `t` in the status's message, or MPI_UNDEFINED if the message ends
 * inside an element (MPI 4.1, 3.2.5). */
static MPI_Count count_of(const MPI_Status *status, const struct shl_datatype *t)
{
	size_t bytes = (size_t)status->shl_bytes;

	if (t->size == 0)
		return bytes == 0 ? 0 : MPI_UNDEFINED;
	return bytes % t->size != 0 ? MPI_UNDEFINED : (MPI_Count)(bytes / t->size);
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
	int err = status_query("MPI_Get_count", status, datatype, count);
	MPI_Count n;

	if (err != MPI_SUCCESS)
		return err;
	n = count_of(status, datatype);
	*count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_count);

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
	int err = status_query("MPI_Get_count_c", status, datatype, count);

	if (err == MPI_SUCCESS)
		*count = count_of(status, datatype);
	return err;
}
SHL_WEAK_ALIAS(Get_count_c);

/* Basic elements in the status's message: a partial element counts the basic elements it
 * holds completely (MPI 4.1, 5.1.11); MPI_UNDEFINED if it ends inside one. */
static MPI_Count elements_of(const MPI_Status *status, const struct shl_datatype *t)
{
	MPI_Count n = shl_dt_elements(t, (size_t)status->shl_bytes);

	return n < 0 ? MPI_UNDEFINED : n;
}

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
	int err = status_query("MPI_Get_elements", status, datatype, count);
	MPI_Count n;

	if (err != MPI_SUCCESS)
		return err;
	n = elements_of(status, datatype);
	*count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_elements);

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
	int err = status_query("MPI_Get_elements_x", status, datatype, count);

	if (err == MPI_SUCCESS)
		*count = elements_of(status, datatype);
	return err;
}
SHL_WEAK_ALIAS(Get_elements_x);

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
	int err = status_query("MPI_Get_elements_c", status, datatype, count);

	if (err == MPI_SUCCESS)
		*count = elements_of(status, datatype);
	return err;
}
SHL_WEAK_ALIAS(Get_elements_c);

/* Set `status` so that MPI_Get_elements gives `count` basic elements of `datatype` (MPI 4.1,
 * "Associating Information with Status"): the int, _x and _c bindings. The status holds
 * bytes: those of the first `count` basic elements, so MPI_Get_count is the number of whole
 * elements, or MPI_UNDEFINED. */
static int set_elements(const char *fn, MPI_Status *status, MPI_Datatype datatype,
			MPI_Count count)
{
	MPI_Count bytes;

	if (status == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "status is NULL (MPI_STATUS_IGNORE)");
	if (!shl_type_ok(datatype))
		return shl_err(NULL, MPI_ERR_TYPE, fn, "invalid datatype argument");
	if (count < 0)
		return shl_err(NULL, MPI_ERR_COUNT, fn, "count %lld is negative", count);
	bytes = shl_dt_element_bytes(datatype, count);
	if (bytes < 0)
		return shl_err(NULL, MPI_ERR_COUNT, fn, "%lld basic elements of datatype %s are "
			       "more bytes than any buffer holds (PTRDIFF_MAX)%s", count,
			       datatype->name ? datatype->name : "(unnamed derived type)",
			       datatype->elements == 0 ? "; the datatype holds none" : "");
	status->shl_bytes = bytes;
	return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
	return set_elements("MPI_Status_set_elements", status, datatype, count);
}
SHL_WEAK_ALIAS(Status_set_elements);

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
	return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}
SHL_WEAK_ALIAS(Status_set_elements_x);

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
	return set_elements("MPI_Status_set_elements_c", status, datatype, count);
}
SHL_WEAK_ALIAS(Status_set_elements_c);

/* ---- envelope and contents ---- */

/* The envelope of `t`, shared by the int and _c bindings; `large` says whether the caller
 * can take large counts (MPI 4.1 6.1.13: the int binding raises MPI_ERR_TYPE otherwise). */
static int envelope(const char *fn, MPI_Datatype t, bool large, MPI_Count *ni, MPI_Count *na,
		    MPI_Count *nc, MPI_Count *nd, int *combiner)
{
	int err = check_type(fn, t);
	const struct shl_dt_contents *c;

	if (err != MPI_SUCCESS)
		return err;
	c = &t->contents;
	if (t->predefined) {
		*ni = *na = *nc = *nd = 0;
		*combiner = MPI_COMBINER_NAMED;
		return MPI_SUCCESS;
	}
	if (!large && c->nlarge > 0)
		return shl_err(NULL, MPI_ERR_TYPE, fn, "the datatype was built by a large-count "
			       "constructor (its %zu MPI_Count arguments need %s_c)", c->nlarge, fn);
	*ni = (MPI_Count)c->nints;
	*na = (MPI_Count)c->naints;
	*nc = (MPI_Count)c->nlarge;
	*nd = (MPI_Count)c->ntypes;
	*combiner = c->combiner;
	return MPI_SUCCESS;
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
			   int *num_datatypes, int *combiner)
{
	const char *fn = "MPI_Type_get_envelope";
	MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
	int err;

	if (!num_integers || !num_addresses || !num_datatypes || !combiner)
		return shl_err(NULL, MPI_ERR_ARG, fn, "an output argument is NULL");
	err = envelope(fn, datatype, false, &ni, &na, &nc, &nd, combiner);
	if (err == MPI_SUCCESS) {
		/* Only _c constructors take arrays of more than INT_MAX arguments. */
		*num_integers = (int)ni;
		*num_addresses = (int)na;
		*num_datatypes = (int)nd;
	}
	return err;
}
SHL_WEAK_ALIAS(Type_get_envelope);

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
			     MPI_Count *num_addresses, MPI_Count *num_large_counts,
			     MPI_Count *num_datatypes, int *combiner)
{
	const char *fn = "MPI_Type_get_envelope_c";

	if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
		return shl_err(NULL, MPI_ERR_ARG, fn, "an output argument is NULL");
	return envelope(fn, datatype, true, num_integers, num_addresses, num_large_counts,
			num_datatypes, combiner);
}
SHL_WEAK_ALIAS(Type_get_envelope_c);

/* The output arrays of get_contents; `large` NULL for the int binding. */
struct contents_out {
	int *ints;
	MPI_Aint *aints;
	MPI_Count *large;
	MPI_Datatype *types;
};

static int contents(const char *fn, MPI_Datatype t, bool large, MPI_Count max_ints,
		    MPI_Count max_aints, MPI_Count max_large, MPI_Count max_types,
		    const struct contents_out *o)
{
	int err = check_type(fn, t);
	const struct shl_dt_contents *c;

	if (err != MPI_SUCCESS)
		return err;
	if (t->predefined)
		return shl_err(NULL, MPI_ERR_TYPE, fn, "%s is predefined (MPI_COMBINER_NAMED) and "
			       "has no contents", t->name);
	c = &t->contents;
	if (!large && c->nlarge > 0)
		return shl_err(NULL, MPI_ERR_TYPE, fn, "the datatype was built by a large-count "
			       "constructor (its %zu MPI_Count arguments need %s_c)", c->nlarge, fn);
	if (max_ints < (MPI_Count)c->nints || max_aints < (MPI_Count)c->naints ||
	    max_large < (MPI_Count)c->nlarge || max_types < (MPI_Count)c->ntypes)
		return shl_err(NULL, MPI_ERR_ARG, fn, "arrays too small: the envelope has %zu "
			       "integers, %zu addresses, %zu large counts, %zu datatypes",
			       c->nints, c->naints, c->nlarge, c->ntypes);
	if ((c->nints && !o->ints) || (c->naints && !o->aints) || (c->nlarge && !o->large) ||
	    (c->ntypes && !o->types))
		return shl_err(NULL, MPI_ERR_ARG, fn, "an output array is NULL");
	if (c->nints)
		memcpy(o->ints, c->ints, c->nints * sizeof(*c->ints));
	if (c->naints)
		memcpy(o->aints, c->aints, c->naints * sizeof(*c->aints));
	if (c->nlarge)
		memcpy(o->large, c->large, c->nlarge * sizeof(*c->large));
	/* Derived types come back as new handles the caller frees (MPI 4.1, 6.1.13). */
	for (size_t i = 0; i < c->ntypes; i++) {
		struct shl_datatype *d = c->types[i];
		if (!d->predefined) {
			shl_dt_hold(d);
			atomic_fetch_add_explicit(&d->handles, 1, memory_order_relaxed);
		}
		o->types[i] = d;
	}
	return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
			   int max_datatypes, int array_of_integers[],
			   MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
	struct contents_out o = { array_of_integers, array_of_addresses, NULL,
				  array_of_datatypes };

	return contents("MPI_Type_get_contents", datatype, false, max_integers, max_addresses, 0,
			max_datatypes, &o);
}
SHL_WEAK_ALIAS(Type_get_contents);

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
			     MPI_Count max_addresses, MPI_Count max_large_counts,
			     MPI_Count max_datatypes, int array_of_integers[],
			     MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
			     MPI_Datatype array_of_datatypes[])
{
	struct contents_out o = { array_of_integers, array_of_addresses, array_of_large_counts,
				  array_of_datatypes };

	return contents("MPI_Type_get_contents_c", datatype, true, max_integers, max_addresses,
			max_large_counts, max_datatypes, &o);
}
SHL_WEAK_ALIAS(Type_get_contents_c);

/* ---- MINLOC/MAXLOC pairs ---- */

int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
			      MPI_Datatype *pair_type)
{
	const char *fn = "MPI_Type_get_value_index";
	/* The named pair types of MPI 4.1 6.9.4, C's with an int index and Fortran's with an
	 * index of the value's type; no unnamed ones are predefined (other pairs give
	 * MPI_DATATYPE_NULL, which the standard allows). */
	static const struct { const struct shl_datatype *value, *index, *pair; } pairs[] = {
		{ &shl_mpi_float, &shl_mpi_int, &shl_mpi_float_int },
		{ &shl_mpi_double, &shl_mpi_int, &shl_mpi_double_int },
		{ &shl_mpi_long, &shl_mpi_int, &shl_mpi_long_int },
		{ &shl_mpi_int, &shl_mpi_int, &shl_mpi_2int },
		{ &shl_mpi_short, &shl_mpi_int, &shl_mpi_short_int },
		{ &shl_mpi_long_double, &shl_mpi_int, &shl_mpi_long_double_int },
		{ &shl_mpi_real, &shl_mpi_real, &shl_mpi_2real },
		{ &shl_mpi_double_precision, &shl_mpi_double_precision, &shl_mpi_2double_precision },
		{ &shl_mpi_integer, &shl_mpi_integer, &shl_mpi_2integer },
	};
	int err = check_type(fn, value_type);

	if (err == MPI_SUCCESS)
		err = check_type(fn, index_type);
	if (err == MPI_SUCCESS)
		err = check_ptrs(fn, pair_type, pair_type);
	if (err != MPI_SUCCESS)
		return err;
	*pair_type = MPI_DATATYPE_NULL;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (pairs[i].value == value_type && pairs[i].index == index_type)
			*pair_type = (MPI_Datatype)pairs[i].pair;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_get_value_index);

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
	const char *fn = "MPI_Type_match_size";
	/* In order of size within a class; the first match answers, as in MPICH. */
	static const struct shl_datatype *const integers[] = {
		&shl_mpi_signed_char, &shl_mpi_short, &shl_mpi_int, &shl_mpi_long,
	}, *const reals[] = {
		&shl_mpi_float, &shl_mpi_double, &shl_mpi_long_double,
	}, *const complexes[] = {
		&shl_mpi_c_float_complex, &shl_mpi_c_double_complex,
		&shl_mpi_c_long_double_complex,
	};
	const struct shl_datatype *const *list;
	size_t n;
	int err = check_ptrs(fn, datatype, datatype);

	if (err != MPI_SUCCESS)
		return err;
	switch (typeclass) {
	case MPI_TYPECLASS_INTEGER:
		list = integers, n = sizeof(integers) / sizeof(integers[0]);
		break;
	case MPI_TYPECLASS_REAL:
		list = reals, n = sizeof(reals) / sizeof(reals[0]);
		break;
	case MPI_TYPECLASS_COMPLEX:
		list = complexes, n = sizeof(complexes) / sizeof(complexes[0]);
		break;
	default:
		return shl_err(NULL, MPI_ERR_ARG, fn, "typeclass %d is not MPI_TYPECLASS_INTEGER, "
			       "_REAL or _COMPLEX", typeclass);
	}
	for (size_t i = 0; i < n; i++)
		if (size >= 0 && list[i]->size == (size_t)size) {
			*datatype = (MPI_Datatype)list[i];
			return MPI_SUCCESS;
		}
	return shl_err(NULL, MPI_ERR_ARG, fn, "no %s type has size %d",
		       typeclass == MPI_TYPECLASS_INTEGER ? "integer"
		       : typeclass == MPI_TYPECLASS_REAL  ? "real" : "complex", size);
}
SHL_WEAK_ALIAS(Type_match_size);

/* ---- names ---- */

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
	const char *fn = "MPI_Type_set_name";
	int err = check_type(fn, datatype);
	char *name;

	if (err != MPI_SUCCESS)
		return err;
	if (type_name == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "type_name is NULL");
	/* Predefined types are shared by every rank of the process: renaming one in one rank
	 * would rename it in all. */
	if (datatype->predefined)
		return shl_err(NULL, MPI_ERR_TYPE, fn, "%s is predefined; its name cannot change",
			       datatype->name);
	name = strndup(type_name, MPI_MAX_OBJECT_NAME - 1);
	if (name == NULL)
		return shl_err(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
	free((char *)datatype->name);
	datatype->name = name;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_set_name);

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
	const char *fn = "MPI_Type_get_name";
	int err = check_type(fn, datatype);
	const char *name;

	if (err == MPI_SUCCESS)
		err = check_ptrs(fn, type_name, resultlen);
	if (err != MPI_SUCCESS)
		return err;
	name = datatype->name ? datatype->name : "";
	snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", name);
	*resultlen = (int)strlen(type_name);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_get_name);
