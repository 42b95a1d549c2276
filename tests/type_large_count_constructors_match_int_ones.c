/* type_large_count_constructors_match_int_ones: each MPI 4.1 _c constructor builds the type
 * its int twin builds (size, bounds, bytes packed and unpacked, data sent between ranks,
 * eager and large); counts beyond INT_MAX give exact MPI_Count sizes, overflow MPI_ERR_ARG. */
/* ranks: 1 2 4 */
#include <limits.h>
#include <stdint.h>
#include "check.h"

static int rank, size, partner;

/* A buffer for `count` elements of `t`, with room below the address for negative bounds. */
struct buf {
	unsigned char *mem, *at;
	long bytes;
};

static struct buf buf_for(MPI_Datatype t, long count)
{
	MPI_Count lb, extent, tlb, text;
	struct buf b;

	CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
	CHECK_MPI(MPI_Type_get_true_extent_c(t, &tlb, &text));
	long below = tlb < 0 ? (long)-tlb : 0;
	long above = (long)((count - 1) * extent + tlb + text);
	b.bytes = below + (above > 0 ? above : 0) + 1;
	b.mem = calloc((size_t)b.bytes, 1);
	CHECK(b.mem != NULL);
	b.at = b.mem + below;
	return b;
}

static void fill(struct buf *b, int seed)
{
	for (long i = 0; i < b->bytes; i++)
		b->mem[i] = (unsigned char)(1 + (i * 7 + seed * 31) % 253);
}

