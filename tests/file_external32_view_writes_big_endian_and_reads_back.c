/* file_external32_view_writes_big_endian_and_reads_back: through a view in "external32" the
 * file holds big-endian values of external32's sizes (pread: ints, shorts, doubles, MPI_LONG
 * in 4 bytes, a struct of an int and a double packed without its padding), also with a
 * filetype with holes (its layout in the file scales element strides); MPI_File_get_type_
 * extent gives external32 extents; reads through the view bring the native values back,
 * with counts in memory elements; a value that does not fit is MPI_ERR_CONVERSION. */
/* ranks: 1 2 */
#include <stdint.h>

#include "file_bytes.h"

static void be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void be64(unsigned char *p, uint64_t v)
{
	be32(p, (uint32_t)(v >> 32));
	be32(p + 4, (uint32_t)v);
}

struct pair {
	int i;
	double d;
};

int main(int argc, char **argv)
{
	char path[512];
	int rank, size, n, ints[3] = { 1, 0x01020304, -2 }, back[3];
	short sh[2] = { 0x0a0b, -1 };
	double dd[2] = { 1.5, -2.25 };
	long lg = 123456789L, big = 1L << 40;
	MPI_File fh;
	MPI_Status st;
	MPI_Aint ext;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "external32", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	/* Each rank its own 64-byte record: etype MPI_BYTE, a view from rank * 64. */
	CHECK_MPI(MPI_File_set_view(fh, rank * 64, MPI_BYTE, MPI_BYTE, "external32",
				    MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_type_extent(fh, MPI_LONG, &ext));
	CHECK_INT(ext, 4);
	CHECK_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
	CHECK_INT(ext, 8);
	MPI_Datatype ptype;
	int bl[2] = { 1, 1 };
	MPI_Aint ds[2] = { offsetof(struct pair, i), offsetof(struct pair, d) };
	MPI_Datatype ts[2] = { MPI_INT, MPI_DOUBLE };
	CHECK_MPI(MPI_Type_create_struct(2, bl, ds, ts, &ptype));
	CHECK_MPI(MPI_Type_commit(&ptype));
	struct pair pr[2] = { { 7 + rank, 0.5 }, { -7, 1e10 } }, prb[2];

	CHECK_MPI(MPI_File_write_at(fh, 0, ints, 3, MPI_INT, &st));       /* bytes 0..11 */
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
	CHECK_INT(n, 3);
	CHECK_MPI(MPI_File_write_at(fh, 12, sh, 2, MPI_SHORT, &st));      /* 12..15 */
	CHECK_MPI(MPI_File_write_at(fh, 16, dd, 2, MPI_DOUBLE, &st));     /* 16..31 */
	CHECK_MPI(MPI_File_write_at(fh, 32, &lg, 1, MPI_LONG, &st));      /* 32..35 */
	CHECK_MPI(MPI_File_write_at(fh, 36, pr, 2, ptype, &st));          /* 36..59 */
	CHECK_MPI(MPI_Get_count(&st, ptype, &n));
	CHECK_INT(n, 2);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	unsigned char want[60], got[60];
	uint64_t bits;
	be32(want, 1);
	be32(want + 4, 0x01020304);
	be32(want + 8, (uint32_t)-2);
	want[12] = 0x0a, want[13] = 0x0b, want[14] = 0xff, want[15] = 0xff;
	memcpy(&bits, &dd[0], 8);
	be64(want + 16, bits);
	memcpy(&bits, &dd[1], 8);
	be64(want + 24, bits);
	be32(want + 32, 123456789u);
	for (int k = 0; k < 2; k++) {
		be32(want + 36 + 12 * k, (uint32_t)pr[k].i);
		memcpy(&bits, &pr[k].d, 8);
		be64(want + 40 + 12 * k, bits);
	}
	for (int r = 0; r < size; r++) {
		be32(want + 36, (uint32_t)(7 + r));
		CHECK_INT(file_pread(path, got, 60, r * 64), 60);
		for (int i = 0; i < 60; i++)
			if (got[i] != want[i]) {
				fprintf(stderr, "rank %d's byte %d is %02x, not %02x\n", r, i, got[i],
					want[i]);
				CHECK(got[i] == want[i]);
			}
	}

	/* Back to native. */
	CHECK_MPI(MPI_File_read_at(fh, 0, back, 3, MPI_INT, &st));
	CHECK(memcmp(back, ints, sizeof ints) == 0);
	long lb = 0;
	CHECK_MPI(MPI_File_read_at(fh, 32, &lb, 1, MPI_LONG, &st));
	CHECK_INT(lb, lg);
	memset(prb, 0, sizeof prb);
	CHECK_MPI(MPI_File_read_at(fh, 36, prb, 2, ptype, &st));
	CHECK_MPI(MPI_Get_count(&st, ptype, &n));
	CHECK_INT(n, 2);
	CHECK_INT(prb[0].i, 7 + rank);
	CHECK(prb[0].d == 0.5 && prb[1].i == -7 && prb[1].d == 1e10);
	/* A read that runs past the end counts whole elements (the last rank's record ends
	 * the file at byte 60). */
	if (rank == size - 1) {
		double d3[3];
		CHECK_MPI(MPI_File_read_at(fh, 44, d3, 3, MPI_DOUBLE, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
		CHECK_INT(n, 2);
	}
	/* 2^40 has no external32 MPI_LONG. */
	int rc = MPI_File_write_at(fh, 0, &big, 1, MPI_LONG, &st);
	CHECK_CLASS(rc, MPI_ERR_CONVERSION);

	/* A filetype with holes: 1 int of every 2, in external32. */
	MPI_Datatype every2;
	CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &every2));
	CHECK_MPI(MPI_Type_commit(&every2));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_File_set_view(fh, 1024 + rank * 64, MPI_INT, every2, "external32",
				    MPI_INFO_NULL));
	int four[4] = { 10, 11, 12, 13 };
	CHECK_MPI(MPI_File_write_at(fh, 0, four, 4, MPI_INT, &st));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_INT(file_pread(path, got, 28, 1024 + rank * 64), 28);
	for (int k = 0; k < 4; k++) {
		be32(want, (uint32_t)(10 + k));
		CHECK(memcmp(got + 8 * k, want, 4) == 0);
	}
	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&ptype);
	MPI_Type_free(&every2);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
