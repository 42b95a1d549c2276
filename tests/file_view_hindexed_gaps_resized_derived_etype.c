/* file_view_hindexed_gaps_resized_derived_etype: a view whose etype is a derived triple of
 * ints and whose filetype is an hindexed of triples with gaps, resized to a larger extent:
 * MPI_File_write_at puts the triples in the tiles' slots and leaves the gaps zero (pread),
 * MPI_File_get_byte_offset maps etypes to those bytes, MPI_File_get_type_extent gives the
 * triple's extent, MPI_File_get_view hands back the view (derived types as new handles),
 * and reads through the view return the data, a read past the end of the file counting
 * only what was there. */
/* ranks: 1 2 4 */
#include "file_bytes.h"

#define TILES 3
#define REGION 2000   /* bytes of file each rank's view starts apart */

static const int blens[3] = { 1, 2, 1 };
static const MPI_Aint disps[3] = { 4, 40, 100 };
static const MPI_Aint extent = 160;

/* File byte of triple t (of the stream) of a view at `disp`. */
static long long triple_at(long long disp, int t)
{
	int tile = t / 4, in = t % 4;
	long long off = in == 0 ? 4 : in == 1 ? 40 : in == 2 ? 52 : 100;

	return disp + tile * extent + off;
}

int main(int argc, char **argv)
{
	char path[512], rep[MPI_MAX_DATAREP_STRING];
	int rank, size, n, ni, na, nd, comb;
	MPI_File fh;
	MPI_Status st;
	MPI_Datatype triple, hix, ftype, e2, f2;
	MPI_Offset d, b;
	MPI_Aint ext, lb;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	file_path(MPI_COMM_WORLD, "hindexed_view", path, sizeof path);
	CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
				MPI_INFO_NULL, &fh));
	/* The default view: disp 0, MPI_BYTE, MPI_BYTE, "native"; predefined types as is. */
	CHECK_MPI(MPI_File_get_view(fh, &d, &e2, &f2, rep));
	CHECK_INT(d, 0);
	CHECK(e2 == MPI_BYTE && f2 == MPI_BYTE);
	CHECK_STR(rep, "native");

	CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &triple));
	CHECK_MPI(MPI_Type_commit(&triple));
	CHECK_MPI(MPI_Type_create_hindexed(3, blens, disps, triple, &hix));
	CHECK_MPI(MPI_Type_create_resized(hix, 0, extent, &ftype));
	CHECK_MPI(MPI_Type_commit(&ftype));
	long long disp = (long long)rank * REGION;
	CHECK_MPI(MPI_File_set_view(fh, disp, triple, ftype, "native", MPI_INFO_NULL));

	CHECK_MPI(MPI_File_get_view(fh, &d, &e2, &f2, rep));
	CHECK_INT(d, disp);
	CHECK_STR(rep, "native");
	CHECK(e2 != MPI_DATATYPE_NULL && f2 != MPI_DATATYPE_NULL);
	/* Which constructor they come from is the implementation's (a dup or the type
	 * itself); their typemaps are the view's. */
	CHECK_MPI(MPI_Type_get_envelope(f2, &ni, &na, &nd, &comb));
	CHECK(comb != MPI_COMBINER_NAMED);
	CHECK_MPI(MPI_Type_get_extent(f2, &lb, &ext));
	CHECK_INT(lb, 0);
	CHECK_INT(ext, extent);
	CHECK_MPI(MPI_Type_size(f2, &n));
	CHECK_INT(n, 4 * 12);
	CHECK_MPI(MPI_Type_size(e2, &n));
	CHECK_INT(n, 12);
	CHECK_MPI(MPI_Type_free(&e2));
	CHECK_MPI(MPI_Type_free(&f2));

	CHECK_MPI(MPI_File_get_type_extent(fh, triple, &ext));
	CHECK_INT(ext, 12);
	for (int t = 0; t < 9; t++) {
		CHECK_MPI(MPI_File_get_byte_offset(fh, t, &b));
		CHECK_INT(b, triple_at(disp, t));
	}

	/* Triples 1 .. 4 * TILES - 1 (one written later, the first, stays a hole). */
	int nt = 4 * TILES - 1, ints = 3 * nt;
	int *w = malloc((size_t)ints * sizeof(int));
	for (int i = 0; i < ints; i++)
		w[i] = rank * 10000 + 3 + i;
	CHECK_MPI(MPI_File_write_at(fh, 1, w, nt, triple, &st));
	CHECK_MPI(MPI_Get_count(&st, triple, &n));
	CHECK_INT(n, nt);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	long long len;
	unsigned char *all = file_slurp(path, &len);
	CHECK_INT(len, triple_at((long long)(size - 1) * REGION, 4 * TILES - 1) + 12);
	unsigned char *want = calloc((size_t)len, 1);
	for (int r = 0; r < size; r++)
		for (int t = 1; t < 4 * TILES; t++)
			for (int k = 0; k < 3; k++) {
				int v = r * 10000 + 3 * t + k;
				memcpy(want + triple_at((long long)r * REGION, t) + 4 * k, &v, 4);
			}
	for (long long i = 0; i < len; i++)
		if (all[i] != want[i]) {
			fprintf(stderr, "file byte %lld is %d, not %d\n", i, all[i], want[i]);
			CHECK(all[i] == want[i]);
		}
	free(all);
	free(want);

	/* Back through the view: all triples from etype 1, then a read that runs past the
	 * end of the file (only the last rank's view reaches it). */
	int *r = calloc((size_t)ints + 30, sizeof(int));
	CHECK_MPI(MPI_File_read_at(fh, 1, r, nt, triple, &st));
	for (int i = 0; i < ints; i++)
		CHECK_INT(r[i], w[i]);
	if (rank == size - 1) {
		CHECK_MPI(MPI_File_read_at(fh, 4 * TILES - 2, r, 10, triple, &st));
		CHECK_MPI(MPI_Get_count(&st, triple, &n));
		CHECK_INT(n, 2);
		CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &n));
		CHECK_INT(n, 6);
		CHECK_INT(r[0], rank * 10000 + 3 * (4 * TILES - 2));
		CHECK_INT(r[5], rank * 10000 + 3 * (4 * TILES - 1) + 2);
		/* Entirely past the end: nothing. */
		CHECK_MPI(MPI_File_read_at(fh, 100, r, 3, triple, &st));
		CHECK_MPI(MPI_Get_count(&st, triple, &n));
		CHECK_INT(n, 0);
	}

	CHECK_MPI(MPI_File_close(&fh));
	file_remove(MPI_COMM_WORLD, path);
	MPI_Type_free(&triple);
	MPI_Type_free(&hix);
	MPI_Type_free(&ftype);
	free(w);
	free(r);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
