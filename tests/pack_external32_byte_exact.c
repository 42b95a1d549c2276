/* pack_external32_byte_exact: MPI_Pack_external writes "external32" exactly (big-endian, the
 * sizes of MPI 4.1 Table 13: MPI_LONG 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE IEEE binary128,
 * pair types as value then int), MPI_Unpack_external restores the values, and the size
 * queries agree. */
/* ranks: 1 */
#include <complex.h>
#include <stdint.h>
#include "check.h"

static unsigned char out[256];

/* Pack `n` of `t` at `in` and compare with the `len` bytes of `want`. */
static void expect(MPI_Datatype t, const void *in, int n, const unsigned char *want, int len,
		   const char *what)
{
	MPI_Aint pos = 0, size = -1;

	memset(out, 0xee, sizeof(out));
	CHECK_MPI(MPI_Pack_external_size("external32", n, t, &size));
	CHECK_INT(size, len);
	CHECK_MPI(MPI_Pack_external("external32", in, n, t, out, sizeof(out), &pos));
	CHECK_INT(pos, len);
	for (int i = 0; i < len; i++)
		if (out[i] != want[i]) {
			fprintf(stderr, "%s: byte %d is %02x, want %02x\n", what, i, out[i], want[i]);
			CHECK_INT(out[i], want[i]);
		}
	CHECK_INT(out[len], 0xee);
}

