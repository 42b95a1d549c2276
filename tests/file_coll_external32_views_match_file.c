/* file_coll_external32_views_match_file: ranks interleave blocks of a vector view in
 * "external32" and write ints, then doubles, with MPI_File_write_all (some ranks pass fewer
 * elements, one none): the file holds each value big-endian where the view puts it (plain
 * pread against the native image with every element byte-swapped), and read_all gives every
 * rank its values back; the same through collective buffering (romio_cb_write/read enable)
 * and through independent access (disable). */
/* ranks: 1 4 16 64 */
#include <stdint.h>

#include "file_coll.h"

#define B 2        /* elements per block */
#define K 3        /* blocks per filetype */
#define TILES 4

static int count_of(int rank)
{
	return rank % 4 == 3 ? 0 : K * B * TILES - (rank % 2);
}

static void make_ft(int rank, int size, MPI_Datatype el, MPI_Datatype *ft, MPI_Offset *disp)
{
	MPI_Datatype v;
	int es;

	MPI_Type_size(el, &es);
	MPI_Type_vector(K, B, size * B, el, &v);
	MPI_Type_create_resized(v, 0, (MPI_Aint)K * size * B * es, ft);
	MPI_Type_commit(ft);
	MPI_Type_free(&v);
	*disp = (MPI_Offset)rank * B * es;
}

static void value(MPI_Datatype el, int rank, int k, void *out)
{
	if (el == MPI_INT) {
		int x = rank * 100000 + k - 7;
		memcpy(out, &x, 4);
	} else {
		double x = rank * 1000.5 + k * 0.125 - 3;
		memcpy(out, &x, 8);
	}
}

int main(int argc, char **argv)
{
	int rank, size;
	char path[512];
	MPI_Datatype els[2] = { MPI_INT, MPI_DOUBLE };

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int round = 0; round < 4; round++) {
		MPI_Datatype el = els[round % 2], ft;
		const char *cb = round < 2 ? "enable" : "disable";
		int es, n = count_of(rank), got;
		MPI_Offset disp;
		MPI_Info info;
		MPI_File fh;
		MPI_Status st;

		MPI_Type_size(el, &es);
		make_ft(rank, size, el, &ft, &disp);
		unsigned char *mine = malloc((size_t)(n + 1) * es), *back = malloc((size_t)(n + 1) * es);
		CHECK(mine != NULL && back != NULL);
		for (int k = 0; k < n; k++)
			value(el, rank, k, mine + (size_t)k * es);
		coll_path(MPI_COMM_WORLD, "file_coll_ext32", path, sizeof path);
		MPI_Info_create(&info);
		MPI_Info_set(info, "romio_cb_write", cb);
		MPI_Info_set(info, "romio_cb_read", cb);
		CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info,
					&fh));
		MPI_Info_free(&info);
		CHECK_MPI(MPI_File_set_view(fh, disp, el, ft, "external32", MPI_INFO_NULL));
		CHECK_MPI(MPI_File_write_all(fh, mine, n, el, &st));
		CHECK_MPI(MPI_Get_count(&st, el, &got));
		CHECK_INT(got, n);
		CHECK_MPI(MPI_File_sync(fh));
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			size_t isize = (size_t)TILES * K * size * B * es;
			unsigned char *image = malloc(isize);
			CHECK(image != NULL);
			memset(image, 0xEE, isize);
			for (int r = 0; r < size; r++) {
				MPI_Datatype rft;
				MPI_Offset rdisp;
				int rn = count_of(r);
				unsigned char *data = malloc((size_t)(rn + 1) * es);
				CHECK(data != NULL);
				for (int k = 0; k < rn; k++) {
					unsigned char v[8];
					value(el, r, k, v);
					for (int b = 0; b < es; b++)
						data[(size_t)k * es + b] = v[es - 1 - b];
				}
				make_ft(r, size, el, &rft, &rdisp);
				coll_place(image, isize, rdisp, rft, data, rn * es);
				MPI_Type_free(&rft);
				free(data);
			}
			/* Bytes nobody wrote read back as 0 inside the file, 0xEE past its end. */
			size_t flen;
			unsigned char *file = coll_file_bytes(path, isize, &flen);
			for (size_t i = 0; i < isize; i++)
				if (image[i] == 0xEE && i < flen)
					image[i] = file[i];
			free(file);
			coll_check_file(path, image, isize);
			free(image);
		}
		memset(back, 0, (size_t)(n + 1) * es);
		CHECK_MPI(MPI_File_read_at_all(fh, 0, back, n, el, &st));
		CHECK_MPI(MPI_Get_count(&st, el, &got));
		CHECK_INT(got, n);
		CHECK(memcmp(back, mine, (size_t)n * es) == 0);
		CHECK_MPI(MPI_File_close(&fh));
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			unlink(path);
		MPI_Type_free(&ft);
		free(mine);
		free(back);
	}
	if (rank == 0)
		printf("ok\n");
	MPI_Finalize();
	return 0;
}
