/* fortran_types_reduce_in_c: the Fortran datatypes of mpi.h (MPI_INTEGER ... MPI_LOGICAL16,
 * MPI_2REAL ...) reduce with the operations MPI 4.1 6.9.2 allows and refuse the others with
 * MPI_ERR_OP; each has its name, size, external32 size, combiner MPI_COMBINER_NAMED and a
 * Fortran integer of its own; MPI_Type_get_value_index names the Fortran pairs. */
/* ranks: 1 4 64 */
#include <complex.h>
#include <stdint.h>

#include "check.h"

static int rank, size;

static void named(MPI_Datatype t, const char *name, int bytes, int ext32)
{
	char got[MPI_MAX_OBJECT_NAME];
	int len, n, ni, na, nd, comb;
	MPI_Aint lb, extent, e32;

	CHECK(t != MPI_DATATYPE_NULL);
	CHECK_MPI(MPI_Type_get_name(t, got, &len));
	CHECK_STR(got, name);
	CHECK_MPI(MPI_Type_size(t, &n));
	CHECK_INT(n, bytes);
	CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
	CHECK_INT(lb, 0);
	CHECK_INT(extent, bytes);
	CHECK_MPI(MPI_Pack_external_size("external32", 1, t, &e32));
	CHECK_INT(e32, ext32);
	CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
	CHECK_INT(comb, MPI_COMBINER_NAMED);
	CHECK(MPI_Type_f2c(MPI_Type_c2f(t)) == t);
}

/* op on type t must be refused. */
static void refused(MPI_Datatype t, MPI_Op op)
{
	char in[32] = { 0 }, out[32];

	CHECK_CLASS(MPI_Allreduce(in, out, 1, t, op, MPI_COMM_WORLD), MPI_ERR_OP);
}

