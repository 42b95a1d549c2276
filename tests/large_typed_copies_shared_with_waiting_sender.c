/* large_typed_copies_shared_with_waiting_sender: non-contiguous messages from 1 KiB,
 * whose copy a waiting sender shares in signature chunks (64 KiB from 128 KiB; below, a
 * quarter of the message, 512 B to 16 KiB) that start mid-run and mid-element, land
 * exactly where a whole copy (pack then unpack) puts them, for every layout pair. */
/* ranks: 2 4 */
#include <stddef.h>
#include "check.h"

static int rank, size, partner;

/* A layout: `count` elements of `type` over a buffer of `bytes` bytes. */
struct lay {
	MPI_Datatype type;
	int count;
	long bytes;
};

static struct lay lay_of(MPI_Datatype t, int count)
{
	MPI_Aint lb, extent, tlb, text;
	struct lay l = { t, count, 0 };

	CHECK_MPI(MPI_Type_commit(&l.type));
	CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
	CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &text));
	CHECK_CMP(tlb, >=, 0);
	l.bytes = (long)((count - 1) * extent + tlb + text);
	return l;
}

static void fill(unsigned char *b, long n, int seed)
{
	for (long i = 0; i < n; i++)
		b[i] = (unsigned char)(1 + (i * 31 + seed * 17 + (i >> 12)) % 251);
}

/* The lower rank of each pair sends `s` with MPI_Send (so it waits and helps); the other
 * receives into `r` and compares with pack-then-unpack of the same data. */
