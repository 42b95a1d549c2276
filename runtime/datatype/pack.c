/* Packing: MPI_Pack/Unpack (the native representation: the signature's bytes back to back),
 * MPI_Pack_external/Unpack_external ("external32": big-endian, MPI 4.1 Table 13 sizes),
 * their size queries, and address arithmetic (MPI_Get_address, MPI_Aint_add/diff); the
 * external32 conversion without argument checks that MPI-IO's representation uses
 * (file/datarep.c, shl_dt_x32_*).
 * Entered by rank threads, and (shl_dt_x32_*) by the node's I/O workers. Never blocks;
 * allocates nothing. */
#include <limits.h>
#include <string.h>

#include "runtime/core/rt.h"
#include "runtime/core/check.h"
#include "runtime/datatype/internal.h"

/* ---- address arithmetic ---- */

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
	if (address == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Get_address", "address is NULL");
	*address = (MPI_Aint)(uintptr_t)location;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(Get_address);

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
	return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}
SHL_WEAK_ALIAS(Aint_add);

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
	return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
SHL_WEAK_ALIAS(Aint_diff);

/* ---- argument checks ---- */

/* A datatype describing a user buffer: valid, committed, not freed. */
static int check_data(const char *fn, struct shl_comm *c, MPI_Datatype t, long long count)
{
	const char *why;

	if (count < 0)
		return shl_err(c, MPI_ERR_COUNT, fn, "count %lld is negative", count);
	if (!shl_type_ok(t))
		return shl_err(c, MPI_ERR_TYPE, fn, "invalid datatype argument%s",
			       t == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	if ((why = shl_dt_unusable(t)) != NULL)
		return shl_err(c, MPI_ERR_TYPE, fn, "datatype %s %s",
			       t->name ? t->name : "(unnamed derived type)", why);
	return MPI_SUCCESS;
}

/* An unpack target (checked by check_data) must not write any byte twice. */
static int check_layout(const char *fn, struct shl_comm *c, MPI_Datatype t, MPI_Count count)
{
	if (shl_dt_recv_overlaps(t, (size_t)count))
		return shl_err(c, MPI_ERR_TYPE, fn, "the receive layout overlaps: count %lld of "
			       "datatype %s writes some byte twice", (long long)count,
			       t->name ? t->name : "(unnamed derived type)");
	return MPI_SUCCESS;
}

static int check_comm(const char *fn, MPI_Comm comm, struct shl_comm **c)
{
	struct shl_rank *r = shl_rank_or_die(fn);

	*c = shl_comm_get(r, comm);
	if (*c == NULL)
		return shl_err(NULL, MPI_ERR_COMM, fn, "invalid communicator argument comm%s",
			       comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
	return MPI_SUCCESS;
}

/* The room check shared by every pack and unpack: `need` bytes at *pos of a `size`-byte
 * packed buffer. */
static int check_room(const char *fn, struct shl_comm *c, const MPI_Count *pos, MPI_Count size,
		      MPI_Count need, const char *what)
{
	if (pos == NULL)
		return shl_err(c, MPI_ERR_ARG, fn, "position is NULL");
	if (size < 0 || *pos < 0 || *pos > size)
		return shl_err(c, MPI_ERR_ARG, fn, "position %lld is outside the %s of %lld bytes",
			       (long long)*pos, what, (long long)size);
	if (size - *pos < need)
		return shl_err(c, MPI_ERR_TRUNCATE, fn, "%lld bytes do not fit in the %lld bytes "
			       "left in the %s", (long long)need, (long long)(size - *pos), what);
	return MPI_SUCCESS;
}

/* ---- native packing ---- */

static int pack(const char *fn, const void *inbuf, MPI_Count incount, MPI_Datatype t,
		void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
	struct shl_comm *c;
	int err = check_comm(fn, comm, &c);
	size_t bytes;

	if (err == MPI_SUCCESS)
		err = check_data(fn, c, t, incount);
	if (err == MPI_SUCCESS)
		err = shl_check_buf(c, fn, "inbuf", inbuf, incount, t);
	if (err != MPI_SUCCESS)
		return err;
	bytes = (size_t)incount * t->size;
	err = check_room(fn, c, position, outsize, (MPI_Count)bytes, "output buffer");
	if (err != MPI_SUCCESS)
		return err;
	if (bytes > 0 && outbuf == NULL)
		return shl_err(c, MPI_ERR_BUFFER, fn, "outbuf is NULL");
	shl_dt_copy((char *)outbuf + *position, NULL, inbuf, t, bytes);
	*position += (MPI_Count)bytes;
	return MPI_SUCCESS;
}

static int unpack(const char *fn, const void *inbuf, MPI_Count insize, MPI_Count *position,
		  void *outbuf, MPI_Count outcount, MPI_Datatype t, MPI_Comm comm)
{
	struct shl_comm *c;
	int err = check_comm(fn, comm, &c);
	size_t bytes;

	if (err == MPI_SUCCESS)
		err = check_data(fn, c, t, outcount);
	if (err == MPI_SUCCESS)
		err = check_layout(fn, c, t, outcount);
	if (err == MPI_SUCCESS)
		err = shl_check_buf(c, fn, "outbuf", outbuf, outcount, t);
	if (err != MPI_SUCCESS)
		return err;
	bytes = (size_t)outcount * t->size;
	err = check_room(fn, c, position, insize, (MPI_Count)bytes, "input buffer");
	if (err != MPI_SUCCESS)
		return err;
	if (bytes > 0 && inbuf == NULL)
		return shl_err(c, MPI_ERR_BUFFER, fn, "inbuf is NULL");
	shl_dt_copy(outbuf, t, (const char *)inbuf + *position, NULL, bytes);
	*position += (MPI_Count)bytes;
	return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
	      int *position, MPI_Comm comm)
{
	MPI_Count pos = position ? *position : 0;
	/* A NULL position is raised on comm, by pack. */
	int err = pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize,
		       position ? &pos : NULL, comm);
	if (err == MPI_SUCCESS)
		*position = (int)pos;
	return err;
}
SHL_WEAK_ALIAS(Pack);

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
		MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
	return pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}
