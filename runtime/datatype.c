/* Predefined datatypes, their queries, and the one copy routine that moves typed data from
 * one layout to another. Entered by rank threads; the predefined objects are immutable.
 * Must not allocate or take locks: shl_dt_copy is on every message's path. */
#include <complex.h>
#include <stdbool.h>
#include <string.h>
#include <wchar.h>

#include "runtime/rt.h"

#define BASIC(var, ctype, mpiname)                                                      \
	SHL_API struct shl_datatype var = {                                             \
		.magic = SHL_TYPE_MAGIC, .predefined = true, .contig = true, .nblocks = 1,                  \
		.size = sizeof(ctype), .lb = 0, .extent = sizeof(ctype), .elements = 1, \
		.blocks = { { 0, sizeof(ctype) } }, .name = mpiname }

BASIC(shl_mpi_char, char, "MPI_CHAR");
BASIC(shl_mpi_signed_char, signed char, "MPI_SIGNED_CHAR");
BASIC(shl_mpi_unsigned_char, unsigned char, "MPI_UNSIGNED_CHAR");
BASIC(shl_mpi_byte, unsigned char, "MPI_BYTE");
BASIC(shl_mpi_packed, unsigned char, "MPI_PACKED");
BASIC(shl_mpi_wchar, wchar_t, "MPI_WCHAR");
BASIC(shl_mpi_short, short, "MPI_SHORT");
BASIC(shl_mpi_unsigned_short, unsigned short, "MPI_UNSIGNED_SHORT");
BASIC(shl_mpi_int, int, "MPI_INT");
BASIC(shl_mpi_unsigned, unsigned, "MPI_UNSIGNED");
BASIC(shl_mpi_long, long, "MPI_LONG");
BASIC(shl_mpi_unsigned_long, unsigned long, "MPI_UNSIGNED_LONG");
BASIC(shl_mpi_long_long, long long, "MPI_LONG_LONG");
BASIC(shl_mpi_unsigned_long_long, unsigned long long, "MPI_UNSIGNED_LONG_LONG");
BASIC(shl_mpi_float, float, "MPI_FLOAT");
BASIC(shl_mpi_double, double, "MPI_DOUBLE");
BASIC(shl_mpi_long_double, long double, "MPI_LONG_DOUBLE");
BASIC(shl_mpi_c_bool, _Bool, "MPI_C_BOOL");
BASIC(shl_mpi_int8_t, int8_t, "MPI_INT8_T");
BASIC(shl_mpi_int16_t, int16_t, "MPI_INT16_T");
BASIC(shl_mpi_int32_t, int32_t, "MPI_INT32_T");
BASIC(shl_mpi_int64_t, int64_t, "MPI_INT64_T");
BASIC(shl_mpi_uint8_t, uint8_t, "MPI_UINT8_T");
BASIC(shl_mpi_uint16_t, uint16_t, "MPI_UINT16_T");
BASIC(shl_mpi_uint32_t, uint32_t, "MPI_UINT32_T");
BASIC(shl_mpi_uint64_t, uint64_t, "MPI_UINT64_T");
BASIC(shl_mpi_c_float_complex, float _Complex, "MPI_C_FLOAT_COMPLEX");
BASIC(shl_mpi_c_double_complex, double _Complex, "MPI_C_DOUBLE_COMPLEX");
BASIC(shl_mpi_c_long_double_complex, long double _Complex, "MPI_C_LONG_DOUBLE_COMPLEX");
BASIC(shl_mpi_aint, MPI_Aint, "MPI_AINT");
BASIC(shl_mpi_offset, MPI_Offset, "MPI_OFFSET");
BASIC(shl_mpi_count, MPI_Count, "MPI_COUNT");
/* C++ bool and std::complex have the layout of their C counterparts on this ABI. */
BASIC(shl_mpi_cxx_bool, _Bool, "MPI_CXX_BOOL");
BASIC(shl_mpi_cxx_float_complex, float _Complex, "MPI_CXX_FLOAT_COMPLEX");
BASIC(shl_mpi_cxx_double_complex, double _Complex, "MPI_CXX_DOUBLE_COMPLEX");
BASIC(shl_mpi_cxx_long_double_complex, long double _Complex, "MPI_CXX_LONG_DOUBLE_COMPLEX");

/* The MINLOC/MAXLOC pair types: a value followed by an int, laid out as the C struct
 * { T value; int index; } (MPI 4.1 section 6.9.4), which may have padding in the middle
 * (MPI_SHORT_INT) or at the end (MPI_DOUBLE_INT). */