/* Unpack what expect() packed into `back` and compare `bytes` bytes with `in`. */
static void round_trip(MPI_Datatype t, const void *in, void *back, int n, size_t bytes, int len)
{
	MPI_Aint pos = 0;

	CHECK_MPI(MPI_Unpack_external("external32", out, len, &pos, back, n, t));
	CHECK_INT(pos, len);
	CHECK(memcmp(in, back, bytes) == 0);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);

	int i[2] = { 0x01020304, -2 }, ib[2];
	expect(MPI_INT, i, 2, (unsigned char[]){ 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe }, 8, "int");
	round_trip(MPI_INT, i, ib, 2, sizeof(i), 8);

	short s = -2, sb;
	expect(MPI_SHORT, &s, 1, (unsigned char[]){ 0xff, 0xfe }, 2, "short");
	round_trip(MPI_SHORT, &s, &sb, 1, sizeof(s), 2);

	long l = -5, lb;
	expect(MPI_LONG, &l, 1, (unsigned char[]){ 0xff, 0xff, 0xff, 0xfb }, 4, "long");
	round_trip(MPI_LONG, &l, &lb, 1, sizeof(l), 4);

	unsigned long ul = 0x8899aabbUL, ulb;
	expect(MPI_UNSIGNED_LONG, &ul, 1, (unsigned char[]){ 0x88, 0x99, 0xaa, 0xbb }, 4,
	       "unsigned long");
	round_trip(MPI_UNSIGNED_LONG, &ul, &ulb, 1, sizeof(ul), 4);

	long long ll = 0x0102030405060708LL, llb;
	expect(MPI_LONG_LONG, &ll, 1, (unsigned char[]){ 1, 2, 3, 4, 5, 6, 7, 8 }, 8,
	       "long long");
	round_trip(MPI_LONG_LONG, &ll, &llb, 1, sizeof(ll), 8);

	double d = 1.0, db;
	expect(MPI_DOUBLE, &d, 1, (unsigned char[]){ 0x3f, 0xf0, 0, 0, 0, 0, 0, 0 }, 8, "double");
	round_trip(MPI_DOUBLE, &d, &db, 1, sizeof(d), 8);

	float f = -2.5f, fb;
	expect(MPI_FLOAT, &f, 1, (unsigned char[]){ 0xc0, 0x20, 0, 0 }, 4, "float");
	round_trip(MPI_FLOAT, &f, &fb, 1, sizeof(f), 4);

	long double ld[2] = { 1.0L, -3.0L }, ldb[2];
	unsigned char ldw[32] = { 0x3f, 0xff };
	ldw[16] = 0xc0, ldw[17] = 0x00, ldw[18] = 0x80;
	expect(MPI_LONG_DOUBLE, ld, 2, ldw, 32, "long double");
	round_trip(MPI_LONG_DOUBLE, ld, ldb, 2, 0, 32);
	CHECK(ldb[0] == 1.0L && ldb[1] == -3.0L);

	double _Complex z = 1.0 + 2.0 * I, zb;
	expect(MPI_C_DOUBLE_COMPLEX, &z, 1,
	       (unsigned char[]){ 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0 }, 16,
	       "double complex");
	round_trip(MPI_C_DOUBLE_COMPLEX, &z, &zb, 1, sizeof(z), 16);

	struct { int v, i; } p2 = { 7, -1 }, p2b;
	expect(MPI_2INT, &p2, 1, (unsigned char[]){ 0, 0, 0, 7, 0xff, 0xff, 0xff, 0xff }, 8,
	       "2int");
	round_trip(MPI_2INT, &p2, &p2b, 1, sizeof(p2), 8);

	struct { double v; int i; } di = { 0.5, 3 }, dib;
	expect(MPI_DOUBLE_INT, &di, 1,
	       (unsigned char[]){ 0x3f, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3 }, 12, "double_int");
	round_trip(MPI_DOUBLE_INT, &di, &dib, 1, 12, 12);

	/* Table 13 sizes of the other predefined types. */
	struct { MPI_Datatype t; int size; } table[] = {
		{ MPI_CHAR, 1 }, { MPI_SIGNED_CHAR, 1 }, { MPI_UNSIGNED_CHAR, 1 }, { MPI_BYTE, 1 },
		{ MPI_WCHAR, 2 }, { MPI_UNSIGNED_SHORT, 2 }, { MPI_UNSIGNED, 4 },
		{ MPI_UNSIGNED_LONG_LONG, 8 }, { MPI_C_BOOL, 1 }, { MPI_INT8_T, 1 },
		{ MPI_INT16_T, 2 }, { MPI_INT32_T, 4 }, { MPI_INT64_T, 8 }, { MPI_UINT8_T, 1 },
		{ MPI_UINT16_T, 2 }, { MPI_UINT32_T, 4 }, { MPI_UINT64_T, 8 },
		{ MPI_C_FLOAT_COMPLEX, 8 }, { MPI_C_LONG_DOUBLE_COMPLEX, 32 }, { MPI_AINT, 8 },
		{ MPI_OFFSET, 8 }, { MPI_COUNT, 8 }, { MPI_FLOAT_INT, 8 }, { MPI_LONG_INT, 8 },
		{ MPI_SHORT_INT, 6 }, { MPI_LONG_DOUBLE_INT, 20 }, { MPI_PACKED, 1 },
	};
	for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++) {
		MPI_Aint size;
		CHECK_MPI(MPI_Pack_external_size("external32", 3, table[k].t, &size));
		CHECK_INT(size, 3 * table[k].size);
	}

	/* A derived type: vector of { short, long, double } structs, round trip and size. */
	{
		struct rec { short a; long b; double c; } recs[6], back[6];
		int bl[3] = { 1, 1, 1 };
		MPI_Aint dp[3] = { offsetof(struct rec, a), offsetof(struct rec, b),
				   offsetof(struct rec, c) };
		MPI_Datatype ty[3] = { MPI_SHORT, MPI_LONG, MPI_DOUBLE }, st, vec;
		CHECK_MPI(MPI_Type_create_struct(3, bl, dp, ty, &st));
		CHECK_MPI(MPI_Type_vector(3, 1, 2, st, &vec));
		CHECK_MPI(MPI_Type_commit(&vec));
		memset(recs, 0, sizeof(recs));
		memset(back, 0, sizeof(back));
		for (int k = 0; k < 6; k++)
			recs[k] = (struct rec){ (short)(k - 3), -100000L * k, k / 4.0 };
		unsigned char buf[128];
		MPI_Aint pos = 0, size;
		CHECK_MPI(MPI_Pack_external_size("external32", 1, vec, &size));
		CHECK_INT(size, 3 * (2 + 4 + 8));
		CHECK_MPI(MPI_Pack_external("external32", recs, 1, vec, buf, sizeof(buf), &pos));
		CHECK_INT(pos, size);
		/* the second record's long (-200000) at 14 + 2, big-endian, 4 bytes */
		CHECK_INT(buf[16], 0xff);
		CHECK_INT(buf[17], 0xfc);
		CHECK_INT(buf[18], 0xf2);
		CHECK_INT(buf[19], 0xc0);
		pos = 0;
		CHECK_MPI(MPI_Unpack_external("external32", buf, size, &pos, back, 1, vec));
		for (int k = 0; k < 6; k += 2) {
			CHECK_INT(back[k].a, recs[k].a);
			CHECK_INT(back[k].b, recs[k].b);
			CHECK(back[k].c == recs[k].c);
			CHECK_INT(back[k + 1].b, 0);
		}
		/* Too small an output buffer is an error, not an overflow. */
		MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
		pos = 0;
		CHECK_CLASS(MPI_Pack_external("external32", recs, 1, vec, buf, 10, &pos),
			    MPI_ERR_TRUNCATE);
		CHECK_CLASS(MPI_Pack_external("native", recs, 1, vec, buf, sizeof(buf), &pos),
			    MPI_ERR_ARG);
		CHECK_MPI(MPI_Type_free(&st));
		CHECK_MPI(MPI_Type_free(&vec));
	}

	MPI_Finalize();
	return 0;
}
