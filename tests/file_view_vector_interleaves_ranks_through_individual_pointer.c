/* file_view_vector_interleaves_ranks_through_individual_pointer: with an etype of MPI_INT
 * and a vector filetype (2 of every 2 * size ints, resized so that tiles continue it), each
 * rank's MPI_File_write calls land in its own slots of the file (checked with pread), the
 * individual pointer advances by the etypes written, a memory type with gaps (every other
 * int) is gathered, and MPI_File_read after a seek reads the same ints back. */
/* ranks: 1 4 16 */
#include "file_bytes.h"

#define K 600   /* ints per rank, a multiple of the vector's 2 x 3 */

int main(int argc, char **argv)
{
	char path[512];
	int rank, size, n;
	MPI_File fh;
	MPI_Status st;
	MPI_Datatype vec, ftype, every2;
	MPI_Offset p;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "vector_view", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	/* Three blocks of 2 ints, 2 * size ints apart; a tile spans 3 strides. */
	CHECK_MPI(MPI_Type_vector(3, 2, 2 * size, MPI_INT, &vec));
	CHECK_MPI(MPI_Type_create_resized(vec, 0, 3 * 2 * size * (MPI_Aint)sizeof(int), &ftype));
	CHECK_MPI(MPI_Type_commit(&ftype));
	CHECK_MPI(MPI_Type_vector(K / 2, 1, 2, MPI_INT, &every2));
	CHECK_MPI(MPI_Type_commit(&every2));
	CHECK_MPI(MPI_File_set_view(fh, 2 * rank * (MPI_Offset)sizeof(int), MPI_INT, ftype,
				    "native", MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, 0);

	int *mem = malloc(2 * K * sizeof(int));
	for (int i = 0; i < 2 * K; i++)
		mem[i] = i % 2 == 0 ? rank * 100000 + i / 2 : -1;
	/* First half from a contiguous buffer of its own, second half through every2/2. */
	int *first = malloc(K / 2 * sizeof(int));
	for (int i = 0; i < K / 2; i++)
		first[i] = rank * 100000 + i;
	CHECK_MPI(MPI_File_write(fh, first, K / 2, MPI_INT, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
	CHECK_INT(n, K / 2);
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, K / 2);
	MPI_Datatype half, halfv;
	CHECK_MPI(MPI_Type_vector(K / 4, 1, 2, MPI_INT, &halfv));
	CHECK_MPI(MPI_Type_create_resized(halfv, 0, K / 2 * (MPI_Aint)sizeof(int), &half));
	CHECK_MPI(MPI_Type_commit(&half));
	CHECK_MPI(MPI_File_write(fh, mem + K, 2, half, &st));
	CHECK_MPI(MPI_Get_count(&st, half, &n));
	CHECK_INT(n, 2);
	CHECK_MPI(MPI_Get_elements(&st, half, &n));
	CHECK_INT(n, K / 2);
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, K);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* The file: int j of the stream of rank r is at 2 * size * (j / 2) + 2 * r + j % 2. */
	long long len;
	unsigned char *all = file_slurp(path, &len);
	CHECK_INT(len, (long long)size * K * (long long)sizeof(int));
	for (long long b = 0; b < len / (long long)sizeof(int); b++) {
		int v, r = (int)(b % (2 * size) / 2);
		long long j = b / (2 * size) * 2 + b % 2;
		memcpy(&v, all + b * sizeof(int), sizeof v);
		CHECK_INT(v, r * 100000 + j);
	}
	free(all);

	/* Back through the view into every other int of a buffer. */
	for (int i = 0; i < 2 * K; i++)
		mem[i] = -7;
	CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
	CHECK_MPI(MPI_File_read(fh, mem, 1, every2, &st));
	CHECK_MPI(MPI_Get_elements(&st, every2, &n));
	CHECK_INT(n, K / 2);
	CHECK_MPI(MPI_File_read(fh, mem + K, 1, every2, &st));
	for (int i = 0; i < 2 * K; i++)
		CHECK_INT(mem[i], i % 2 == 0 ? rank * 100000 + i / 2 : -7);
	CHECK_MPI(MPI_File_get_position(fh, &p));
	CHECK_INT(p, K);

	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&vec);
	MPI_Type_free(&ftype);
	MPI_Type_free(&every2);
	MPI_Type_free(&half);
	MPI_Type_free(&halfv);
	free(mem);
	free(first);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