SHL_WEAK_ALIAS(Pack_c);

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
		MPI_Datatype datatype, MPI_Comm comm)
{
	MPI_Count pos = position ? *position : 0;
	/* A NULL position is raised on comm, by unpack. */
	int err = unpack("MPI_Unpack", inbuf, insize, position ? &pos : NULL, outbuf, outcount,
			 datatype, comm);
	if (err == MPI_SUCCESS)
		*position = (int)pos;
	return err;
}
SHL_WEAK_ALIAS(Unpack);

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
		  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
	return unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}
SHL_WEAK_ALIAS(Unpack_c);

static int pack_size(const char *fn, MPI_Count incount, MPI_Datatype t, MPI_Comm comm,
		     MPI_Count *size)
{
	struct shl_comm *c;
	int err = check_comm(fn, comm, &c);

	if (err == MPI_SUCCESS)
		err = check_data(fn, c, t, incount);
	if (err == MPI_SUCCESS && size == NULL)
		err = shl_err(c, MPI_ERR_ARG, fn, "size is NULL");
	if (err == MPI_SUCCESS)
		*size = incount * (MPI_Count)t->size;
	return err;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
	MPI_Count n = 0;
	int err = pack_size("MPI_Pack_size", incount, datatype, comm, size ? &n : NULL);

	if (err == MPI_SUCCESS)
		*size = n > INT_MAX ? MPI_UNDEFINED : (int)n;
	return err;
}
SHL_WEAK_ALIAS(Pack_size);

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
	return pack_size("MPI_Pack_size_c", incount, datatype, comm, size);
}
SHL_WEAK_ALIAS(Pack_size_c);

/* ---- external32 ---- */

/* External32 bytes of one predefined element. */
static size_t ext_bytes(const struct shl_datatype *b)
{
	if (b->kind == SHL_DT_PAIR)
		return (size_t)b->pair->ext_size * b->pair->ncomp + shl_mpi_int.ext_size;
	return (size_t)b->ext_size * b->ncomp;
}

