/* send_recv_every_predefined_datatype: blocking send/receive of every predefined datatype
 * delivers the values sent, MPI_Type_size matches the C type, and Get_count counts elements. */
/* ranks: 2 4 64 */
#include <complex.h>
#include <stdbool.h>
#include <wchar.h>
#include "check.h"

#define N 7

struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct two_int { int v; int i; };
struct short_int { short v; int i; };
struct long_double_int { long double v; int i; };

static int rank, size, partner;
static int tag;

/* Exchange buf (N elements of dt) with the partner: the lower rank sends first. */
static void exchange(void *out, void *in, MPI_Datatype dt)
{
	MPI_Status st;
	int count = -1;

	if (rank < partner) {
		CHECK_MPI(MPI_Send(out, N, dt, partner, tag, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Recv(in, N, dt, partner, tag, MPI_COMM_WORLD, &st));
	} else {
		CHECK_MPI(MPI_Recv(in, N, dt, partner, tag, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Send(out, N, dt, partner, tag, MPI_COMM_WORLD));
	}
	CHECK_INT(st.MPI_SOURCE, partner);
	CHECK_INT(st.MPI_TAG, tag);
	CHECK_MPI(MPI_Get_count(&st, dt, &count));
	CHECK_INT(count, N);
	tag++;
}

/* Value i of a rank's pattern, distinct per rank and per element, small enough for int8. */
#define VAL(r, i) (((r) * 7 + (i) * 3 + 1) % 100)

/* Send N values of C type T as MPI type DT and check what arrives from the partner. */
#define SCALAR(T, DT)                                                                   \
	do {                                                                            \
		T out[N], in[N];                                                        \
		int sz = -1;                                                            \
		CHECK_MPI(MPI_Type_size(DT, &sz));                                      \
		CHECK_INT(sz, sizeof(T));                                               \
		for (int i = 0; i < N; i++) {                                           \
			out[i] = (T)VAL(rank, i);                                       \
			in[i] = (T)0;                                                   \
		}                                                                       \
		exchange(out, in, DT);                                                  \
		for (int i = 0; i < N; i++)                                             \
			if (in[i] != (T)VAL(partner, i)) {                              \
				fprintf(stderr, "type %s element %d wrong\n", #DT, i);  \
				CHECK(in[i] == (T)VAL(partner, i));                     \
			}                                                               \
	} while (0)

/* Complex types: real and imaginary parts both carry data. */
#define COMPLEX(T, DT)                                                                  \
	do {                                                                            \
		T out[N], in[N];                                                        \
		int sz = -1;                                                            \
		CHECK_MPI(MPI_Type_size(DT, &sz));                                      \
		CHECK_INT(sz, sizeof(T));                                               \
		for (int i = 0; i < N; i++) {                                           \
			out[i] = VAL(rank, i) + VAL(rank, i + 1) * I;                   \
			in[i] = 0;                                                      \
		}                                                                       \
		exchange(out, in, DT);                                                  \
		for (int i = 0; i < N; i++)                                             \
			if (in[i] != (T)(VAL(partner, i) + VAL(partner, i + 1) * I)) {  \
				fprintf(stderr, "type %s element %d wrong\n", #DT, i);  \
				CHECK(!"complex value mismatch");                       \
			}                                                               \
	} while (0)

/* Pair types (value, int) used by MINLOC/MAXLOC. */
#define PAIR(S, DT)                                                                     \
	do {                                                                            \
		struct S out[N], in[N];                                                 \
		MPI_Aint lb = -1, extent = -1;                                          \
		CHECK_MPI(MPI_Type_get_extent(DT, &lb, &extent));                       \
		CHECK_INT(lb, 0);                                                       \
		CHECK_INT(extent, sizeof(struct S));                                    \
		memset(in, 0, sizeof in);                                               \
		for (int i = 0; i < N; i++) {                                           \
			out[i].v = VAL(rank, i);                                        \
			out[i].i = -VAL(rank, i + 2) - 1000 * rank;                     \
		}                                                                       \
		exchange(out, in, DT);                                                  \
		for (int i = 0; i < N; i++) {                                           \
			CHECK(in[i].v == VAL(partner, i));                              \
			CHECK_INT(in[i].i, -VAL(partner, i + 2) - 1000 * partner);      \
		}                                                                       \
	} while (0)

int main(int argc, char **argv)
{
	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	if (partner >= size) { /* odd rank count: the last rank has no partner */
		MPI_Finalize();
		return 0;
	}

	SCALAR(char, MPI_CHAR);
	SCALAR(signed char, MPI_SIGNED_CHAR);
	SCALAR(unsigned char, MPI_UNSIGNED_CHAR);
	SCALAR(unsigned char, MPI_BYTE);
	SCALAR(wchar_t, MPI_WCHAR);
	SCALAR(short, MPI_SHORT);
	SCALAR(unsigned short, MPI_UNSIGNED_SHORT);
	SCALAR(int, MPI_INT);
	SCALAR(unsigned, MPI_UNSIGNED);
	SCALAR(long, MPI_LONG);
	SCALAR(unsigned long, MPI_UNSIGNED_LONG);
	SCALAR(long long, MPI_LONG_LONG);
	SCALAR(long long, MPI_LONG_LONG_INT);
	SCALAR(unsigned long long, MPI_UNSIGNED_LONG_LONG);
	SCALAR(float, MPI_FLOAT);
	SCALAR(double, MPI_DOUBLE);
	SCALAR(long double, MPI_LONG_DOUBLE);
	SCALAR(int8_t, MPI_INT8_T);
	SCALAR(int16_t, MPI_INT16_T);
	SCALAR(int32_t, MPI_INT32_T);
	SCALAR(int64_t, MPI_INT64_T);
	SCALAR(uint8_t, MPI_UINT8_T);
	SCALAR(uint16_t, MPI_UINT16_T);
	SCALAR(uint32_t, MPI_UINT32_T);
	SCALAR(uint64_t, MPI_UINT64_T);
	SCALAR(MPI_Aint, MPI_AINT);
	SCALAR(MPI_Offset, MPI_OFFSET);
	SCALAR(MPI_Count, MPI_COUNT);
	SCALAR(unsigned char, MPI_PACKED);

	/* Booleans carry only 0/1: alternate them. */
	{
		bool out[N], in[N];
		for (int i = 0; i < N; i++) {
			out[i] = (i + rank) % 2;
			in[i] = !out[i];
		}
		exchange(out, in, MPI_C_BOOL);
		for (int i = 0; i < N; i++)
			CHECK_INT(in[i], (i + partner) % 2);
		for (int i = 0; i < N; i++)
			in[i] = !out[i];
		exchange(out, in, MPI_CXX_BOOL);
		for (int i = 0; i < N; i++)
			CHECK_INT(in[i], (i + partner) % 2);
	}

	COMPLEX(float _Complex, MPI_C_FLOAT_COMPLEX);
	COMPLEX(float _Complex, MPI_C_COMPLEX);
	COMPLEX(double _Complex, MPI_C_DOUBLE_COMPLEX);
	COMPLEX(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX);
	/* The C++ complex types have the same layout as the C ones. */
	COMPLEX(float _Complex, MPI_CXX_FLOAT_COMPLEX);
	COMPLEX(double _Complex, MPI_CXX_DOUBLE_COMPLEX);
	COMPLEX(long double _Complex, MPI_CXX_LONG_DOUBLE_COMPLEX);

	PAIR(float_int, MPI_FLOAT_INT);
	PAIR(double_int, MPI_DOUBLE_INT);
	PAIR(long_int, MPI_LONG_INT);
	PAIR(two_int, MPI_2INT);
	PAIR(short_int, MPI_SHORT_INT);
	PAIR(long_double_int, MPI_LONG_DOUBLE_INT);

	/* Long double values that need all 64 bits of the x87 mantissa. */
	{
		long double out[N], in[N];
		for (int i = 0; i < N; i++) {
			out[i] = 1.0L + (long double)(rank * N + i) / 3.0L;
			in[i] = 0;
		}
		exchange(out, in, MPI_LONG_DOUBLE);
		for (int i = 0; i < N; i++)
			CHECK(in[i] == 1.0L + (long double)(partner * N + i) / 3.0L);
	}

	CHECK_MPI(MPI_Finalize());
	return 0;
}