/* `big` (from a _c constructor) must be `small` (its int twin) for `count` elements. */
static void same_for(MPI_Datatype big, MPI_Datatype small, long count, const char *what)
{
	MPI_Count sb, lb1, ext1, lb2, ext2, packsize;
	MPI_Aint lb, ext;
	int ss, psize;

	CHECK_MPI(MPI_Type_size_c(big, &sb));
	CHECK_MPI(MPI_Type_size(small, &ss));
	if (sb != ss)
		fprintf(stderr, "%s: size\n", what);
	CHECK_INT(sb, ss);
	CHECK_MPI(MPI_Type_get_extent_c(big, &lb1, &ext1));
	CHECK_MPI(MPI_Type_get_extent(small, &lb, &ext));
	if (lb1 != lb || ext1 != ext)
		fprintf(stderr, "%s: extent\n", what);
	CHECK_INT(lb1, lb);
	CHECK_INT(ext1, ext);
	CHECK_MPI(MPI_Type_get_true_extent_c(big, &lb1, &ext1));
	CHECK_MPI(MPI_Type_get_true_extent(small, &lb, &ext));
	CHECK_INT(lb1, lb);
	CHECK_INT(ext1, ext);
	CHECK_MPI(MPI_Pack_size_c(count, big, MPI_COMM_WORLD, &packsize));
	CHECK_MPI(MPI_Pack_size((int)count, small, MPI_COMM_WORLD, &psize));
	CHECK_INT(packsize, psize);

	/* Pack: the same bytes in the same order. */
	struct buf src = buf_for(small, count);
	fill(&src, rank);
	unsigned char *p1 = malloc((size_t)psize + 1), *p2 = malloc((size_t)psize + 1);
	CHECK(p1 != NULL && p2 != NULL);
	MPI_Count pos1 = 0;
	int pos2 = 0;
	CHECK_MPI(MPI_Pack_c(src.at, count, big, p1, packsize, &pos1, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack(src.at, (int)count, small, p2, psize, &pos2, MPI_COMM_WORLD));
	CHECK_INT(pos1, pos2);
	if (memcmp(p1, p2, (size_t)psize) != 0)
		fprintf(stderr, "%s: packed bytes differ\n", what);
	CHECK(memcmp(p1, p2, (size_t)psize) == 0);

	/* Unpack: the same bytes land in the same places, nothing else is touched. */
	struct buf d1 = buf_for(small, count), d2 = buf_for(small, count);
	pos1 = 0;
	pos2 = 0;
	CHECK_MPI(MPI_Unpack_c(p2, packsize, &pos1, d1.at, count, big, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Unpack(p2, psize, &pos2, d2.at, (int)count, small, MPI_COMM_WORLD));
	CHECK(memcmp(d1.mem, d2.mem, (size_t)d1.bytes) == 0);

	/* Between ranks: sent with the _c type, received with the int type, and back. */
	struct buf want = buf_for(small, count), peer = buf_for(small, count);
	fill(&peer, partner);
	pos2 = 0;
	CHECK_MPI(MPI_Pack(peer.at, (int)count, small, p2, psize, &pos2, MPI_COMM_WORLD));
	pos2 = 0;
	CHECK_MPI(MPI_Unpack(p2, psize, &pos2, want.at, (int)count, small, MPI_COMM_WORLD));
	memset(d1.mem, 0, (size_t)d1.bytes);
	MPI_Status st;
	MPI_Count n;
	CHECK_MPI(MPI_Sendrecv(src.at, (int)count, big, partner, 1, d1.at, (int)count, small,
			       partner, 1, MPI_COMM_WORLD, &st));
	CHECK_MPI(MPI_Get_count_c(&st, big, &n));
	CHECK_INT(n, count);
	if (memcmp(d1.mem, want.mem, (size_t)d1.bytes) != 0)
		fprintf(stderr, "%s: received data differ (count %ld)\n", what, count);
	CHECK(memcmp(d1.mem, want.mem, (size_t)d1.bytes) == 0);
	memset(d1.mem, 0, (size_t)d1.bytes);
	CHECK_MPI(MPI_Sendrecv(src.at, (int)count, small, partner, 2, d1.at, (int)count, big,
			       partner, 2, MPI_COMM_WORLD, &st));
	CHECK(memcmp(d1.mem, want.mem, (size_t)d1.bytes) == 0);

	free(p1);
	free(p2);
	free(src.mem);
	free(d1.mem);
	free(d2.mem);
	free(want.mem);
	free(peer.mem);
}

/* Commit both, compare for a few counts (one message above 128 KiB), free both. */
static void same(MPI_Datatype big, MPI_Datatype small, const char *what)
{
	int s;

	CHECK_MPI(MPI_Type_commit(&big));
	CHECK_MPI(MPI_Type_commit(&small));
	CHECK_MPI(MPI_Type_size(small, &s));
	same_for(big, small, 1, what);
	same_for(big, small, 3, what);
	if (s > 0)
		same_for(big, small, 200 * 1024 / s + 1, what);
	CHECK_MPI(MPI_Type_free(&big));
	CHECK_MPI(MPI_Type_free(&small));
}

int main(int argc, char **argv)
{
	MPI_Datatype a, b, c;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = (rank ^ 1) < size ? rank ^ 1 : rank;

	CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &a));
	CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &b));
	same(a, b, "contiguous");

	CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_DOUBLE, &a));
	CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &b));
	same(a, b, "vector");

	CHECK_MPI(MPI_Type_vector_c(4, 1, -3, MPI_INT, &a));
	CHECK_MPI(MPI_Type_vector(4, 1, -3, MPI_INT, &b));
	same(a, b, "vector, negative stride");

	CHECK_MPI(MPI_Type_create_hvector_c(3, 2, 40, MPI_INT, &a));
	CHECK_MPI(MPI_Type_create_hvector(3, 2, 40, MPI_INT, &b));
	same(a, b, "hvector");

	{
		MPI_Count cbl[3] = { 2, 1, 3 }, cdp[3] = { 0, 4, 9 };
		int ibl[3] = { 2, 1, 3 }, idp[3] = { 0, 4, 9 };
		CHECK_MPI(MPI_Type_indexed_c(3, cbl, cdp, MPI_DOUBLE, &a));
		CHECK_MPI(MPI_Type_indexed(3, ibl, idp, MPI_DOUBLE, &b));
		same(a, b, "indexed");
	}
	{
		MPI_Count cbl[3] = { 2, 1, 3 }, cdp[3] = { 0, 40, 100 };
		int ibl[3] = { 2, 1, 3 };
		MPI_Aint adp[3] = { 0, 40, 100 };
		CHECK_MPI(MPI_Type_create_hindexed_c(3, cbl, cdp, MPI_INT, &a));
		CHECK_MPI(MPI_Type_create_hindexed(3, ibl, adp, MPI_INT, &b));
		same(a, b, "hindexed");
	}
	{
		MPI_Count cdp[3] = { 1, 5, 9 };
		int idp[3] = { 1, 5, 9 };
		CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, cdp, MPI_INT, &a));
		CHECK_MPI(MPI_Type_create_indexed_block(3, 2, idp, MPI_INT, &b));
		same(a, b, "indexed_block");
	}
	{
		MPI_Count cdp[3] = { 0, 24, 64 };
		MPI_Aint adp[3] = { 0, 24, 64 };
		CHECK_MPI(MPI_Type_create_hindexed_block_c(3, 2, cdp, MPI_DOUBLE, &a));
		CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, adp, MPI_DOUBLE, &b));
		same(a, b, "hindexed_block");
	}
	{
		MPI_Count cbl[3] = { 1, 2, 1 }, cdp[3] = { 0, 8, 24 };
		int ibl[3] = { 1, 2, 1 };
		MPI_Aint adp[3] = { 0, 8, 24 };
		MPI_Datatype ty[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR };
		CHECK_MPI(MPI_Type_create_struct_c(3, cbl, cdp, ty, &a));
		CHECK_MPI(MPI_Type_create_struct(3, ibl, adp, ty, &b));
		same(a, b, "struct");
	}
	for (int order = MPI_ORDER_C; order <= MPI_ORDER_FORTRAN; order++) {
		MPI_Count cs[3] = { 8, 6, 5 }, csub[3] = { 3, 2, 4 }, cst[3] = { 2, 1, 1 };
		int is[3] = { 8, 6, 5 }, isub[3] = { 3, 2, 4 }, ist[3] = { 2, 1, 1 };
		CHECK_MPI(MPI_Type_create_subarray_c(3, cs, csub, cst, order, MPI_DOUBLE, &a));
		CHECK_MPI(MPI_Type_create_subarray(3, is, isub, ist, order, MPI_DOUBLE, &b));
		same(a, b, "subarray");
	}
	for (int r = 0; r < 4; r++) {
		MPI_Count cg[2] = { 8, 7 };
		int ig[2] = { 8, 7 }, dist[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC };
		int darg[2] = { MPI_DISTRIBUTE_DFLT_DARG, 2 }, ps[2] = { 2, 2 };
		CHECK_MPI(MPI_Type_create_darray_c(4, r, 2, cg, dist, darg, ps, MPI_ORDER_C,
						   MPI_INT, &a));
		CHECK_MPI(MPI_Type_create_darray(4, r, 2, ig, dist, darg, ps, MPI_ORDER_C, MPI_INT,
						 &b));
		same(a, b, "darray");
	}
	/* On a derived old type: a resized vector. */
	CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &c));
	CHECK_MPI(MPI_Type_create_resized_c(c, -8, 64, &a));
	CHECK_MPI(MPI_Type_create_resized(c, -8, 64, &b));
	same(a, b, "resized");
	CHECK_MPI(MPI_Type_vector_c(2, 3, 5, c, &a));
	CHECK_MPI(MPI_Type_vector(2, 3, 5, c, &b));
	same(a, b, "vector of vectors");
	CHECK_MPI(MPI_Type_free(&c));

	/* Counts beyond int: exact in MPI_Count, MPI_UNDEFINED in int (no buffer needed). */
	MPI_Count big = (MPI_Count)INT_MAX + 10, n, lb, ext;
	int in;
	MPI_Aint alb, aext;
	CHECK_MPI(MPI_Type_contiguous_c(big, MPI_SHORT, &a));
	CHECK_MPI(MPI_Type_commit(&a));
	CHECK_MPI(MPI_Type_size_c(a, &n));
	CHECK_INT(n, 2 * big);
	CHECK_MPI(MPI_Type_size(a, &in));
	CHECK_INT(in, MPI_UNDEFINED);
	CHECK_MPI(MPI_Type_get_extent_c(a, &lb, &ext));
	CHECK_INT(lb, 0);
	CHECK_INT(ext, 2 * big);
	CHECK_MPI(MPI_Type_get_extent(a, &alb, &aext));
	CHECK_INT(aext, 2 * big);
	CHECK_MPI(MPI_Pack_size_c(3, a, MPI_COMM_WORLD, &n));
	CHECK_INT(n, 6 * big);
	CHECK_MPI(MPI_Type_free(&a));
	/* A column of 2^31 + 1 ints, rows 3 ints apart: built in constant time. */
	MPI_Count rows = (MPI_Count)1 << 31;
	CHECK_MPI(MPI_Type_vector_c(rows + 1, 1, 3, MPI_INT, &a));
	CHECK_MPI(MPI_Type_commit(&a));
	CHECK_MPI(MPI_Type_size_c(a, &n));
	CHECK_INT(n, 4 * (rows + 1));
	CHECK_MPI(MPI_Type_get_extent_c(a, &lb, &ext));
	CHECK_INT(ext, 4 * (rows * 3 + 1));
	CHECK_MPI(MPI_Type_get_true_extent_c(a, &lb, &ext));
	CHECK_INT(ext, 4 * (rows * 3 + 1));
	CHECK_MPI(MPI_Type_free(&a));
	/* An extent beyond the address space is refused, not wrapped. */
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK_CLASS(MPI_Type_vector_c(rows + 1, 1, rows, MPI_DOUBLE, &a), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Type_contiguous_c((MPI_Count)1 << 62, MPI_DOUBLE, &a), MPI_ERR_ARG);

	MPI_Finalize();
	return 0;
}
