/* file_view_subarray_and_darray_place_global_array: a 2-D global array of doubles written by
 * blocks through subarray filetypes (memory: the block inside a halo, a subarray memory
 * type), then by a block-cyclic darray filetype, is in the file in row-major order, value
 * for value (checked with pread); reading through each view brings every rank's part back. */
/* ranks: 1 4 16 */
#include "file_bytes.h"

#define ROWS 48
#define COLS 40

static double value(int i, int j, int round)
{
	return round * 1e6 + i * 1000.0 + j;
}

static void check_file(const char *path, int round)
{
	long long len;
	unsigned char *all = file_slurp(path, &len);

	CHECK_INT(len, (long long)ROWS * COLS * (long long)sizeof(double));
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < COLS; j++) {
			double v;
			memcpy(&v, all + ((size_t)i * COLS + j) * sizeof v, sizeof v);
			if (v != value(i, j, round)) {
				fprintf(stderr, "round %d: (%d, %d) is %g\n", round, i, j, v);
				CHECK(v == value(i, j, round));
			}
		}
	free(all);
}

int main(int argc, char **argv)
{
	char path[512];
	int rank, size, dims[2] = { 0, 0 }, n;
	MPI_File fh;
	MPI_Status st;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Dims_create(size, 2, dims));
	file_path(MPI_COMM_WORLD, "subarray_darray", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));

	/* Round 1: blocks. ROWS and COLS divide by every dims of 1, 4, 16 ranks. */
	int br = ROWS / dims[0], bc = COLS / dims[1], pr = rank / dims[1], pc = rank % dims[1];
	int gs[2] = { ROWS, COLS }, ls[2] = { br, bc }, st0[2] = { pr * br, pc * bc };
	int hs[2] = { br + 2, bc + 2 }, one[2] = { 1, 1 };
	MPI_Datatype block, inner;
	CHECK_MPI(MPI_Type_create_subarray(2, gs, ls, st0, MPI_ORDER_C, MPI_DOUBLE, &block));
	CHECK_MPI(MPI_Type_commit(&block));
	CHECK_MPI(MPI_Type_create_subarray(2, hs, ls, one, MPI_ORDER_C, MPI_DOUBLE, &inner));
	CHECK_MPI(MPI_Type_commit(&inner));
	double *halo = malloc((size_t)hs[0] * hs[1] * sizeof(double));
	for (int i = 0; i < hs[0]; i++)
		for (int j = 0; j < hs[1]; j++)
			halo[i * hs[1] + j] = (i == 0 || j == 0 || i == hs[0] - 1 || j == hs[1] - 1)
						      ? -1.0 : value(st0[0] + i - 1, st0[1] + j - 1, 1);
	CHECK_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, block, "native", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_write_at(fh, 0, halo, 1, inner, &st));
	CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE, &n));
	CHECK_INT(n, br * bc);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	check_file(path, 1);
	for (int i = 0; i < hs[0] * hs[1]; i++)
		halo[i] = -2.0;
	CHECK_MPI(MPI_File_read_at(fh, 0, halo, 1, inner, &st));
	for (int i = 0; i < hs[0]; i++)
		for (int j = 0; j < hs[1]; j++)
			CHECK(halo[i * hs[1] + j] ==
			      ((i == 0 || j == 0 || i == hs[0] - 1 || j == hs[1] - 1)
				       ? -2.0 : value(st0[0] + i - 1, st0[1] + j - 1, 1)));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* Round 2: block-cyclic darray, blocks of 3 rows by 2 columns. */
	int distribs[2] = { MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC }, dargs[2] = { 3, 2 };
	MPI_Datatype dar;
	int dsize;
	CHECK_MPI(MPI_Type_create_darray(size, rank, 2, gs, distribs, dargs, dims, MPI_ORDER_C,
					 MPI_DOUBLE, &dar));
	CHECK_MPI(MPI_Type_commit(&dar));
	CHECK_MPI(MPI_Type_size(dar, &dsize));
	int mine = dsize / (int)sizeof(double);
	/* The rank's elements in the darray's (row-major) order. */
	double *loc = malloc((size_t)(mine > 0 ? mine : 1) * sizeof(double));
	int k = 0;
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < COLS; j++)
			if ((i / 3) % dims[0] == pr && (j / 2) % dims[1] == pc)
				loc[k++] = value(i, j, 2);
	CHECK_INT(k, mine);
	CHECK_MPI(MPI_File_set_view(fh, 0, MPI_DOUBLE, dar, "native", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_write(fh, loc, mine, MPI_DOUBLE, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
	CHECK_INT(n, mine);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	check_file(path, 2);
	for (int i = 0; i < mine; i++)
		loc[i] = 0;
	CHECK_MPI(MPI_File_read_at(fh, 0, loc, mine, MPI_DOUBLE, &st));
	k = 0;
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < COLS; j++)
			if ((i / 3) % dims[0] == pr && (j / 2) % dims[1] == pc)
				CHECK(loc[k++] == value(i, j, 2));

	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&block);
	MPI_Type_free(&inner);
	MPI_Type_free(&dar);
	free(halo);
	free(loc);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
