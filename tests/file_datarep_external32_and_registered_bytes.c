/* ranks: 1 4 */
/* file_datarep_external32_and_registered_bytes: the data representations put in the file
 * the bytes MPI 4.1 (14.5) says: external32 big-endian with its sizes (MPI_LONG 4 bytes,
 * strides of a vector filetype counted in those), "internal" as native, a registered
 * representation through its functions and extent; MPI_File_get_type_extent follows the
 * view's representation; a value that does not fit (external32 MPI_LONG, a failing
 * conversion function) is MPI_ERR_CONVERSION and an unknown name MPI_ERR_UNSUPPORTED_DATAREP.
 * Uses the view and access calls of view.c and access.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <fcntl.h>
#include <unistd.h>
#include "check.h"

/* `name` in $TEST_TMP (or /tmp), as rank 0 of MPI_COMM_WORLD spells it. */
static void file_path(MPI_Comm comm, const char *name, char *path, int len)
{
	const char *dir = getenv("TEST_TMP");
	int rank;

	MPI_Comm_rank(comm, &rank);
	if (rank == 0)
		snprintf(path, (size_t)len, "%s/%s.%d", dir ? dir : "/tmp", name, (int)getpid());
	CHECK_MPI(MPI_Bcast(path, len, MPI_CHAR, 0, comm));
}

/* `len` bytes at `off` of the file, with pread(2), not through MPI: how many there were. */
static long long file_pread(const char *path, void *buf, long long len, long long off)
{
	int fd = open(path, O_RDONLY);
	long long n;

	CHECK(fd >= 0);
	n = pread(fd, buf, (size_t)len, off);
	close(fd);
	return n;
}

static int wrote, read_calls;

/* "short16": an MPI_INT takes 2 bytes in the file, big-endian; values beyond 16 bits fail. */
static int short_extent(MPI_Datatype t, MPI_Aint *extent, void *extra)
{
	CHECK(extra == &wrote);
	if (t != MPI_INT)
		return MPI_ERR_TYPE;
	*extent = 2;
	return MPI_SUCCESS;
}

static int short_write(void *userbuf, MPI_Datatype t, int count, void *filebuf,
		       MPI_Offset position, void *extra)
{
	const int *in = userbuf;
	unsigned char *out = filebuf;

	CHECK(t == MPI_INT);
	for (int i = 0; i < count; i++) {
		if (in[i] < -32768 || in[i] > 32767)
			return MPI_ERR_OTHER;
		out[2 * i] = (unsigned char)((unsigned)in[i] >> 8);
		out[2 * i + 1] = (unsigned char)in[i];
	}
	wrote += count;
	return MPI_SUCCESS;
}