/* Big-endian `n` bytes of `v` at `out`. */
static void put_be(unsigned char *out, uint64_t v, size_t n)
{
	for (size_t i = n; i-- > 0; v >>= 8)
		out[i] = (unsigned char)v;
}

static uint64_t get_be(const unsigned char *in, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | in[i];
	return v;
}

/* x86-64 long double (x87 80-bit: 64-bit significand with explicit integer bit, 15-bit
 * exponent, sign) <-> IEEE binary128 (same exponent bias 16383, 112-bit fraction with the
 * integer bit implied). Exact in this direction; the reverse drops 49 fraction bits. */
static void put_ldouble(unsigned char *out, const unsigned char *in)
{
	uint64_t mant, se;

	memcpy(&mant, in, 8);
	se = (uint64_t)in[8] | (uint64_t)in[9] << 8;  /* sign and exponent, little-endian */
	mant &= ~(1ULL << 63);                         /* the explicit integer bit */
	put_be(out, se << 48 | mant >> 15, 8);
	put_be(out + 8, (mant & 0x7fff) << 49, 8);
}

static void get_ldouble(unsigned char *out, const unsigned char *in)
{
	uint64_t hi = get_be(in, 8), lo = get_be(in + 8, 8);
	uint64_t se = hi >> 48, mant = (hi & 0xffffffffffffULL) << 15 | lo >> 49;

	if ((se & 0x7fff) != 0)
		mant |= 1ULL << 63;
	memset(out, 0, 16);
	memcpy(out, &mant, 8);
	out[8] = (unsigned char)se;
	out[9] = (unsigned char)(se >> 8);
}

/* Whether the native integer `v` (the low b->size bytes, little-endian) has a value that
 * the b->ext_size bytes of external32 hold: MPI_LONG is 8 bytes here but 4 there, and
 * "only the least significant bytes are moved", which loses nothing only inside the
 * smaller range (MPI 4.1 15.5.2, advice to implementors); outside it is MPI_ERR_CONVERSION. */
static bool fits(const struct shl_datatype *b, uint64_t v)
{
	unsigned bits = 8u * b->ext_size;

	if (b->ext_size >= b->size)
		return true;
	if (b->kind == SHL_DT_UNSIGNED)
		return v >> bits == 0;
	/* Sign-extend the native value, then require every bit above the external sign bit
	 * to equal it. */
	if (b->size < 8 && (v >> (8 * b->size - 1)) & 1)
		v |= ~0ULL << (8 * b->size);
	uint64_t high = v >> (bits - 1);
	return high == 0 || high == (~0ULL >> (bits - 1));
}

/* One predefined element between native (at `nat`) and external32 (at `ext`). Returns
 * false, converting nothing more, when a native value does not fit its external32 size;
 * the other direction always succeeds (it widens, or drops low float bits). */
static bool convert(const struct shl_datatype *b, unsigned char *nat, unsigned char *ext,
		    bool to_ext)
{
	size_t comp = b->kind == SHL_DT_PAIR ? 0 : b->size / b->ncomp;

	switch (b->kind) {
	case SHL_DT_PAIR:
		return convert(b->pair, nat, ext, to_ext) &&
		       convert(&shl_mpi_int, nat + b->pair_off, ext + ext_bytes(b->pair), to_ext);
	case SHL_DT_BYTES:
		if (to_ext)
			memcpy(ext, nat, b->size);
		else
			memcpy(nat, ext, b->size);
		return true;
	case SHL_DT_SIGNED:
	case SHL_DT_UNSIGNED: {
		uint64_t v = 0;
		if (to_ext) {
			memcpy(&v, nat, b->size);  /* little-endian: the low bytes */
			if (!fits(b, v))
				return false;
			put_be(ext, v, b->ext_size);
			return true;
		}
		v = get_be(ext, b->ext_size);
		/* Widen a narrower external value (MPI_LONG is 4 bytes in external32). */
		if (b->kind == SHL_DT_SIGNED && b->ext_size < 8 && (v >> (8 * b->ext_size - 1)) & 1)
			v |= ~0ULL << (8 * b->ext_size);
		memcpy(nat, &v, b->size);
		return true;
	}
	case SHL_DT_FLOAT:
		for (size_t c = 0; c < b->ncomp; c++)
			for (size_t i = 0; i < comp; i++) {
				if (to_ext)
					ext[c * comp + i] = nat[c * comp + comp - 1 - i];
				else
					nat[c * comp + comp - 1 - i] = ext[c * comp + i];
			}
		return true;
	case SHL_DT_LDOUBLE:
		for (size_t c = 0; c < b->ncomp; c++) {
			if (to_ext)
				put_ldouble(ext + 16 * c, nat + comp * c);
			else
				get_ldouble(nat + comp * c, ext + 16 * c);
		}
		return true;
	}
	return true;
}

