/* pack_external32_value_too_large_is_conversion_error: MPI_Pack_external fails with
 * MPI_ERR_CONVERSION (position unchanged) on a native value outside its smaller external32
 * size (MPI_LONG and MPI_UNSIGNED_LONG: 4 bytes, MPI_WCHAR: 2, also inside MPI_LONG_INT and
 * a derived type), packs the extremes that fit, and unpacks them widened. */
/* ranks: 1 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>
#include "check.h"

static unsigned char out[64];

/* Packing one `t` at `in` must fail with MPI_ERR_CONVERSION and leave position alone. */
static void refused(MPI_Datatype t, const void *in, int n)
{
	MPI_Aint pos = 4;
	MPI_Count cpos = 4;

	CHECK_CLASS(MPI_Pack_external("external32", in, n, t, out, sizeof(out), &pos),
		    MPI_ERR_CONVERSION);
	CHECK_INT(pos, 4);
	CHECK_CLASS(MPI_Pack_external_c("external32", in, n, t, out, sizeof(out), &cpos),
		    MPI_ERR_CONVERSION);
	CHECK_INT(cpos, 4);
}

/* Packing one `t` at `in` fits in `len` bytes; unpacking gives back `bytes` equal bytes. */
static void accepted(MPI_Datatype t, const void *in, void *back, size_t bytes, int len)
{
	MPI_Aint pos = 0;

	CHECK_MPI(MPI_Pack_external("external32", in, 1, t, out, sizeof(out), &pos));
	CHECK_INT(pos, len);
	pos = 0;
	memset(back, 0x5a, bytes);
	CHECK_MPI(MPI_Unpack_external("external32", out, len, &pos, back, 1, t));
	CHECK_INT(pos, len);
	CHECK(memcmp(in, back, bytes) == 0);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

	/* MPI_LONG: 8 bytes here, 4 in external32. */
	long big = 1L << 40, above = (long)INT32_MAX + 1, below = (long)INT32_MIN - 1;
	long lo = INT32_MIN, hi = INT32_MAX, lb;
	refused(MPI_LONG, &big, 1);
	refused(MPI_LONG, &above, 1);
	refused(MPI_LONG, &below, 1);
	accepted(MPI_LONG, &lo, &lb, sizeof(lb), 4);
	CHECK_INT(lb, INT32_MIN);
	accepted(MPI_LONG, &hi, &lb, sizeof(lb), 4);
	CHECK_INT(lb, INT32_MAX);

	/* MPI_UNSIGNED_LONG: 2^32 does not fit, 2^32 - 1 does. */
	unsigned long ubig = 1UL << 32, umax = UINT32_MAX, ub;
	refused(MPI_UNSIGNED_LONG, &ubig, 1);
	accepted(MPI_UNSIGNED_LONG, &umax, &ub, sizeof(ub), 4);
	CHECK(ub == UINT32_MAX);

	/* MPI_WCHAR: code points up to U+FFFF. */
	wchar_t wbig = 0x1F600, wmax = 0xFFFF, wb;
	refused(MPI_WCHAR, &wbig, 1);
	accepted(MPI_WCHAR, &wmax, &wb, sizeof(wb), 2);
	CHECK_INT(wb, 0xFFFF);

	/* The 8-byte integer types keep their size and take any value. */
	long long ll = LLONG_MIN, llb;
	accepted(MPI_LONG_LONG, &ll, &llb, sizeof(llb), 8);

	/* The value of a MINLOC pair, and the third element of an array. */
	struct { long v; int i; } pair = { 1L << 35, 7 };
	refused(MPI_LONG_INT, &pair, 1);
	long arr[3] = { 1, 2, -(1L << 33) };
	refused(MPI_LONG, arr, 3);

	/* Inside a derived type: a struct { int; long } whose long is too large. */
	struct rec { int a; long b; } recs[2] = { { 1, 2 }, { 3, 1L << 36 } };
	int bl[2] = { 1, 1 };
	MPI_Aint dp[2] = { offsetof(struct rec, a), offsetof(struct rec, b) };
	MPI_Datatype ty[2] = { MPI_INT, MPI_LONG }, st;
	CHECK_MPI(MPI_Type_create_struct(2, bl, dp, ty, &st));
	CHECK_MPI(MPI_Type_commit(&st));
	refused(st, recs, 2);
	MPI_Aint pos = 0;
	CHECK_MPI(MPI_Pack_external("external32", recs, 1, st, out, sizeof(out), &pos));
	CHECK_INT(pos, 8);
	CHECK_MPI(MPI_Type_free(&st));

	MPI_Finalize();
	return 0;
}
