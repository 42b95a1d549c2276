/* file_atomic_mode_overlapping_writes_stay_whole: in atomic mode, ranks writing the same
 * strided region at once (each write sieved in many small windows) leave it holding one
 * writer's whole block after every round, and reads made while the others write see one
 * whole block, never a mix (MPI 4.1, 14.6.1). Checked with pread and through MPI. */
/* ranks: 2 4 16 */
/* timeout: 180 */
#include "file_bytes.h"

#define B 32768    /* ints of each block (every other int of the region) */
#define ROUNDS 12

/* Whether the B ints at `v` are all one value (returned in *which). */
static int uniform(const int *v, int *which)
{
	for (int i = 1; i < B; i++)
		if (v[i] != v[0])
			return 0;
	*which = v[0];
	return 1;
}

int main(int argc, char **argv)
{
	char path[512];
	int rank, size, flag, which;
	MPI_File fh;
	MPI_Datatype one;
	MPI_Info info;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "atomic", path, sizeof path);
	MPI_Info_create(&info);
	MPI_Info_set(info, "ind_wr_buffer_size", "4096");
	MPI_Info_set(info, "ind_rd_buffer_size", "4096");
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
	CHECK_MPI(MPI_File_set_atomicity(fh, 1));
	CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &one));
	CHECK_MPI(MPI_Type_commit(&one));
	CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, one, "native", MPI_INFO_NULL));
	int *w = malloc(B * sizeof(int)), *r = malloc(B * sizeof(int));
	int *all = malloc(2 * B * sizeof(int));
	for (int round = 1; round <= ROUNDS; round++) {
		int mine = round * 1000 + rank + 1;
		for (int i = 0; i < B; i++)
			w[i] = mine;
		CHECK_MPI(MPI_File_write_at(fh, 0, w, B, MPI_INT, MPI_STATUS_IGNORE));
		/* The others may still be writing: a whole block of this round or a later
		 * one, or of an earlier round (a writer that has not reached it yet). */
		CHECK_MPI(MPI_File_read_at(fh, 0, r, B, MPI_INT, MPI_STATUS_IGNORE));
		if (!uniform(r, &which)) {
			fprintf(stderr, "round %d: a read saw %d and %d mixed\n", round, r[0],
				r[B - 1]);
			CHECK(0);
		}
		CHECK(which / 1000 >= round - 1 && which % 1000 >= 1 && which % 1000 <= size);
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		/* On the disk: one writer's block of this round in the even ints. */
		CHECK_INT(file_pread(path, all, 2 * B * (long long)sizeof(int), 0),
			  (2 * B - 1) * (long long)sizeof(int));
		for (int i = 0; i < B; i++)
			r[i] = all[2 * i];
		CHECK(uniform(r, &which));
		CHECK_INT(which / 1000, round);
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&one);
	MPI_Info_free(&info);
	free(w);
	free(r);
	free(all);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
