/* file_seek_position_and_byte_offset_follow_the_view: MPI_File_seek with MPI_SEEK_SET,
 * MPI_SEEK_CUR and MPI_SEEK_END moves the individual pointer in etypes of the view (END: the
 * end of the file seen through the view, an etype cut by it counted), a position before
 * the start is MPI_ERR_ARG and leaves the pointer, reads and writes continue from it, and
 * MPI_File_get_byte_offset gives the file byte of an etype (a hole's end: the next data). */
/* ranks: 1 3 */
#include "file_bytes.h"

int main(int argc, char **argv)
{
	char path[512];
	int rank, size, v[8], rc;
	MPI_File fh;
	MPI_Offset p, b;
	MPI_Datatype two, ftype;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "seek", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	/* 100 bytes 0..99 written by rank 0 through the default view. */
	if (rank == 0) {
		unsigned char bytes[100];
		for (int i = 0; i < 100; i++)
			bytes[i] = (unsigned char)i;
		CHECK_MPI(MPI_File_write(fh, bytes, 100, MPI_BYTE, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_File_get_position(fh, &p));
		CHECK_INT(p, 100);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* Default view: etypes are bytes. */
	CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 100);
	CHECK_MPI(MPI_File_seek(fh, -10, MPI_SEEK_END));
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 90);
	CHECK_MPI(MPI_File_seek(fh, -30, MPI_SEEK_CUR));
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 60);
	unsigned char c;
	CHECK_MPI(MPI_File_read(fh, &c, 1, MPI_BYTE, MPI_STATUS_IGNORE));
	CHECK_INT(c, 60);
	rc = MPI_File_seek(fh, -62, MPI_SEEK_CUR);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 61);
	rc = MPI_File_seek(fh, -1, MPI_SEEK_SET);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	rc = MPI_File_seek(fh, 0, 12345);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	CHECK_MPI(MPI_File_seek(fh, 1000, MPI_SEEK_SET));   /* past the end is fine */
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 1000);

	/* A view of ints: 2 of every 4 ints (8 data bytes of 16), from byte 4: tile t's data
	 * is bytes 4 + 16 t .. 12 + 16 t. The file's 100 bytes hold tiles 0..5 whole (12
	 * ints) and none of tile 6, which starts at byte 100. */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
	CHECK_MPI(MPI_Type_create_resized(two, 0, 16, &ftype));
	CHECK_MPI(MPI_Type_commit(&ftype));
	CHECK_MPI(MPI_File_set_view(fh, 4, MPI_INT, ftype, "native", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 0);
	CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 12);
	/* Byte offsets: int 0 at 4, int 1 at 8, int 2 at 20, int 12 at 100. */
	CHECK_MPI(MPI_File_get_byte_offset(fh, 0, &b));
	CHECK_INT(b, 4);
	CHECK_MPI(MPI_File_get_byte_offset(fh, 1, &b));
	CHECK_INT(b, 8);
	CHECK_MPI(MPI_File_get_byte_offset(fh, 2, &b));
	CHECK_INT(b, 20);
	CHECK_MPI(MPI_File_get_byte_offset(fh, 12, &b));
	CHECK_INT(b, 100);
	rc = MPI_File_get_byte_offset(fh, -1, &b);
	CHECK_CLASS(rc, MPI_ERR_ARG);
	/* Reads from the pointer, which moves by the etypes read. */
	CHECK_MPI(MPI_File_seek(fh, 3, MPI_SEEK_SET));
	CHECK_MPI(MPI_File_read(fh, v, 3, MPI_INT, MPI_STATUS_IGNORE));
	unsigned char want[12];
	const int at[3] = { 24, 36, 40 };   /* ints 3, 4, 5 of the stream */
	for (int k = 0; k < 3; k++)
		for (int j = 0; j < 4; j++)
			want[4 * k + j] = (unsigned char)(at[k] + j);
	CHECK(memcmp(v, want, 12) == 0);
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 6);
	CHECK_MPI(MPI_File_seek(fh, -2, MPI_SEEK_CUR));
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 4);
	/* An etype cut by the end of the file counts: 2 more bytes (written with pwrite)
	 * end the file inside int 12. */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		int fd = open(path, O_WRONLY);
		CHECK(fd >= 0);
		CHECK_INT(pwrite(fd, "ab", 2, 100), 2);
		close(fd);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 13);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&two);
	MPI_Type_free(&ftype);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
