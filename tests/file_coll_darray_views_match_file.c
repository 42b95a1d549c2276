/* file_coll_darray_views_match_file: a 2D array of doubles distributed block-cyclic (darray
 * views, cyclic(2) by cyclic(3) over MPI_Dims_create's grid; at 64 ranks some ranks hold
 * nothing) written with MPI_File_write_all and read back with read_all: the file matches the
 * views byte for byte (plain pread against an image made with MPI_Unpack) and every rank
 * reads back its own elements. Then the same with a Fortran-order block distribution written
 * by the nonblocking MPI_File_iwrite_all. */
/* ranks: 1 4 16 64 */
#include "file_coll.h"

#define ROWS 67
#define COLS 45

static void make_ft(int rank, int size, int order, MPI_Datatype *ft)
{
	int gsizes[2] = { ROWS, COLS }, psizes[2] = { 0, 0 };
	int distribs[2], dargs[2];

	MPI_Dims_create(size, 2, psizes);
	if (order == MPI_ORDER_C) {
		distribs[0] = distribs[1] = MPI_DISTRIBUTE_CYCLIC;
		dargs[0] = 2;
		dargs[1] = 3;
	} else {
		distribs[0] = distribs[1] = MPI_DISTRIBUTE_BLOCK;
		dargs[0] = dargs[1] = MPI_DISTRIBUTE_DFLT_DARG;
	}
	CHECK_MPI(MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, order,
					 MPI_DOUBLE, ft));
	CHECK_MPI(MPI_Type_commit(ft));
}

int main(int argc, char **argv)
{
	int rank, size;
	char path[512];
	int orders[2] = { MPI_ORDER_C, MPI_ORDER_FORTRAN };

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	size_t isize = (size_t)ROWS * COLS * sizeof(double);

	for (int o = 0; o < 2; o++) {
		MPI_Datatype ft;
		MPI_File fh;
		MPI_Status st;
		int tsize, n, got;

		make_ft(rank, size, orders[o], &ft);
		MPI_Type_size(ft, &tsize);
		n = tsize / (int)sizeof(double);
		double *mine = malloc((size_t)(n ? n : 1) * sizeof(double));
		double *back = malloc((size_t)(n ? n : 1) * sizeof(double));
		CHECK(mine != NULL && back != NULL);
		for (int k = 0; k < n; k++)
			mine[k] = rank * 100000.0 + k + 0.25;
		coll_path(MPI_COMM_WORLD, "file_coll_darray", path, sizeof path);
		CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
					MPI_INFO_NULL, &fh));
		CHECK_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, ft, "native", MPI_INFO_NULL));
		if (o == 0) {
			CHECK_MPI(MPI_File_write_all(fh, mine, n, MPI_DOUBLE, &st));
		} else {
			MPI_Request req;
			CHECK_MPI(MPI_File_iwrite_all(fh, mine, n, MPI_DOUBLE, &req));
			CHECK_MPI(MPI_Wait(&req, &st));
		}
		CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &got));
		CHECK_INT(got, n);
		CHECK_MPI(MPI_File_sync(fh));
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			unsigned char *image = malloc(isize);
			CHECK(image != NULL);
			memset(image, 0xEE, isize);
			for (int r = 0; r < size; r++) {
				MPI_Datatype rft;
				int rs;
				make_ft(r, size, orders[o], &rft);
				MPI_Type_size(rft, &rs);
				double *data = malloc((size_t)rs + 1);
				CHECK(data != NULL);
				for (int k = 0; k < rs / (int)sizeof(double); k++)
					data[k] = r * 100000.0 + k + 0.25;
				coll_place(image, isize, 0, rft, data, rs);
				MPI_Type_free(&rft);
				free(data);
			}
			coll_check_file(path, image, isize);
			free(image);
		}
		memset(back, 0, (size_t)(n ? n : 1) * sizeof(double));
		CHECK_MPI(MPI_File_read_at_all(fh, 0, back, n, MPI_DOUBLE, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &got));
		CHECK_INT(got, n);
		CHECK(memcmp(back, mine, (size_t)n * sizeof(double)) == 0);
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