static int short_read(void *userbuf, MPI_Datatype t, int count, void *filebuf,
		      MPI_Offset position, void *extra)
{
	int *out = userbuf;
	const unsigned char *in = filebuf;

	CHECK(t == MPI_INT);
	for (int i = 0; i < count; i++)
		out[i] = (int16_t)(in[2 * i] << 8 | in[2 * i + 1]);
	read_calls++;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int rank, size;
	char path[512];
	MPI_File fh;
	MPI_Aint x;
	unsigned char b[64];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "datarep.dat", path, sizeof(path));
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
				MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));

	/* Unknown names. */
	CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "no-such-rep", MPI_INFO_NULL),
		    MPI_ERR_UNSUPPORTED_DATAREP);

	/* external32: each rank's two MPI_LONGs, 4 big-endian bytes each, at etype 2 * rank. */
	CHECK_MPI(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_type_extent(fh, MPI_LONG, &x));
	CHECK_INT((int)x, 4);
	CHECK_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &x));
	CHECK_INT((int)x, 8);
	CHECK_MPI(MPI_File_get_type_extent(fh, MPI_LONG_DOUBLE, &x));
	CHECK_INT((int)x, 16);
	MPI_Datatype vec;
	MPI_Type_vector(2, 1, 2, MPI_LONG, &vec);
	MPI_Type_commit(&vec);
	CHECK_MPI(MPI_File_get_type_extent(fh, vec, &x));
	CHECK_INT((int)x, 12);
	/* Byte displacements stay; element counts scale (MPI 4.1, 14.5.1). */
	int blens[2] = { 1, 1 }, sizes[1] = { 4 }, subs[1] = { 2 }, starts[1] = { 1 };
	MPI_Aint displs[2] = { 0, 8 };
	MPI_Datatype types[2] = { MPI_LONG, MPI_DOUBLE }, st, sub, res, idx;
	MPI_Type_create_struct(2, blens, displs, types, &st);
	MPI_Type_create_subarray(1, sizes, subs, starts, MPI_ORDER_C, MPI_LONG, &sub);
	MPI_Type_create_resized(MPI_LONG, 0, 20, &res);
	int ib[2] = { 2, 1 }, id[2] = { 0, 5 };
	MPI_Type_indexed(2, ib, id, MPI_LONG, &idx);
	CHECK_MPI(MPI_File_get_type_extent(fh, st, &x));
	CHECK_INT((int)x, 16);
	CHECK_MPI(MPI_File_get_type_extent(fh, sub, &x));
	CHECK_INT((int)x, 16);
	CHECK_MPI(MPI_File_get_type_extent(fh, res, &x));
	CHECK_INT((int)x, 20);
	CHECK_MPI(MPI_File_get_type_extent(fh, idx, &x));
	CHECK_INT((int)x, 24);
	MPI_Type_free(&st);
	MPI_Type_free(&sub);
	MPI_Type_free(&res);
	MPI_Type_free(&idx);
	long v[2] = { 0x01020304L + rank, -2 - rank };
	CHECK_MPI(MPI_File_write_at(fh, 2 * rank, v, 2, MPI_LONG, MPI_STATUS_IGNORE));
	long big = 1L << 40;
	CHECK_CLASS(MPI_File_write_at(fh, 100, &big, 1, MPI_LONG, MPI_STATUS_IGNORE),
		    MPI_ERR_CONVERSION);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int r = 0; r < size; r++) {
		CHECK_INT((int)file_pread(path, b, 8, 8 * r), 8);
		unsigned char want[8] = { 1, 2, 3, (unsigned char)(4 + r), 0xff, 0xff, 0xff,
					  (unsigned char)(0xfe - r) };
		CHECK(memcmp(b, want, 8) == 0);
	}
	long back[2] = { 0, 0 };
	CHECK_MPI(MPI_File_read_at(fh, 2 * rank, back, 2, MPI_LONG, MPI_STATUS_IGNORE));
	CHECK(back[0] == v[0] && back[1] == v[1]);
	MPI_Barrier(MPI_COMM_WORLD);

	/* A vector filetype in external32: strides count 4-byte elements. Rank r's view
	 * starts at byte 1000 + 16 r and holds the file's bytes 0..3 and 8..11 of it. */
	CHECK_MPI(MPI_File_set_view(fh, 1000 + 16 * rank, MPI_LONG, vec, "external32",
				    MPI_INFO_NULL));
	long w[2] = { 0x0a0b0c0d, 0x11223344 };
	CHECK_MPI(MPI_File_write_at(fh, 0, w, 2, MPI_LONG, MPI_STATUS_IGNORE));
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_INT((int)file_pread(path, b, 12, 1000 + 16 * rank), 12);
	CHECK(memcmp(b, "\x0a\x0b\x0c\x0d", 4) == 0 && memcmp(b + 8, "\x11\x22\x33\x44", 4) == 0);
	MPI_Barrier(MPI_COMM_WORLD);

	/* "internal" is native. */
	CHECK_MPI(MPI_File_set_view(fh, 2000, MPI_INT, MPI_INT, "internal", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_type_extent(fh, MPI_LONG, &x));
	CHECK_INT((int)x, (int)sizeof(long));
	int n = 0x01020304 + rank;
	CHECK_MPI(MPI_File_write_at(fh, rank, &n, 1, MPI_INT, MPI_STATUS_IGNORE));
	MPI_Barrier(MPI_COMM_WORLD);
	int got;
	CHECK_INT((int)file_pread(path, &got, 4, 2000 + 4 * rank), 4);
	CHECK_INT(got, n);
	char rep[MPI_MAX_DATAREP_STRING];
	MPI_Offset disp;
	MPI_Datatype et, ft;
	CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
	CHECK_STR(rep, "internal");

	/* A registered representation: 2 bytes an MPI_INT. */
	CHECK_MPI(MPI_Register_datarep("short16", short_read, short_write, short_extent, &wrote));
	CHECK_MPI(MPI_File_set_view(fh, 3000, MPI_INT, MPI_INT, "short16", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_type_extent(fh, MPI_INT, &x));
	CHECK_INT((int)x, 2);
	int s[3] = { 0x1234 + rank, -3, 7 };
	CHECK_MPI(MPI_File_write_at(fh, 3 * rank, s, 3, MPI_INT, MPI_STATUS_IGNORE));
	CHECK_INT(wrote, 3);
	int huge = 1 << 20;
	CHECK_CLASS(MPI_File_write_at(fh, 500, &huge, 1, MPI_INT, MPI_STATUS_IGNORE),
		    MPI_ERR_CONVERSION);
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_INT((int)file_pread(path, b, 6, 3000 + 6 * rank), 6);
	unsigned char want[6] = { 0x12, (unsigned char)(0x34 + rank), 0xff, 0xfd, 0, 7 };
	CHECK(memcmp(b, want, 6) == 0);
	int sb[3] = { 0, 0, 0 };
	CHECK_MPI(MPI_File_read_at(fh, 3 * rank, sb, 3, MPI_INT, MPI_STATUS_IGNORE));
	CHECK(read_calls >= 1);
	CHECK(sb[0] == s[0] && sb[1] == s[1] && sb[2] == s[2]);

	MPI_Type_free(&vec);
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Finalize();
	return 0;
}
