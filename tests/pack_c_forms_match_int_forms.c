/* pack_c_forms_match_int_forms: MPI_Pack_c/Unpack_c/Pack_size_c and MPI_Pack_external_c/
 * Unpack_external_c/Pack_external_size_c give the same sizes, the same bytes and the same
 * unpacked data as their int twins, for a struct of mixed types resized with padding, and
 * refuse a negative count with MPI_ERR_COUNT. */
/* ranks: 1 */
#include <stddef.h>
#include <string.h>

#include "check.h"

struct rec {
	char c;
	double d[2];
	short s;
	long long q;
};

#define N 37

int main(int argc, char **argv)
{
	struct rec in[N], out_i[N], out_c[N];
	char pi[4096], pc[4096];
	MPI_Datatype s, t;
	MPI_Aint xi = 0, esize_i, upos = 0;
	MPI_Count esize_c, size_c, pos_c = 0, upos_c = 0;
	int size_i, pos_i = 0, upos_i = 0;
	int bl[4] = { 1, 2, 1, 1 };
	MPI_Aint dp[4] = { offsetof(struct rec, c), offsetof(struct rec, d), offsetof(struct rec, s),
			   offsetof(struct rec, q) };
	MPI_Datatype ty[4] = { MPI_CHAR, MPI_DOUBLE, MPI_SHORT, MPI_LONG_LONG };

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Type_create_struct(4, bl, dp, ty, &s));
	CHECK_MPI(MPI_Type_create_resized(s, 0, sizeof(struct rec), &t));
	CHECK_MPI(MPI_Type_commit(&t));
	memset(in, 0x5a, sizeof in);
	for (int i = 0; i < N; i++) {
		in[i].c = (char)('a' + i % 26);
		in[i].d[0] = i * 1.5;
		in[i].d[1] = -i / 3.0;
		in[i].s = (short)(i * 1000 - 7);
		in[i].q = (long long)i << 40 | i;
	}

	/* Native packing. */
	CHECK_MPI(MPI_Pack_size(N, t, MPI_COMM_WORLD, &size_i));
	CHECK_MPI(MPI_Pack_size_c(N, t, MPI_COMM_WORLD, &size_c));
	CHECK_INT(size_c, size_i);
	CHECK_MPI(MPI_Pack(in, N, t, pi, sizeof pi, &pos_i, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack_c(in, N, t, pc, sizeof pc, &pos_c, MPI_COMM_WORLD));
	CHECK_INT(pos_c, pos_i);
	CHECK_CMP(pos_i, <=, size_i);
	CHECK(memcmp(pi, pc, (size_t)pos_i) == 0);
	memset(out_i, 0, sizeof out_i);
	memset(out_c, 0, sizeof out_c);
	CHECK_MPI(MPI_Unpack(pi, pos_i, &upos_i, out_i, N, t, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Unpack_c(pc, pos_c, &upos_c, out_c, N, t, MPI_COMM_WORLD));
	CHECK_INT(upos_c, upos_i);
	CHECK(memcmp(out_i, out_c, sizeof out_i) == 0);
	for (int i = 0; i < N; i++) {
		CHECK_INT(out_c[i].c, in[i].c);
		CHECK(out_c[i].d[1] == in[i].d[1]);
		CHECK_INT(out_c[i].s, in[i].s);
		CHECK(out_c[i].q == in[i].q);
	}

	/* external32: 1 + 16 + 2 + 8 bytes per element, big-endian. */
	CHECK_MPI(MPI_Pack_external_size("external32", N, t, &esize_i));
	CHECK_MPI(MPI_Pack_external_size_c("external32", N, t, &esize_c));
	CHECK_INT(esize_i, 27 * N);
	CHECK_INT(esize_c, esize_i);
	CHECK_MPI(MPI_Pack_external("external32", in, N, t, pi, sizeof pi, &xi));
	pos_c = 0;
	CHECK_MPI(MPI_Pack_external_c("external32", in, N, t, pc, sizeof pc, &pos_c));
	CHECK_INT(xi, esize_i);
	CHECK_INT(pos_c, xi);
	CHECK(memcmp(pi, pc, (size_t)xi) == 0);
	CHECK_INT((unsigned char)pc[1 + 16], (unsigned short)in[0].s >> 8);  /* big-endian */
	memset(out_i, 0, sizeof out_i);
	memset(out_c, 0, sizeof out_c);
	CHECK_MPI(MPI_Unpack_external("external32", pi, xi, &upos, out_i, N, t));
	upos_c = 0;
	CHECK_MPI(MPI_Unpack_external_c("external32", pc, pos_c, &upos_c, out_c, N, t));
	CHECK_INT(upos_c, upos);
	CHECK(memcmp(out_i, out_c, sizeof out_i) == 0);
	for (int i = 0; i < N; i++) {
		CHECK(out_c[i].d[0] == in[i].d[0]);
		CHECK(out_c[i].q == in[i].q);
	}

	/* Negative counts. */
	pos_c = 0;
	CHECK_CLASS(MPI_Pack_c(in, -1, t, pc, sizeof pc, &pos_c, MPI_COMM_WORLD), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Pack_size_c(-2, t, MPI_COMM_WORLD, &size_c), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Pack_external_size_c("external32", -3, t, &esize_c), MPI_ERR_COUNT);
	CHECK_CLASS(MPI_Unpack_external_c("external32", pc, 10, &upos_c, out_c, -1, t),
		    MPI_ERR_COUNT);
	MPI_Type_free(&s);
	MPI_Type_free(&t);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
