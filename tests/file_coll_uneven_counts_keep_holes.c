/* file_coll_uneven_counts_keep_holes: ranks interleave blocks of a vector view and pass
 * different counts to MPI_File_write_all (every third rank 0, others end mid-filetype), from a
 * non-contiguous memory type (every other int): the file matches the views byte for byte and
 * the bytes nobody wrote keep what the file held (read-modify-write of the holes); read_all
 * into the same memory type returns exactly what each rank wrote and leaves the gaps of its
 * memory alone. Rounds: default hints, cb_buffer_size 4096 with collective buffering on, and
 * romio_cb_write/romio_cb_read disable (independent access). */
/* ranks: 1 4 16 64 */
#include "file_coll.h"

#define B 3        /* ints per block */
#define K 4        /* blocks per filetype */
#define TILES 5    /* filetypes a full rank writes */

static int count_of(int rank)
{
	if (rank % 3 == 1)
		return 0;
	return rank % 3 == 0 ? K * B * TILES : K * B * TILES - 7;
}

static void make_ft(int rank, int size, MPI_Datatype *ft, MPI_Offset *disp)
{
	MPI_Datatype v;

	MPI_Type_vector(K, B, size * B, MPI_INT, &v);
	MPI_Type_create_resized(v, 0, (MPI_Aint)K * size * B * sizeof(int), ft);
	MPI_Type_commit(ft);
	MPI_Type_free(&v);
	*disp = (MPI_Offset)rank * B * sizeof(int);
}

int main(int argc, char **argv)
{
	int rank, size;
	char path[512];
	const char *keys[3][2][2] = {
		{ { NULL, NULL }, { NULL, NULL } },
		{ { "cb_buffer_size", "4096" }, { "romio_cb_write", "enable" } },
		{ { "romio_cb_write", "disable" }, { "romio_cb_read", "disable" } },
	};

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	MPI_Datatype mt, ft;
	MPI_Offset disp;
	MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &mt);
	MPI_Type_commit(&mt);
	make_ft(rank, size, &ft, &disp);
	int n = count_of(rank);
	int *mem = malloc((size_t)(2 * n + 2) * sizeof(int)), *back = malloc((size_t)(2 * n + 2) * sizeof(int));
	CHECK(mem != NULL && back != NULL);
	for (int k = 0; k < n; k++) {
		mem[2 * k] = rank * 1000000 + k;
		mem[2 * k + 1] = -1;
	}
	/* The file's size: TILES filetypes of every rank, and a tail. */
	size_t isize = (size_t)TILES * K * size * B * sizeof(int) + 64;

	for (int round = 0; round < 3; round++) {
		MPI_Info info;
		MPI_File fh;
		MPI_Status st;
		int got;

		coll_path(MPI_COMM_WORLD, "file_coll_uneven", path, sizeof path);
		if (rank == 0) {
			unsigned char *fill = malloc(isize);
			int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
			CHECK(fill != NULL && fd >= 0);
			memset(fill, 0xEE, isize);
			CHECK(write(fd, fill, isize) == (ssize_t)isize);
			close(fd);
			free(fill);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Info_create(&info);
		for (int k = 0; k < 2; k++)
			if (keys[round][k][0] != NULL)
				MPI_Info_set(info, keys[round][k][0], keys[round][k][1]);
		CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, info, &fh));
		MPI_Info_free(&info);
		CHECK_MPI(MPI_File_set_view(fh, disp, MPI_INT, ft, "native", MPI_INFO_NULL));
		CHECK_MPI(MPI_File_write_all(fh, mem, n, mt, &st));
		CHECK_MPI(MPI_Get_count(&st, mt, &got));
		CHECK_INT(got, n);
		CHECK_MPI(MPI_File_sync(fh));
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			unsigned char *image = malloc(isize);
			CHECK(image != NULL);
			memset(image, 0xEE, isize);
			for (int r = 0; r < size; r++) {
				MPI_Datatype rft;
				MPI_Offset rdisp;
				int rn = count_of(r);
				int *data = malloc((size_t)(rn ? rn : 1) * sizeof(int));
				CHECK(data != NULL);
				for (int k = 0; k < rn; k++)
					data[k] = r * 1000000 + k;
				make_ft(r, size, &rft, &rdisp);
				coll_place(image, isize, rdisp, rft, data, rn * (int)sizeof(int));
				MPI_Type_free(&rft);
				free(data);
			}
			coll_check_file(path, image, isize);
			free(image);
		}
		for (int k = 0; k < 2 * n + 2; k++)
			back[k] = -2;
		CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
		CHECK_MPI(MPI_File_read_all(fh, back, n, mt, &st));
		CHECK_MPI(MPI_Get_count(&st, mt, &got));
		CHECK_INT(got, n);
		for (int k = 0; k < n; k++) {
			CHECK_INT(back[2 * k], rank * 1000000 + k);
			CHECK_INT(back[2 * k + 1], -2);
		}
		CHECK_MPI(MPI_File_close(&fh));
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			unlink(path);
	}
	MPI_Type_free(&mt);
	MPI_Type_free(&ft);
	free(mem);
	free(back);
	if (rank == 0)
		printf("ok\n");
	MPI_Finalize();
	return 0;
}