static void transfer(const struct lay *s, const struct lay *r, int tag, const char *what)
{
	int ssize, rsize;

	CHECK_MPI(MPI_Type_size(s->type, &ssize));
	CHECK_MPI(MPI_Type_size(r->type, &rsize));
	CHECK_INT((long)ssize * s->count, (long)rsize * r->count);
	unsigned char *sbuf = malloc((size_t)s->bytes), *rbuf = calloc((size_t)r->bytes, 1);
	CHECK(sbuf != NULL && rbuf != NULL);
	fill(sbuf, s->bytes, tag);
	if (rank < partner) {
		CHECK_MPI(MPI_Send(sbuf, s->count, s->type, partner, tag, MPI_COMM_WORLD));
	} else {
		long total = (long)ssize * s->count;
		unsigned char *packed = malloc((size_t)total), *want = calloc((size_t)r->bytes, 1);
		int pos = 0;
		MPI_Status st;
		int n;
		CHECK(packed != NULL && want != NULL);
		CHECK_MPI(MPI_Pack(sbuf, s->count, s->type, packed, (int)total, &pos,
				   MPI_COMM_WORLD));
		pos = 0;
		CHECK_MPI(MPI_Unpack(packed, (int)total, &pos, want, r->count, r->type,
				     MPI_COMM_WORLD));
		CHECK_MPI(MPI_Recv(rbuf, r->count, r->type, partner, tag, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_count(&st, r->type, &n));
		CHECK_INT(n, r->count);
		for (long i = 0; i < r->bytes; i++)
			if (rbuf[i] != want[i]) {
				fprintf(stderr, "%s: byte %ld of %ld\n", what, i, r->bytes);
				CHECK_INT(rbuf[i], want[i]);
			}
		free(packed);
		free(want);
	}
	free(sbuf);
	free(rbuf);
}

int main(int argc, char **argv)
{
	MPI_Datatype t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}

	/* Columns of 3 doubles (24-byte runs: 64 KiB chunks end mid-run), 100 doubles apart;
	 * the same signature as 5-double runs, and dense. */
	CHECK_MPI(MPI_Type_vector(6000, 3, 100, MPI_DOUBLE, &t));
	struct lay col3 = lay_of(t, 1);
	CHECK_MPI(MPI_Type_vector(3600, 5, 7, MPI_DOUBLE, &t));
	struct lay col5 = lay_of(t, 1);
	struct lay dense = lay_of(MPI_DOUBLE, 18000);
	transfer(&col3, &col3, 1, "column to column");
	transfer(&col3, &dense, 2, "column to dense");
	transfer(&dense, &col3, 3, "dense to column");
	transfer(&col3, &col5, 11, "column to wider column");
	/* 48000 bytes: shared in 16 KiB chunks, which end mid-run too. */
	CHECK_MPI(MPI_Type_vector(2000, 3, 100, MPI_DOUBLE, &t));
	struct lay mid3 = lay_of(t, 1);
	struct lay middense = lay_of(MPI_DOUBLE, 6000);
	transfer(&mid3, &mid3, 12, "mid-size column to column");
	transfer(&mid3, &middense, 13, "mid-size column to dense");
	CHECK_MPI(MPI_Type_free(&mid3.type));

	/* Small ones, shared in chunks of a quarter: 2400 bytes in 640-byte chunks that end
	 * mid-run; a 4 KiB column of single doubles a page apart. */
	CHECK_MPI(MPI_Type_vector(100, 3, 7, MPI_DOUBLE, &t));
	struct lay small3 = lay_of(t, 1);
	struct lay smalldense = lay_of(MPI_DOUBLE, 300);
	transfer(&small3, &small3, 14, "small column to column");
	transfer(&smalldense, &small3, 15, "small dense to column");
	CHECK_MPI(MPI_Type_vector(512, 1, 1024, MPI_DOUBLE, &t));
	struct lay single = lay_of(t, 1);
	struct lay singledense = lay_of(MPI_DOUBLE, 512);
	transfer(&single, &single, 16, "single column to column");
	transfer(&single, &singledense, 17, "single column to dense");
	CHECK_MPI(MPI_Type_free(&small3.type));
	CHECK_MPI(MPI_Type_free(&single.type));

	/* Irregular blocks of ints, resized so elements interleave with gaps. */
	int bl[4] = { 1, 3, 2, 7 }, dp[4] = { 0, 5, 11, 20 };
	MPI_Datatype idx;
	CHECK_MPI(MPI_Type_indexed(4, bl, dp, MPI_INT, &idx));
	CHECK_MPI(MPI_Type_create_resized(idx, 0, 30 * 4, &t));
	CHECK_MPI(MPI_Type_free(&idx));
	/* 30 elements of 52 bytes: 1560 bytes in 512-byte chunks (a quarter, 448, is under
	 * the 512-byte least), which end mid-element. */
	struct lay irr30 = lay_of(t, 30);
	struct lay ints30 = lay_of(MPI_INT, 30 * 13);
	transfer(&irr30, &irr30, 18, "small indexed to indexed");
	transfer(&ints30, &irr30, 19, "small dense to indexed");
	struct lay irr = lay_of(t, 6007);        /* 13 ints each: 312364 bytes */
	struct lay ints = lay_of(MPI_INT, 6007 * 13);
	CHECK_MPI(MPI_Type_vector(6007, 13, 16, MPI_INT, &t));
	struct lay ivec = lay_of(t, 1);
	transfer(&irr, &irr, 4, "indexed to indexed");
	transfer(&irr, &ivec, 5, "indexed to vector");
	transfer(&ivec, &irr, 6, "vector to indexed");
	transfer(&ints, &irr, 7, "dense to indexed");

	/* Two struct layouts of one signature { int, 3 double, float }. */
	struct a { int id; double pos[3]; float q; };
	int sbl[3] = { 1, 3, 1 };
	MPI_Aint adp[3] = { offsetof(struct a, id), offsetof(struct a, pos),
			    offsetof(struct a, q) }, bdp[3] = { 0, 4, 28 };
	MPI_Datatype sty[3] = { MPI_INT, MPI_DOUBLE, MPI_FLOAT }, s;
	CHECK_MPI(MPI_Type_create_struct(3, sbl, adp, sty, &s));
	CHECK_MPI(MPI_Type_create_resized(s, 0, sizeof(struct a), &t));
	CHECK_MPI(MPI_Type_free(&s));
	struct lay sa = lay_of(t, 9001);         /* 32 bytes of data each */
	CHECK_MPI(MPI_Type_create_struct(3, sbl, bdp, sty, &s));
	CHECK_MPI(MPI_Type_create_resized(s, 0, 36, &t));
	CHECK_MPI(MPI_Type_free(&s));
	struct lay sb = lay_of(t, 9001);
	transfer(&sa, &sb, 8, "struct to struct");
	transfer(&sb, &sa, 9, "struct to struct, back");

	/* A 3-d subarray into a 2-d one of the same size. */
	int g3[3] = { 40, 50, 60 }, s3[3] = { 30, 45, 40 }, o3[3] = { 3, 4, 15 };
	CHECK_MPI(MPI_Type_create_subarray(3, g3, s3, o3, MPI_ORDER_C, MPI_FLOAT, &t));
	struct lay sub3 = lay_of(t, 1);
	int g2[2] = { 1400, 45 }, s2[2] = { 1350, 40 }, o2[2] = { 7, 2 };
	CHECK_MPI(MPI_Type_create_subarray(2, g2, s2, o2, MPI_ORDER_FORTRAN, MPI_FLOAT, &t));
	struct lay sub2 = lay_of(t, 1);
	transfer(&sub3, &sub2, 10, "subarray to subarray");

	struct lay *all[] = { &col3, &col5, &irr, &ivec, &sa, &sb, &sub3, &sub2 };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		CHECK_MPI(MPI_Type_free(&all[i]->type));
	MPI_Finalize();
	return 0;
}
