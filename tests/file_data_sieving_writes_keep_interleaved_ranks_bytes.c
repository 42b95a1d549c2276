/* file_data_sieving_writes_keep_interleaved_ranks_bytes: ranks writing interleaved ints at
 * once through strided views (sieved: each write reads, patches and writes back a window
 * that covers the other ranks' ints) lose none of each other's ints, with data sieving on
 * (small and default windows) and off; and ranks writing single ints with plain writes
 * between the ints another rank sieves keep theirs too. Every int is checked with pread. */
/* ranks: 2 4 16 64 */
/* timeout: 180 */
#include "file_bytes.h"

#define K 2048    /* ints each rank writes in the interleaved file */
#define CALLS 8   /* ... in this many calls */
#define PLAIN 256 /* ints of the mixed file each plain writer writes one at a time */

static void check_interleaved(const char *path, int size, int tag)
{
	long long len;
	unsigned char *all = file_slurp(path, &len);

	CHECK_INT(len, (long long)size * K * (long long)sizeof(int));
	for (long long i = 0; i < len / (long long)sizeof(int); i++) {
		int v, r = (int)(i % size);
		memcpy(&v, all + i * sizeof(int), sizeof v);
		if (v != tag + r * 100000 + (int)(i / size)) {
			fprintf(stderr, "int %lld (rank %d's %lld) is %d\n", i, r, i / size, v);
			CHECK_INT(v, tag + r * 100000 + (int)(i / size));
		}
	}
	free(all);
}

/* Every rank writes its ints r, r + size, ... of a file opened with `info`. */
static void interleaved(const char *path, MPI_Info info, int tag)
{
	int rank, size;
	MPI_File fh;
	MPI_Datatype one;
	int *v = malloc(K * sizeof(int));

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, size * (MPI_Aint)sizeof(int), &one));
	CHECK_MPI(MPI_Type_commit(&one));
	CHECK_MPI(MPI_File_set_view(fh, rank * (MPI_Offset)sizeof(int), MPI_INT, one, "native",
				    MPI_INFO_NULL));
	for (int i = 0; i < K; i++)
		v[i] = tag + rank * 100000 + i;
	/* Ranks take the calls in different orders, so that windows cross all the time. */
	for (int c = 0; c < CALLS; c++) {
		int k = (c + rank) % CALLS;
		CHECK_MPI(MPI_File_write_at(fh, k * (K / CALLS), v + k * (K / CALLS), K / CALLS,
					    MPI_INT, MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Type_free(&one);
	free(v);
	check_interleaved(path, size, tag);
	file_remove(MPI_COMM_WORLD, path);
}

int main(int argc, char **argv)
{
	char path[512];
	int rank, size;
	MPI_Info small, off;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "sieve", path, sizeof path);
	MPI_Info_create(&small);
	MPI_Info_set(small, "romio_ds_write", "enable");
	MPI_Info_set(small, "ind_wr_buffer_size", "4096");
	MPI_Info_create(&off);
	MPI_Info_set(off, "romio_ds_write", "disable");
	interleaved(path, MPI_INFO_NULL, 1);
	interleaved(path, small, 2);
	interleaved(path, off, 3);

	/* Mixed: even ranks sieve the even ints of a block of 2 * PLAIN ints (their own
	 * block, a view with holes), odd ranks write the odd ints of the same block one at a
	 * time through a view without holes (etypes of one size on every rank, as MPI 4.1,
	 * 14.3 asks). */
	MPI_File fh;
	MPI_Datatype one;
	int base = rank / 2 * 2 * PLAIN;
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &one));
	CHECK_MPI(MPI_Type_commit(&one));
	if (rank % 2 == 0)
		CHECK_MPI(MPI_File_set_view(fh, base * (MPI_Offset)sizeof(int), MPI_INT, one,
					    "native", MPI_INFO_NULL));
	else
		CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
	int *v = malloc(PLAIN * sizeof(int));
	for (int i = 0; i < PLAIN; i++)
		v[i] = rank * 100000 + i;
	if (rank % 2 == 0) {
		for (int c = 0; c < PLAIN / 16; c++)
			CHECK_MPI(MPI_File_write_at(fh, c * 16, v + c * 16, 16, MPI_INT,
						    MPI_STATUS_IGNORE));
	} else {
		for (int i = 0; i < PLAIN; i++)
			CHECK_MPI(MPI_File_write_at(fh, base + 2 * i + 1, v + i, 1, MPI_INT,
						    MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_File_close(&fh));
	MPI_Barrier(MPI_COMM_WORLD);
	long long len;
	unsigned char *all = file_slurp(path, &len);
	CHECK_INT(len, (long long)(size + 1) / 2 * 2 * PLAIN * (long long)sizeof(int));
	for (long long i = 0; i < len / (long long)sizeof(int); i++) {
		int got, r = (int)(i / (2 * PLAIN)) * 2 + (int)(i % 2);
		memcpy(&got, all + i * sizeof(int), sizeof got);
		if (r >= size)
			CHECK_INT(got, 0);
		else
			CHECK_INT(got, r * 100000 + (int)(i % (2 * PLAIN) / 2));
	}
	free(all);
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&one);
	MPI_Info_free(&small);
	MPI_Info_free(&off);
	free(v);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
