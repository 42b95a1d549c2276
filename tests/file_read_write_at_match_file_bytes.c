/* file_read_write_at_match_file_bytes: MPI_File_write_at and _c put each rank's block at its
 * explicit offset (the file's bytes, read with pread, are the blocks), MPI_File_read_at and
 * _c read them back, and a status counts what was moved (MPI_Get_count, MPI_Get_elements). */
/* ranks: 1 4 16 */
#include "file_bytes.h"

#define N 1000

int main(int argc, char **argv)
{
	char path[512];
	int rank, size, n;
	MPI_File fh;
	MPI_Status st;
	MPI_Count cn;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "rw_at", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	int *mine = malloc(N * sizeof(int)), *back = malloc(N * sizeof(int));
	for (int i = 0; i < N; i++)
		mine[i] = rank * 1000003 + i;
	/* Ranks in reverse order of their blocks, half of each block through the _c twin. */
	MPI_Offset at = (MPI_Offset)(size - 1 - rank) * N * (MPI_Offset)sizeof(int);
	CHECK_MPI(MPI_File_write_at(fh, at, mine, N / 2, MPI_INT, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
	CHECK_INT(n, N / 2);
	CHECK_MPI(MPI_File_write_at_c(fh, at + N / 2 * (MPI_Offset)sizeof(int), mine + N / 2,
				      (MPI_Count)(N - N / 2), MPI_INT, &st));
	CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &cn));
	CHECK_INT(cn, N - N / 2);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* On the disk: every rank's block where it wrote it. */
	long long len;
	unsigned char *all = file_slurp(path, &len);
	CHECK_INT(len, (long long)size * N * (long long)sizeof(int));
	for (int r = 0; r < size; r++)
		for (int i = 0; i < N; i++) {
			int v;
			memcpy(&v, all + ((long long)(size - 1 - r) * N + i) * sizeof(int), sizeof v);
			CHECK_INT(v, r * 1000003 + i);
		}
	free(all);

	/* Read back the next rank's block, as ints and as bytes. */
	int other = (rank + 1) % size;
	MPI_Offset oat = (MPI_Offset)(size - 1 - other) * N * (MPI_Offset)sizeof(int);
	memset(back, 0, N * sizeof(int));
	CHECK_MPI(MPI_File_read_at(fh, oat, back, N, MPI_INT, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
	CHECK_INT(n, N);
	for (int i = 0; i < N; i++)
		CHECK_INT(back[i], other * 1000003 + i);
	memset(back, 0, N * sizeof(int));
	CHECK_MPI(MPI_File_read_at_c(fh, oat, back, (MPI_Count)N * sizeof(int), MPI_BYTE, &st));
	CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &n));
	CHECK_INT(n, N * (int)sizeof(int));
	CHECK_INT(back[N - 1], other * 1000003 + N - 1);
	/* A status may be ignored. */
	CHECK_MPI(MPI_File_read_at(fh, oat, back, 1, MPI_INT, MPI_STATUS_IGNORE));
	CHECK_INT(back[0], other * 1000003);

	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	free(mine);
	free(back);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
