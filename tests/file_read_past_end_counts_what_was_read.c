/* file_read_past_end_counts_what_was_read: a read that runs past the end of the file stops
 * there, in every path of the engine (a view without holes and one with holes, sieved or
 * not, into contiguous memory or every other int of a buffer): the status counts the ints
 * that were in the file, they are in place, the rest of the buffer is untouched, and
 * MPI_File_read moves the individual pointer by the etypes read (MPI 4.1, 14.4.3: to the
 * etype after the last one accessed). Open MPI differs: ROMIO's sieved read counts the
 * whole request, OMPIO moves the pointer by the request. */
/* ranks: 1 2 */
#include "file_bytes.h"

#define FILE_INTS 1000   /* the file: ints 0 .. 999 */
#define ASK 700          /* ints each read asks for */

int main(int argc, char **argv)
{
	char path[512];
	int rank, n;
	MPI_File fh;
	MPI_Status st;
	MPI_Datatype every2, every2r, slot;
	MPI_Info nosieve;
	MPI_Offset p;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	file_path(MPI_COMM_WORLD, "past_end", path, sizeof path);
	if (rank == 0) {
		int *all = malloc(FILE_INTS * sizeof(int));
		for (int i = 0; i < FILE_INTS; i++)
			all[i] = i;
		int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		CHECK(fd >= 0);
		CHECK_INT(write(fd, all, FILE_INTS * sizeof(int)), FILE_INTS * (int)sizeof(int));
		close(fd);
		free(all);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	/* Memory: every other int (a resized vector element per int). */
	CHECK_MPI(MPI_Type_vector(1, 1, 2, MPI_INT, &every2));
	CHECK_MPI(MPI_Type_create_resized(every2, 0, 2 * sizeof(int), &every2r));
	CHECK_MPI(MPI_Type_commit(&every2r));
	/* View with holes: int 0 of every 3. */
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &slot));
	CHECK_MPI(MPI_Type_commit(&slot));
	MPI_Info_create(&nosieve);
	MPI_Info_set(nosieve, "romio_ds_read", "disable");
	int *buf = malloc(2 * ASK * sizeof(int));

	for (int sieve = 0; sieve < 2; sieve++)
		for (int holes = 0; holes < 2; holes++)
			for (int gaps = 0; gaps < 2; gaps++) {
				CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY,
							sieve ? MPI_INFO_NULL : nosieve, &fh));
				int stride = holes ? 3 : 1, start = 100;
				CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, holes ? slot : MPI_INT,
							    "native", MPI_INFO_NULL));
				/* Stream ints from `start` that the file holds. */
				int have = (FILE_INTS + stride - 1) / stride - start;
				int want = have < ASK ? have : ASK;
				for (int i = 0; i < 2 * ASK; i++)
					buf[i] = -1;
				CHECK_MPI(MPI_File_seek(fh, start, MPI_SEEK_SET));
				CHECK_MPI(MPI_File_read(fh, buf, ASK, gaps ? every2r : MPI_INT, &st));
				CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &n));
				CHECK_INT(n, want);
				CHECK_MPI(MPI_File_get_position(fh, &p));
				CHECK_INT(p, start + want);
				int step = gaps ? 2 : 1;
				for (int i = 0; i < 2 * ASK; i++) {
					int k = i / step, filled = i % step == 0 && k < want;
					CHECK_INT(buf[i], filled ? (start + k) * stride : -1);
				}
				CHECK_MPI(MPI_File_close(&fh));
			}
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&every2);
	MPI_Type_free(&every2r);
	MPI_Type_free(&slot);
	MPI_Info_free(&nosieve);
	free(buf);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
