/* io_contig: IOR's segmented contiguous pattern through MPI-IO (bench/io.h). The file is
 * S segments of one block (-M bytes, default 1 MiB) per rank: rank r's block of segment s
 * is at (s * n + r) * block, S = -s file bytes / (n * block), at least 1. One call a
 * block, explicit offsets on the default view: MPI_File_write_at / read_at
 * (independent) or MPI_File_write_at_all / read_at_all (collective).
 * Prints: RESULT io_contig <op.mode.fs> <MB/s> MB/s */
#include "io.h"

static long block;

static void setup(const struct bench_opts *o, struct io_layout *l)
{
	int n = bench_size(), r = bench_rank();

	block = (o->max_size > 0 ? o->max_size : 1L << 20) / 8 * 8;
	if (block < 8)
		block = 8;
	long segs = o->size > 0 ? o->size / ((long)n * block) : 64 / n;
	if (segs < 1)
		segs = 1;
	l->npieces = segs;
	l->pieces = calloc((size_t)segs, sizeof *l->pieces);
	for (long s = 0; s < segs; s++)
		l->pieces[s] = (struct io_piece){ (MPI_Offset)(s * n + r) * block, block };
	l->bytes = segs * block;
	l->file_bytes = (MPI_Offset)segs * n * block;
}

static int move(MPI_File fh, const struct io_layout *l, bool write, bool coll, void *buf)
{
	char *p = buf;

	for (long s = 0; s < l->npieces; s++, p += block) {
		MPI_Offset off = l->pieces[s].off;
		int rc;
		if (write)
			rc = coll ? MPI_File_write_at_all(fh, off, p, (int)block, MPI_BYTE,
							  MPI_STATUS_IGNORE)
				  : MPI_File_write_at(fh, off, p, (int)block, MPI_BYTE,
						      MPI_STATUS_IGNORE);
		else
			rc = coll ? MPI_File_read_at_all(fh, off, p, (int)block, MPI_BYTE,
							 MPI_STATUS_IGNORE)
				  : MPI_File_read_at(fh, off, p, (int)block, MPI_BYTE,
						     MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	struct bench_opts o = { -1, -1, 1, -1, -1, -1, -1, -1 };

	return io_main(argc, argv, "io_contig", &o, setup, move);
}