#define PAIR(var, ctype, mpiname)                                                         \
	struct var##_layout { ctype v; int i; };                                          \
	SHL_API struct shl_datatype var = {                                               \
		.magic = SHL_TYPE_MAGIC, .predefined = true,                              \
		.contig = offsetof(struct var##_layout, i) == sizeof(ctype) &&            \
			  sizeof(struct var##_layout) == sizeof(ctype) + sizeof(int),     \
		.nblocks = 2, .size = sizeof(ctype) + sizeof(int), .lb = 0,               \
		.extent = sizeof(struct var##_layout), .elements = 2,                     \
		.blocks = { { 0, sizeof(ctype) },                                         \
			    { offsetof(struct var##_layout, i), sizeof(int) } },          \
		.name = mpiname }

PAIR(shl_mpi_float_int, float, "MPI_FLOAT_INT");
PAIR(shl_mpi_double_int, double, "MPI_DOUBLE_INT");
PAIR(shl_mpi_long_int, long, "MPI_LONG_INT");
PAIR(shl_mpi_2int, int, "MPI_2INT");
PAIR(shl_mpi_short_int, short, "MPI_SHORT_INT");
PAIR(shl_mpi_long_double_int, long double, "MPI_LONG_DOUBLE_INT");

/* A position in typed data: the next byte to move is at base + elem*extent + block.off + off. */
struct cursor {
	char *base;
	const struct shl_datatype *t;
	size_t elem;
	int blk;
	size_t off;
};

/* The contiguous run at the cursor: its address, and its length in *len. */
static char *run(const struct cursor *c, size_t *len)
{
	const struct shl_block *b = &c->t->blocks[c->blk];

	*len = b->len - c->off;
	return c->base + (ptrdiff_t)c->elem * c->t->extent + (ptrdiff_t)b->off + c->off;
}

/* Move the cursor `n` bytes forward, n at most the current run's length. */
static void advance(struct cursor *c, size_t n)
{
	c->off += n;
	if (c->off < c->t->blocks[c->blk].len)
		return;
	c->off = 0;
	if (++c->blk == c->t->nblocks) {
		c->blk = 0;
		c->elem++;
	}
}

void shl_dt_copy(void *dst, const struct shl_datatype *dtype, const void *src,
		 const struct shl_datatype *stype, size_t bytes)
{
	struct cursor d = { dst, dtype, 0, 0, 0 }, s = { (char *)src, stype, 0, 0, 0 };

	if ((dtype == NULL || dtype->contig) && (stype == NULL || stype->contig)) {
		memcpy(dst, src, bytes);
		return;
	}
	/* Contiguous bytes walk as one run as long as the whole message. */
	struct shl_block whole = { 0, bytes };
	struct shl_datatype flat = { .nblocks = 1, .size = bytes, .extent = (ptrdiff_t)bytes,
				     .blocks = { whole } };
	if (dtype == NULL || dtype->contig)
		d.t = &flat;
	if (stype == NULL || stype->contig)
		s.t = &flat;
	while (bytes > 0) {
		size_t sn, dn;
		char *sp = run(&s, &sn);
		char *dp = run(&d, &dn);
		size_t n = sn < dn ? sn : dn;

		if (n > bytes)
			n = bytes;
		memcpy(dp, sp, n);
		advance(&s, n);
		advance(&d, n);
		bytes -= n;
	}
}

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
	if (!shl_type_ok(datatype))
		return shl_err(NULL, MPI_ERR_TYPE, "MPI_Type_size", "invalid datatype argument");
	if (size == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Type_size", "size is NULL");
	*size = (int)datatype->size;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_size);

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
	if (!shl_type_ok(datatype))
		return shl_err(NULL, MPI_ERR_TYPE, "MPI_Type_get_extent", "invalid datatype argument");
	if (lb == NULL || extent == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Type_get_extent", "lb or extent is NULL");
	*lb = datatype->lb;
	*extent = datatype->extent;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Type_get_extent);

static int status_query(const char *fn, const MPI_Status *status, MPI_Datatype datatype)
{
	if (status == NULL)
		return shl_err(NULL, MPI_ERR_ARG, fn, "status is NULL (MPI_STATUS_IGNORE)");
	if (!shl_type_ok(datatype))
		return shl_err(NULL, MPI_ERR_TYPE, fn, "invalid datatype argument");
	return MPI_SUCCESS;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
	int err = status_query("MPI_Get_count", status, datatype);
	size_t bytes;

	if (err != MPI_SUCCESS)
		return err;
	if (count == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Get_count", "count is NULL");
	bytes = (size_t)status->shl_bytes;
	if (datatype->size == 0)
		*count = bytes == 0 ? 0 : MPI_UNDEFINED;
	else if (bytes % datatype->size != 0 || bytes / datatype->size > INT32_MAX)
		*count = MPI_UNDEFINED;
	else
		*count = (int)(bytes / datatype->size);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_count);

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
	int err = status_query("MPI_Get_elements", status, datatype);
	size_t bytes, whole, rest, n;

	if (err != MPI_SUCCESS)
		return err;
	if (count == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Get_elements", "count is NULL");
	bytes = (size_t)status->shl_bytes;
	if (datatype->size == 0) {
		*count = 0;
		return MPI_SUCCESS;
	}
	whole = bytes / datatype->size;
	rest = bytes % datatype->size;
	n = whole * datatype->elements;
	/* A partial element counts the basic elements it holds completely (MPI 4.1, 5.1.11). */
	for (int b = 0; b < datatype->nblocks && rest >= datatype->blocks[b].len; b++) {
		rest -= datatype->blocks[b].len;
		n++;
	}
	*count = rest != 0 || n > INT32_MAX ? MPI_UNDEFINED : (int)n;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_elements);
