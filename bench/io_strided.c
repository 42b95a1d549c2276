/* io_strided: a global G x G array of doubles in block decomposition (MPI_Dims_create's
 * 2-D grid of the ranks, C order) written and read through MPI-IO (bench/io.h): each rank
 * sets a view whose filetype is its block (MPI_Type_create_subarray) and moves its block,
 * contiguous in memory, in one call: MPI_File_write / read (independent: each rank's
 * block is G / rows pieces of the file) or MPI_File_write_all / read_all (collective).
 * G: the largest multiple of the grid's rows times columns with G * G * 8 <= -s bytes.
 * Prints: RESULT io_strided <op.mode.fs> <MB/s> MB/s */
#include "io.h"

static MPI_Datatype filetype;
static int count;

static void setup(const struct bench_opts *o, struct io_layout *l)
{
	int dims[2] = { 0, 0 }, r = bench_rank();
	long s = o->size > 0 ? o->size : 1L << 20;

	MPI_Dims_create(bench_size(), 2, dims);
	long q = (long)dims[0] * dims[1], g = q;
	while ((g + q) * (g + q) * 8 <= s)
		g += q;
	int sizes[2] = { (int)g, (int)g };
	int sub[2] = { (int)(g / dims[0]), (int)(g / dims[1]) };
	int start[2] = { (r / dims[1]) * sub[0], (r % dims[1]) * sub[1] };
	MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &filetype);
	MPI_Type_commit(&filetype);
	count = sub[0] * sub[1];
	l->npieces = sub[0];
	l->pieces = calloc((size_t)sub[0], sizeof *l->pieces);
	for (int i = 0; i < sub[0]; i++)
		l->pieces[i] = (struct io_piece){
			((MPI_Offset)(start[0] + i) * g + start[1]) * 8, (long)sub[1] * 8 };
	l->bytes = (long)count * 8;
	l->file_bytes = (MPI_Offset)g * g * 8;
}

static int move(MPI_File fh, const struct io_layout *l, bool write, bool coll, void *buf)
{
	(void)l;
	int rc = MPI_File_set_view(fh, 0, MPI_DOUBLE, filetype, "native", MPI_INFO_NULL);
	if (rc != MPI_SUCCESS)
		return rc;
	if (write)
		return coll ? MPI_File_write_all(fh, buf, count, MPI_DOUBLE, MPI_STATUS_IGNORE)
			    : MPI_File_write(fh, buf, count, MPI_DOUBLE, MPI_STATUS_IGNORE);
	return coll ? MPI_File_read_all(fh, buf, count, MPI_DOUBLE, MPI_STATUS_IGNORE)
		    : MPI_File_read(fh, buf, count, MPI_DOUBLE, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	struct bench_opts o = { -1, -1, 1, -1, -1, -1, -1, -1 };

	return io_main(argc, argv, "io_strided", &o, setup, move);
}
