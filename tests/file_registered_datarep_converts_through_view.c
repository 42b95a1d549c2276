/* file_registered_datarep_converts_through_view: a representation registered with
 * MPI_Register_datarep (ints stored plus 1000, 4 bytes each) set on a view with holes:
 * writes call its write conversion and the file holds the converted values in the view's
 * slots (pread), reads call its read conversion and bring the values back, and
 * MPI_File_get_type_extent asks its extent function. */
/* ranks: 1 3 */
#include "file_bytes.h"

struct calls {
	int rd, wr, ext;
};

static int conv(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position,
		void *state, int to_file)
{
	int *u = (int *)userbuf + position, *f = filebuf;

	CHECK(type == MPI_INT);
	for (int i = 0; i < count; i++) {
		if (to_file)
			f[i] = u[i] + 1000;
		else
			u[i] = f[i] - 1000;
	}
	if (to_file)
		((struct calls *)state)->wr++;
	else
		((struct calls *)state)->rd++;
	return MPI_SUCCESS;
}

static int rd(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position,
	      void *state)
{
	return conv(userbuf, type, count, filebuf, position, state, 0);
}

static int wr(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position,
	      void *state)
{
	return conv(userbuf, type, count, filebuf, position, state, 1);
}

static int extent(MPI_Datatype type, MPI_Aint *ext, void *state)
{
	int size;

	MPI_Type_size(type, &size);
	*ext = size;
	((struct calls *)state)->ext++;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	char path[512];
	int rank, size, n, v[10], back[10];
	struct calls calls = { 0, 0, 0 };
	MPI_File fh;
	MPI_Status st;
	MPI_Datatype slot;
	MPI_Aint ext;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Register_datarep("plus1000", rd, wr, extent, &calls));
	file_path(MPI_COMM_WORLD, "plus1000", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	/* Rank r's ints are ints r, r + size, ... of the file. */
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, size * (MPI_Aint)sizeof(int), &slot));
	CHECK_MPI(MPI_Type_commit(&slot));
	CHECK_MPI(MPI_File_set_view(fh, rank * (MPI_Offset)sizeof(int), MPI_INT, slot, "plus1000",
				    MPI_INFO_NULL));
	CHECK_MPI(MPI_File_get_type_extent(fh, MPI_INT, &ext));
	CHECK_INT(ext, 4);
	CHECK_CMP(calls.ext, >, 0);
	for (int i = 0; i < 10; i++)
		v[i] = rank * 100 + i;
	CHECK_MPI(MPI_File_write_at(fh, 0, v, 10, MPI_INT, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
	CHECK_INT(n, 10);
	CHECK_CMP(calls.wr, >, 0);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	long long len;
	unsigned char *all = file_slurp(path, &len);
	CHECK_INT(len, 10LL * size * (long long)sizeof(int));
	for (int i = 0; i < 10 * size; i++) {
		int x;
		memcpy(&x, all + 4 * i, 4);
		CHECK_INT(x, (i % size) * 100 + i / size + 1000);
	}
	free(all);
	CHECK_MPI(MPI_File_read_at(fh, 0, back, 10, MPI_INT, &st));
	CHECK_CMP(calls.rd, >, 0);
	for (int i = 0; i < 10; i++)
		CHECK_INT(back[i], v[i]);
	char rep[MPI_MAX_DATAREP_STRING];
	MPI_Offset d;
	MPI_Datatype e, f;
	CHECK_MPI(MPI_File_get_view(fh, &d, &e, &f, rep));
	CHECK_STR(rep, "plus1000");
	MPI_Type_free(&f);
	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&slot);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
