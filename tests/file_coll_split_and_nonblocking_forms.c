/* file_coll_split_and_nonblocking_forms: split collectives (write_at_all_begin/_end,
 * read_all_begin/_end) and nonblocking collectives (iwrite_at_all, iread_at_all, iread_all)
 * move the same bytes as the blocking forms (checked with pread); a second _begin while one
 * is active is MPI_ERR_OTHER, an _end with another buffer MPI_ERR_BUFFER, an _end without
 * its _begin MPI_ERR_OTHER, all through the file's handler (MPI_ERRORS_RETURN); a rank that
 * posts iwrite_at_all and then sends to a rank that receives before posting its own does not
 * deadlock; three outstanding nonblocking collectives complete in call order; a blocking
 * collective after them sees their data. */
/* ranks: 1 2 4 16 64 */
#include "file_coll.h"

#define BLK 4096

int main(int argc, char **argv)
{
	int rank, size, got, token = 0;
	char path[512];
	MPI_File fh;
	MPI_Status st;
	MPI_Request reqs[3];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	unsigned char *a = malloc(BLK), *b = malloc(BLK), *c = malloc(3 * BLK);
	CHECK(a != NULL && b != NULL && c != NULL);
	for (int i = 0; i < BLK; i++) {
		a[i] = (unsigned char)(rank * 7 + i);
		b[i] = (unsigned char)(rank * 13 + i * 3 + 1);
	}
	coll_path(MPI_COMM_WORLD, "file_coll_split", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
				&fh));

	/* Split: block a of each rank at rank * BLK. */
	CHECK_MPI(MPI_File_write_at_all_begin(fh, (MPI_Offset)rank * BLK, a, BLK, MPI_BYTE));
	CHECK_CLASS(MPI_File_write_at_all_begin(fh, 0, a, BLK, MPI_BYTE), MPI_ERR_OTHER);
	CHECK_CLASS(MPI_File_read_all_end(fh, a, &st), MPI_ERR_OTHER);
	CHECK_CLASS(MPI_File_write_at_all_end(fh, b, &st), MPI_ERR_BUFFER);
	CHECK_MPI(MPI_File_write_at_all_end(fh, a, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
	CHECK_INT(got, BLK);
	CHECK_CLASS(MPI_File_write_at_all_end(fh, a, &st), MPI_ERR_OTHER);

	/* Nonblocking overlapping point-to-point: block b of each rank after all blocks a. */
	MPI_Offset at = (MPI_Offset)(size + rank) * BLK;
	if (rank % 2 == 0) {
		CHECK_MPI(MPI_File_iwrite_at_all(fh, at, b, BLK, MPI_BYTE, &reqs[0]));
		if (rank + 1 < size)
			CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, rank + 1, 5, MPI_COMM_WORLD));
	} else {
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, rank - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(token, rank - 1);
		CHECK_MPI(MPI_File_iwrite_at_all(fh, at, b, BLK, MPI_BYTE, &reqs[0]));
	}
	CHECK_MPI(MPI_Wait(&reqs[0], &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
	CHECK_INT(got, BLK);
	CHECK_MPI(MPI_File_sync(fh));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		size_t isize = (size_t)2 * size * BLK;
		unsigned char *image = malloc(isize);
		CHECK(image != NULL);
		for (int r = 0; r < size; r++)
			for (int i = 0; i < BLK; i++) {
				image[(size_t)r * BLK + i] = (unsigned char)(r * 7 + i);
				image[(size_t)(size + r) * BLK + i] = (unsigned char)(r * 13 + i * 3 + 1);
			}
		coll_check_file(path, image, isize);
		free(image);
	}

	/* Three outstanding reads: the neighbour's a, my b, and (through the individual
	 * pointer, moved at the call) my own a. */
	int nb = (rank + 1) % size;
	memset(c, 0, 3 * BLK);
	CHECK_MPI(MPI_File_iread_at_all(fh, (MPI_Offset)nb * BLK, c, BLK, MPI_BYTE, &reqs[0]));
	CHECK_MPI(MPI_File_iread_at_all(fh, at, c + BLK, BLK, MPI_BYTE, &reqs[1]));
	CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)rank * BLK, MPI_SEEK_SET));
	CHECK_MPI(MPI_File_iread_all(fh, c + 2 * BLK, BLK, MPI_BYTE, &reqs[2]));
	MPI_Offset fp;
	CHECK_MPI(MPI_File_get_position(fh, &fp));
	CHECK_INT(fp, (MPI_Offset)(rank + 1) * BLK);
	CHECK_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
	for (int i = 0; i < BLK; i++) {
		CHECK_INT(c[i], (unsigned char)(nb * 7 + i));
		CHECK_INT(c[BLK + i], b[i]);
		CHECK_INT(c[2 * BLK + i], a[i]);
	}

	/* Split read behind the thread: the neighbour's b. */
	memset(c, 0, BLK);
	CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)(size + nb) * BLK, MPI_SEEK_SET));
	CHECK_MPI(MPI_File_read_all_begin(fh, c, BLK, MPI_BYTE));
	CHECK_MPI(MPI_File_read_all_end(fh, c, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
	CHECK_INT(got, BLK);
	for (int i = 0; i < BLK; i++)
		CHECK_INT(c[i], (unsigned char)(nb * 13 + i * 3 + 1));
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		unlink(path);
	free(a);
	free(b);
	free(c);
	if (rank == 0)
		printf("ok\n");
	MPI_Finalize();
	return 0;
}