struct x32 {
	unsigned char *ext;   /* next external32 byte */
	size_t bytes;         /* external32 bytes visited so far */
	bool to_ext;
	bool measure;         /* only count bytes */
	const struct shl_datatype *bad;   /* the basic type of a value that did not fit */
	size_t bad_at;                    /* its external32 offset from the start */
};

static bool visit_x32(void *arg, const struct shl_datatype *b, char *addr, size_t n)
{
	struct x32 *x = arg;
	size_t each = ext_bytes(b);

	if (x->measure) {
		x->bytes += n * each;
		return true;
	}
	for (size_t i = 0; i < n; i++, x->ext += each, x->bytes += each)
		if (!convert(b, (unsigned char *)addr + (ptrdiff_t)i * b->extent, x->ext,
			     x->to_ext)) {
			x->bad = b;
			x->bad_at = x->bytes;
			return false;
		}
	return true;
}

/* External32 bytes of `count` elements of `t`. */
static size_t x32_size(const struct shl_datatype *t, MPI_Count count)
{
	struct x32 x = { .measure = true };

	if (count == 0 || t->size == 0)
		return 0;
	shl_dt_walk(t, NULL, 1, visit_x32, &x);
	return x.bytes * (size_t)count;
}

size_t shl_dt_x32_basic(const struct shl_datatype *basic)
{
	return ext_bytes(basic);
}

size_t shl_dt_x32_size(const struct shl_datatype *t, size_t count)
{
	return x32_size(t, (MPI_Count)count);
}

bool shl_dt_x32_convert(const struct shl_datatype *t, void *buf, size_t count, void *ext,
			bool to_ext, size_t *bad_at)
{
	struct x32 x = { .ext = ext, .to_ext = to_ext };

	if (count > 0 && t->size > 0)
		shl_dt_walk(t, buf, count, visit_x32, &x);
	if (x.bad != NULL && bad_at != NULL)
		*bad_at = x.bad_at;
	return x.bad == NULL;
}

static int check_datarep(const char *fn, const char *datarep)
{
	if (datarep == NULL || strcmp(datarep, "external32") != 0)
		return shl_err(NULL, MPI_ERR_ARG, fn, "datarep \"%s\" is not \"external32\"",
			       datarep ? datarep : "(null)");
	return MPI_SUCCESS;
}

static int pack_x32(const char *fn, const char *datarep, const void *inbuf, MPI_Count incount,
		    MPI_Datatype t, void *outbuf, MPI_Count outsize, MPI_Count *position)
{
	int err = check_datarep(fn, datarep);
	struct x32 x = { .to_ext = true };
	size_t need;

	if (err == MPI_SUCCESS)
		err = check_data(fn, NULL, t, incount);
	if (err == MPI_SUCCESS)
		err = shl_check_buf(NULL, fn, "inbuf", inbuf, incount, t);
	if (err != MPI_SUCCESS)
		return err;
	need = x32_size(t, incount);
	err = check_room(fn, NULL, position, outsize, (MPI_Count)need, "output buffer");
	if (err != MPI_SUCCESS)
		return err;
	if (need > 0 && outbuf == NULL)
		return shl_err(NULL, MPI_ERR_BUFFER, fn, "outbuf is NULL");
	x.ext = (unsigned char *)outbuf + *position;
	if (need > 0)
		shl_dt_walk(t, (char *)inbuf, (size_t)incount, visit_x32, &x);
	if (x.bad != NULL)
		return shl_err(NULL, MPI_ERR_CONVERSION, fn, "a value of type %s (external32 "
			       "bytes %zu..%zu of the %zu to pack) does not fit its external32 "
			       "size (MPI_LONG and MPI_UNSIGNED_LONG have 4 bytes there, "
			       "MPI_WCHAR 2)", x.bad->name, x.bad_at,
			       x.bad_at + ext_bytes(x.bad) - 1, need);
	*position += (MPI_Count)need;
	return MPI_SUCCESS;
}