int main(int argc, char **argv)
{
	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

	named(MPI_CHARACTER, "MPI_CHARACTER", 1, 1);
	named(MPI_LOGICAL, "MPI_LOGICAL", 4, 4);
	named(MPI_INTEGER, "MPI_INTEGER", 4, 4);
	named(MPI_REAL, "MPI_REAL", 4, 4);
	named(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 8);
	named(MPI_COMPLEX, "MPI_COMPLEX", 8, 8);
	named(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 16);
	named(MPI_INTEGER1, "MPI_INTEGER1", 1, 1);
	named(MPI_INTEGER2, "MPI_INTEGER2", 2, 2);
	named(MPI_INTEGER4, "MPI_INTEGER4", 4, 4);
	named(MPI_INTEGER8, "MPI_INTEGER8", 8, 8);
	named(MPI_INTEGER16, "MPI_INTEGER16", 16, 16);
	named(MPI_REAL4, "MPI_REAL4", 4, 4);
	named(MPI_REAL8, "MPI_REAL8", 8, 8);
	named(MPI_REAL16, "MPI_REAL16", 16, 16);
	named(MPI_COMPLEX8, "MPI_COMPLEX8", 8, 8);
	named(MPI_COMPLEX16, "MPI_COMPLEX16", 16, 16);
	named(MPI_COMPLEX32, "MPI_COMPLEX32", 32, 32);
	named(MPI_LOGICAL1, "MPI_LOGICAL1", 1, 1);
	named(MPI_LOGICAL2, "MPI_LOGICAL2", 2, 2);
	named(MPI_LOGICAL4, "MPI_LOGICAL4", 4, 4);
	named(MPI_LOGICAL8, "MPI_LOGICAL8", 8, 8);
	named(MPI_LOGICAL16, "MPI_LOGICAL16", 16, 16);
	named(MPI_2REAL, "MPI_2REAL", 8, 8);
	named(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 16);
	named(MPI_2INTEGER, "MPI_2INTEGER", 8, 8);
	CHECK(MPI_REAL2 == MPI_DATATYPE_NULL);
	CHECK(MPI_COMPLEX4 == MPI_DATATYPE_NULL);
	/* Each type its own Fortran integer. */
	CHECK(MPI_Type_c2f(MPI_INTEGER) != MPI_Type_c2f(MPI_INT));
	CHECK(MPI_Type_c2f(MPI_INTEGER) != MPI_Type_c2f(MPI_INTEGER4));
	CHECK(MPI_Type_c2f(MPI_2INTEGER) != MPI_Type_c2f(MPI_2INT));

	/* Integer sums, 16-byte ones beyond 64 bits. */
	int isum = rank + 1, iout;
	CHECK_MPI(MPI_Allreduce(&isum, &iout, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD));
	CHECK_INT(iout, size * (size + 1) / 2);
	__int128 big = (__int128)(rank + 1) << 70, bigout;
	CHECK_MPI(MPI_Allreduce(&big, &bigout, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD));
	CHECK(bigout == (__int128)(size * (size + 1) / 2) << 70);
	int64_t bits = (int64_t)1 << (rank % 63), bitsout;
	CHECK_MPI(MPI_Allreduce(&bits, &bitsout, 1, MPI_INTEGER8, MPI_BOR, MPI_COMM_WORLD));
	CHECK_INT(bitsout, size >= 63 ? INT64_MAX : ((int64_t)1 << size) - 1);
	int8_t small = (int8_t)(rank % 100), smallout;
	CHECK_MPI(MPI_Allreduce(&small, &smallout, 1, MPI_INTEGER1, MPI_MAX, MPI_COMM_WORLD));
	CHECK_INT(smallout, size - 1 < 100 ? size - 1 : 99);

	/* Reals: REAL16 is binary128 (exact where binary64 would round). */
	float r = (float)rank, rout;
	CHECK_MPI(MPI_Allreduce(&r, &rout, 1, MPI_REAL, MPI_MIN, MPI_COMM_WORLD));
	CHECK(rout == 0.0f);
	_Float128 q = (_Float128)1 + (_Float128)0x1p-100, qout;  /* sums stay exact */
	CHECK_MPI(MPI_Allreduce(&q, &qout, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD));
	CHECK(qout == (_Float128)size + (_Float128)size * (_Float128)0x1p-100);
	CHECK(qout != (_Float128)size);
	double d = rank + 0.5, dout;
	CHECK_MPI(MPI_Allreduce(&d, &dout, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD));
	CHECK(dout == size - 0.5);

	/* Complex products: i**size. */
	float _Complex c = I, cout;
	CHECK_MPI(MPI_Allreduce(&c, &cout, 1, MPI_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
	static const float re[4] = { 1, 0, -1, 0 }, im[4] = { 0, 1, 0, -1 };
	CHECK(crealf(cout) == re[size % 4] && cimagf(cout) == im[size % 4]);
	_Complex _Float128 cq = 1 + 2 * I, cqout;
	CHECK_MPI(MPI_Allreduce(&cq, &cqout, 1, MPI_COMPLEX32, MPI_SUM, MPI_COMM_WORLD));
	CHECK(__real__ cqout == size && __imag__ cqout == 2 * size);
	double _Complex cd = rank, cdout;
	CHECK_MPI(MPI_Allreduce(&cd, &cdout, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
	CHECK(creal(cdout) == size * (size - 1) / 2);

	/* LOGICAL: .TRUE. is 1; the results are 0 or 1. */
	int l = rank == 0, land, lor, lxor;
	CHECK_MPI(MPI_Allreduce(&l, &land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Allreduce(&l, &lor, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Allreduce(&l, &lxor, 1, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD));
	CHECK_INT(land, size == 1);
	CHECK_INT(lor, 1);
	CHECK_INT(lxor, 1);
	int8_t l1 = 1, l1out;
	CHECK_MPI(MPI_Allreduce(&l1, &l1out, 1, MPI_LOGICAL1, MPI_LAND, MPI_COMM_WORLD));
	CHECK_INT(l1out, 1);
	__int128 l16 = rank % 2, l16out;
	CHECK_MPI(MPI_Allreduce(&l16, &l16out, 1, MPI_LOGICAL16, MPI_LXOR, MPI_COMM_WORLD));
	CHECK(l16out == (size / 2) % 2);

	/* MINLOC/MAXLOC on the Fortran pairs: value and index of one type. */
	float p2[2] = { (float)(rank % 3), (float)rank }, p2out[2];
	CHECK_MPI(MPI_Allreduce(p2, p2out, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD));
	CHECK(p2out[0] == (size >= 3 ? 2 : size - 1) && p2out[1] == (size >= 3 ? 2 : size - 1));
	double pd[2] = { -(double)rank, (double)rank }, pdout[2];
	CHECK_MPI(MPI_Allreduce(pd, pdout, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD));
	CHECK(pdout[0] == -(size - 1) && pdout[1] == size - 1);
	int pi[2] = { 7, rank }, piout[2];
	CHECK_MPI(MPI_Allreduce(pi, piout, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD));
	CHECK(piout[0] == 7 && piout[1] == 0);

	MPI_Datatype pt;
	CHECK_MPI(MPI_Type_get_value_index(MPI_REAL, MPI_REAL, &pt));
	CHECK(pt == MPI_2REAL);
	CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, &pt));
	CHECK(pt == MPI_2DOUBLE_PRECISION);
	CHECK_MPI(MPI_Type_get_value_index(MPI_INTEGER, MPI_INTEGER, &pt));
	CHECK(pt == MPI_2INTEGER);
	CHECK_MPI(MPI_Type_get_value_index(MPI_INT, MPI_INT, &pt));
	CHECK(pt == MPI_2INT);
	CHECK_MPI(MPI_Type_get_value_index(MPI_REAL, MPI_INT, &pt));
	CHECK(pt == MPI_DATATYPE_NULL);

	/* What MPI 4.1 6.9.2 does not define. */
	refused(MPI_LOGICAL, MPI_SUM);
	refused(MPI_LOGICAL8, MPI_BAND);
	refused(MPI_CHARACTER, MPI_MAX);
	refused(MPI_COMPLEX, MPI_MAX);
	refused(MPI_REAL16, MPI_LAND);
	refused(MPI_2REAL, MPI_SUM);

	/* external32 is big-endian: INTEGER16 1 ends in its last byte. */
	__int128 one = 1, back = 0;
	unsigned char ext[16];
	MPI_Aint pos = 0;
	CHECK_MPI(MPI_Pack_external("external32", &one, 1, MPI_INTEGER16, ext, sizeof ext, &pos));
	CHECK_INT(pos, 16);
	CHECK_INT(ext[15], 1);
	CHECK_INT(ext[0], 0);
	pos = 0;
	CHECK_MPI(MPI_Unpack_external("external32", ext, sizeof ext, &pos, &back, 1, MPI_INTEGER16));
	CHECK(back == 1);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
