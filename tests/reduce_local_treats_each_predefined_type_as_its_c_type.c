/* reduce_local_treats_each_predefined_type_as_its_c_type: every predefined datatype reduces
 * as its C type: sums wrap at its width, MAX orders it signed or unsigned, floating sums
 * round at its precision, complex products multiply, logical and bitwise operations apply
 * where MPI 4.1 section 6.9.2 allows them, MINLOC works on each pair type, MPI_CHAR reduces
 * as a signed char (an extension Open MPI and MPICH share), and MPI_WCHAR and MPI_PACKED take
 * no operation (MPI_ERR_OP). */
/* ranks: 1 */
#include <complex.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <wchar.h>

#include "check.h"

/* inout = a op b for one element of C type T sent as MPI type t: must give `want`. */
#define EXPECT(T, t, op, a, b, want)                                                    \
	do {                                                                            \
		T in_ = (a), io_ = (b), want_ = (want);                                 \
		CHECK_MPI(MPI_Reduce_local(&in_, &io_, 1, t, op));                      \
		if (!(io_ == want_))                                                    \
			check_fail(__FILE__, __LINE__, #t " " #op " of " #a " and " #b  \
				   " is not " #want);                                   \
	} while (0)

/* Sums wrap at the type's width; MAX tells -1 (all ones) from 1 by signedness. */
#define INTEGER(T, t, big, sum, max)                                                    \
	do {                                                                            \
		EXPECT(T, t, MPI_SUM, (T)(big), (T)(big), sum);                         \
		EXPECT(T, t, MPI_MAX, (T)-1, (T)1, max);                                \
		EXPECT(T, t, MPI_BXOR, (T)6, (T)3, 5);                                  \
		EXPECT(T, t, MPI_LAND, (T)2, (T)0, 0);                                  \
	} while (0)

/* The sum of 0.1 and 0.2, rounded at the type's precision (different for each). */
#define FLOATING(T, t)                                                                  \
	do {                                                                            \
		EXPECT(T, t, MPI_SUM, (T)0.1L, (T)0.2L, (T)0.1L + (T)0.2L);             \
		EXPECT(T, t, MPI_MIN, (T)-2, (T)1, -2);                                 \
		CHECK_CLASS(MPI_Reduce_local(buf, buf2, 1, t, MPI_BAND), MPI_ERR_OP);   \
	} while (0)

#define COMPLEX(T, t)                                                                   \
	do {                                                                            \
		EXPECT(T, t, MPI_PROD, 1 + 2 * I, 3 + 4 * I, -5 + 10 * I);              \
		CHECK_CLASS(MPI_Reduce_local(buf, buf2, 1, t, MPI_MAX), MPI_ERR_OP);    \
	} while (0)

#define LOGICAL(t)                                                                      \
	do {                                                                            \
		EXPECT(bool, t, MPI_LOR, false, true, true);                            \
		EXPECT(bool, t, MPI_LAND, false, true, false);                          \
		CHECK_CLASS(MPI_Reduce_local(buf, buf2, 1, t, MPI_SUM), MPI_ERR_OP);    \
	} while (0)

/* The pair with the smaller value wins; equal values keep the lower index. */
#define PAIR(V, t)                                                                      \
	do {                                                                            \
		struct { V v; int i; } a_ = { 2, 7 }, b_ = { 1, 9 }, c_ = { 1, 3 };     \
		CHECK_MPI(MPI_Reduce_local(&a_, &b_, 1, t, MPI_MINLOC));                \
		CHECK(b_.v == 1 && b_.i == 9);                                          \
		CHECK_MPI(MPI_Reduce_local(&c_, &b_, 1, t, MPI_MINLOC));                \
		CHECK(b_.v == 1 && b_.i == 3);                                          \
		CHECK_CLASS(MPI_Reduce_local(&a_, &b_, 1, t, MPI_SUM), MPI_ERR_OP);     \
	} while (0)

int main(int argc, char **argv)
{
	long double _Complex buf[2] = { 0 }, buf2[2] = { 0 };
	const MPI_Op ops[] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
			       MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC };
	const MPI_Datatype chars[] = { MPI_WCHAR, MPI_PACKED };

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

	INTEGER(signed char, MPI_CHAR, 100, -56, 1);
	INTEGER(signed char, MPI_SIGNED_CHAR, 100, -56, 1);
	INTEGER(unsigned char, MPI_UNSIGNED_CHAR, 200, 144, UCHAR_MAX);
	INTEGER(short, MPI_SHORT, 30000, -5536, 1);
	INTEGER(unsigned short, MPI_UNSIGNED_SHORT, 60000, 54464, USHRT_MAX);
	INTEGER(int, MPI_INT, 2000000000, -294967296, 1);
	INTEGER(unsigned, MPI_UNSIGNED, 4000000000u, 3705032704u, UINT_MAX);
	INTEGER(long, MPI_LONG, 1L << 40, 1L << 41, 1);
	INTEGER(unsigned long, MPI_UNSIGNED_LONG, 1UL << 63, 0, ULONG_MAX);
	INTEGER(long long, MPI_LONG_LONG, 1LL << 62, LLONG_MIN, 1);
	INTEGER(unsigned long long, MPI_UNSIGNED_LONG_LONG, 1ULL << 63, 0, ULLONG_MAX);
	INTEGER(int8_t, MPI_INT8_T, 100, -56, 1);
	INTEGER(int16_t, MPI_INT16_T, 30000, -5536, 1);
	INTEGER(int32_t, MPI_INT32_T, 2000000000, -294967296, 1);
	INTEGER(int64_t, MPI_INT64_T, INT64_C(1) << 62, INT64_MIN, 1);
	INTEGER(uint8_t, MPI_UINT8_T, 200, 144, UINT8_MAX);
	INTEGER(uint16_t, MPI_UINT16_T, 60000, 54464, UINT16_MAX);
	INTEGER(uint32_t, MPI_UINT32_T, 4000000000u, 3705032704u, UINT32_MAX);
	INTEGER(uint64_t, MPI_UINT64_T, UINT64_C(1) << 63, 0, UINT64_MAX);
	INTEGER(MPI_Aint, MPI_AINT, (MPI_Aint)1 << 40, (MPI_Aint)1 << 41, 1);
	INTEGER(MPI_Offset, MPI_OFFSET, (MPI_Offset)1 << 40, (MPI_Offset)1 << 41, 1);
	INTEGER(MPI_Count, MPI_COUNT, (MPI_Count)1 << 40, (MPI_Count)1 << 41, 1);

	FLOATING(float, MPI_FLOAT);
	FLOATING(double, MPI_DOUBLE);
	FLOATING(long double, MPI_LONG_DOUBLE);
	COMPLEX(float _Complex, MPI_C_FLOAT_COMPLEX);
	COMPLEX(double _Complex, MPI_C_DOUBLE_COMPLEX);
	COMPLEX(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX);
	COMPLEX(float _Complex, MPI_CXX_FLOAT_COMPLEX);
	COMPLEX(double _Complex, MPI_CXX_DOUBLE_COMPLEX);
	COMPLEX(long double _Complex, MPI_CXX_LONG_DOUBLE_COMPLEX);
	LOGICAL(MPI_C_BOOL);
	LOGICAL(MPI_CXX_BOOL);

	/* MPI_BYTE: bitwise operations only. */
	EXPECT(unsigned char, MPI_BYTE, MPI_BOR, 0x0f, 0xf0, 0xff);
	CHECK_CLASS(MPI_Reduce_local(buf, buf2, 1, MPI_BYTE, MPI_SUM), MPI_ERR_OP);

	PAIR(float, MPI_FLOAT_INT);
	PAIR(double, MPI_DOUBLE_INT);
	PAIR(long, MPI_LONG_INT);
	PAIR(int, MPI_2INT);
	PAIR(short, MPI_SHORT_INT);
	PAIR(long double, MPI_LONG_DOUBLE_INT);

	for (size_t t = 0; t < sizeof chars / sizeof chars[0]; t++)
		for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
			CHECK_CLASS(MPI_Reduce_local(buf, buf2, 1, chars[t], ops[o]), MPI_ERR_OP);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
