/* io_small: many small records through MPI-IO (bench/io.h), IOR's segmented pattern with a
 * record (-m bytes, default 4 KiB) for block and transfer: rank r's record k is at
 * (k * n + r) * record, -s file bytes / (n * record) records a rank (at least 1). One call
 * a record, explicit offsets on the default view: MPI_File_write_at / read_at
 * (independent) or MPI_File_write_at_all / read_at_all (collective, one collective call a
 * record, as IOR's collective mode makes them).
 * Prints: RESULT io_small <op.mode.fs> <MB/s> MB/s */
#include "io.h"

static long record;

static void setup(const struct bench_opts *o, struct io_layout *l)
{
	int n = bench_size(), r = bench_rank();

	record = (o->min_size > 0 ? o->min_size : 4096) / 8 * 8;
	if (record < 8)
		record = 8;
	long recs = o->size > 0 ? o->size / ((long)n * record) : 1024 / n;
	if (recs < 1)
		recs = 1;
	l->npieces = recs;
	l->pieces = calloc((size_t)recs, sizeof *l->pieces);
	for (long k = 0; k < recs; k++)
		l->pieces[k] = (struct io_piece){ (MPI_Offset)(k * n + r) * record, record };
	l->bytes = recs * record;
	l->file_bytes = (MPI_Offset)recs * n * record;
}

static int move(MPI_File fh, const struct io_layout *l, bool write, bool coll, void *buf)
{
	char *p = buf;

	for (long k = 0; k < l->npieces; k++, p += record) {
		MPI_Offset off = l->pieces[k].off;
		int rc;
		if (write)
			rc = coll ? MPI_File_write_at_all(fh, off, p, (int)record, MPI_BYTE,
							  MPI_STATUS_IGNORE)
				  : MPI_File_write_at(fh, off, p, (int)record, MPI_BYTE,
						      MPI_STATUS_IGNORE);
		else
			rc = coll ? MPI_File_read_at_all(fh, off, p, (int)record, MPI_BYTE,
							 MPI_STATUS_IGNORE)
				  : MPI_File_read_at(fh, off, p, (int)record, MPI_BYTE,
						     MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	struct bench_opts o = { -1, -1, 1, -1, -1, -1, -1, -1 };

	return io_main(argc, argv, "io_small", &o, setup, move);
}