static int unpack_x32(const char *fn, const char *datarep, const void *inbuf, MPI_Count insize,
		      MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype t)
{
	int err = check_datarep(fn, datarep);
	struct x32 x = { .to_ext = false };
	size_t need;

	if (err == MPI_SUCCESS)
		err = check_data(fn, NULL, t, outcount);
	if (err == MPI_SUCCESS)
		err = check_layout(fn, NULL, t, outcount);
	if (err == MPI_SUCCESS)
		err = shl_check_buf(NULL, fn, "outbuf", outbuf, outcount, t);
	if (err != MPI_SUCCESS)
		return err;
	need = x32_size(t, outcount);
	err = check_room(fn, NULL, position, insize, (MPI_Count)need, "input buffer");
	if (err != MPI_SUCCESS)
		return err;
	if (need > 0 && inbuf == NULL)
		return shl_err(NULL, MPI_ERR_BUFFER, fn, "inbuf is NULL");
	x.ext = (unsigned char *)inbuf + *position;
	if (need > 0)
		shl_dt_walk(t, outbuf, (size_t)outcount, visit_x32, &x);
	*position += (MPI_Count)need;
	return MPI_SUCCESS;
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
		       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
	MPI_Count pos = position ? *position : 0;
	int err;

	if (position == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Pack_external", "position is NULL");
	err = pack_x32("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize,
		       &pos);
	if (err == MPI_SUCCESS)
		*position = (MPI_Aint)pos;
	return err;
}
SHL_WEAK_ALIAS(Pack_external);

int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
			 MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
			 MPI_Count *position)
{
	return pack_x32("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf,
			outsize, position);
}
SHL_WEAK_ALIAS(Pack_external_c);

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
			 MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
	MPI_Count pos = position ? *position : 0;
	int err;

	if (position == NULL)
		return shl_err(NULL, MPI_ERR_ARG, "MPI_Unpack_external", "position is NULL");
	err = unpack_x32("MPI_Unpack_external", datarep, inbuf, insize, &pos, outbuf, outcount,
			 datatype);
	if (err == MPI_SUCCESS)
		*position = (MPI_Aint)pos;
	return err;
}
SHL_WEAK_ALIAS(Unpack_external);

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
			   MPI_Count *position, void *outbuf, MPI_Count outcount,
			   MPI_Datatype datatype)
{
	return unpack_x32("MPI_Unpack_external_c", datarep, inbuf, insize, position, outbuf,
			  outcount, datatype);
}
SHL_WEAK_ALIAS(Unpack_external_c);

static int x32_size_query(const char *fn, const char *datarep, MPI_Count incount,
			  MPI_Datatype t, MPI_Count *size)
{
	int err = check_datarep(fn, datarep);

	if (err == MPI_SUCCESS)
		err = check_data(fn, NULL, t, incount);
	if (err == MPI_SUCCESS && size == NULL)
		err = shl_err(NULL, MPI_ERR_ARG, fn, "size is NULL");
	if (err == MPI_SUCCESS)
		*size = (MPI_Count)x32_size(t, incount);
	return err;
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
			    MPI_Aint *size)
{
	MPI_Count n = 0;
	int err = size ? x32_size_query("MPI_Pack_external_size", datarep, incount, datatype, &n)
		       : shl_err(NULL, MPI_ERR_ARG, "MPI_Pack_external_size", "size is NULL");

	if (err == MPI_SUCCESS)
		*size = (MPI_Aint)n;
	return err;
}
SHL_WEAK_ALIAS(Pack_external_size);

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
			      MPI_Count *size)
{
	return x32_size_query("MPI_Pack_external_size_c", datarep, incount, datatype, size);
}
SHL_WEAK_ALIAS(Pack_external_size_c);
