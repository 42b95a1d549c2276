/* file_coll_subarray_blocks_match_file: a global 2D array of ints in 2D blocks (subarray views,
 * MPI_Dims_create's grid, uneven blocks), written with MPI_File_write_all and read back with
 * read_all; then each rank's block at an explicit offset past a header with write_at_all and
 * read_at_all: the file matches byte for byte what the views say (plain pread), the statuses
 * count every element, the individual pointer moves by the block, and cb_nodes 1, 2 and the
 * default all give the same file. */
/* ranks: 1 4 16 64 */
#include "file_coll.h"

#define ROWS 203
#define COLS 157

int main(int argc, char **argv)
{
	int rank, size, dims[2] = { 0, 0 }, periods[2] = { 0, 0 }, coords[2];
	int gsizes[2] = { ROWS, COLS }, lsizes[2], starts[2];
	char path[512];
	MPI_Comm cart;
	MPI_Datatype ft;
	MPI_File fh;
	MPI_Status st;
	MPI_Offset header = 100;
	const char *cbn[] = { NULL, "1", "2" };

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Dims_create(size, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	MPI_Cart_coords(cart, rank, 2, coords);
	for (int d = 0; d < 2; d++) {
		int base = gsizes[d] / dims[d], extra = gsizes[d] % dims[d];
		lsizes[d] = base + (coords[d] < extra);
		starts[d] = coords[d] * base + (coords[d] < extra ? coords[d] : extra);
	}
	MPI_Type_create_subarray(2, gsizes, lsizes, starts, MPI_ORDER_C, MPI_INT, &ft);
	MPI_Type_commit(&ft);
	int n = lsizes[0] * lsizes[1];
	int *mine = malloc((size_t)(n ? n : 1) * sizeof(int)), *back = malloc((size_t)(n ? n : 1) * sizeof(int));
	CHECK(mine != NULL && back != NULL);
	for (int i = 0; i < lsizes[0]; i++)
		for (int j = 0; j < lsizes[1]; j++)
			mine[i * lsizes[1] + j] = (starts[0] + i) * COLS + (starts[1] + j);

	/* The image: every int holds its global index; a header of 100 bytes 0xEE before it
	 * for the explicit-offset round. */
	size_t isize = (size_t)ROWS * COLS * sizeof(int);
	unsigned char *image = malloc(isize);
	CHECK(image != NULL);
	for (int k = 0; k < ROWS * COLS; k++)
		memcpy(image + (size_t)k * sizeof(int), &k, sizeof(int));

	for (int round = 0; round < 3; round++) {
		MPI_Info info = MPI_INFO_NULL;
		MPI_Offset fp;
		int got;
		coll_path(MPI_COMM_WORLD, "file_coll_subarray", path, sizeof path);
		if (cbn[round] != NULL) {
			MPI_Info_create(&info);
			MPI_Info_set(info, "cb_nodes", cbn[round]);
		}
		CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info,
					&fh));
		CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, ft, "native", MPI_INFO_NULL));
		CHECK_MPI(MPI_File_write_all(fh, mine, n, MPI_INT, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_INT, &got));
		CHECK_INT(got, n);
		CHECK_MPI(MPI_File_get_position(fh, &fp));
		CHECK_INT(fp, n);
		CHECK_MPI(MPI_File_sync(fh));
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			coll_check_file(path, image, isize);
		CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
		memset(back, 0, (size_t)n * sizeof(int));
		CHECK_MPI(MPI_File_read_all(fh, back, n, MPI_INT, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_INT, &got));
		CHECK_INT(got, n);
		for (int k = 0; k < n; k++)
			CHECK_INT(back[k], mine[k]);
		CHECK_MPI(MPI_File_close(&fh));
		if (rank == 0)
			unlink(path);
		if (info != MPI_INFO_NULL)
			MPI_Info_free(&info);
		MPI_Barrier(MPI_COMM_WORLD);
	}

	/* Explicit offsets (in etypes of the view) past a header the writes leave alone. */
	coll_path(MPI_COMM_WORLD, "file_coll_subarray_at", path, sizeof path);
	if (rank == 0) {
		int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
		unsigned char h[100];
		CHECK(fd >= 0);
		memset(h, 0xEE, sizeof h);
		CHECK(write(fd, h, sizeof h) == (ssize_t)sizeof h);
		close(fd);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_File_set_view(fh, header, MPI_INT, ft, "native", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_write_at_all(fh, 0, mine, n, MPI_INT, &st));
	CHECK_MPI(MPI_File_sync(fh));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		unsigned char *full = malloc(isize + (size_t)header);
		CHECK(full != NULL);
		memset(full, 0xEE, (size_t)header);
		memcpy(full + header, image, isize);
		coll_check_file(path, full, isize + (size_t)header);
		free(full);
	}
	memset(back, 0, (size_t)n * sizeof(int));
	CHECK_MPI(MPI_File_read_at_all(fh, 0, back, n, MPI_INT, &st));
	for (int k = 0; k < n; k++)
		CHECK_INT(back[k], mine[k]);
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		unlink(path);
	MPI_Type_free(&ft);
	free(mine);
	free(back);
	free(image);
	MPI_Comm_free(&cart);
	if (rank == 0)
		printf("ok\n");
	MPI_Finalize();
	return 0;
}
