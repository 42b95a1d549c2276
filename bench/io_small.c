/* io_small: many small records through MPI-IO (bench/io.h), IOR's segmented pattern with a
 * record (-m bytes, default 4 KiB) for block and transfer: rank r's record k is at
 * (k * n + r) * record, -s file bytes / (n * record) records a rank (at least 1). One call
 * a record, explicit offsets on the default view: MPI_File_write_at / read_at
 * (independent) or MPI_File_write_at_all / read_at_all (collective, one collective call a
 * record, as IOR's collective mode makes them).
 * Prints: RESULT io_small <op.mode.fs> <MB/s> MB/s */
#include "io.h"

static void setup(const struct bench_opts *o, struct io_layout *l)
{
	io_interleaved_setup(o, l, o->min_size > 0 ? o->min_size : 4096, 1024);
}

int main(int argc, char **argv)
{
	struct bench_opts o = { -1, -1, 1, -1, -1, -1, -1, -1 };

	return io_main(argc, argv, "io_small", &o, setup, io_each_piece_at);
}
