/* io_contig: IOR's segmented contiguous pattern through MPI-IO (bench/io.h). The file is
 * S segments of one block (-M bytes, default 1 MiB) per rank: rank r's block of segment s
 * is at (s * n + r) * block, S = -s file bytes / (n * block), at least 1. One call a
 * block, explicit offsets on the default view: MPI_File_write_at / read_at
 * (independent) or MPI_File_write_at_all / read_at_all (collective).
 * Prints: RESULT io_contig <op.mode.fs> <MB/s> MB/s */
#include "io.h"

static void setup(const struct bench_opts *o, struct io_layout *l)
{
	io_interleaved_setup(o, l, o->max_size > 0 ? o->max_size : 1L << 20, 64);
}

int main(int argc, char **argv)
{
	struct bench_opts o = { -1, -1, 1, -1, -1, -1, -1, -1 };

	return io_main(argc, argv, "io_contig", &o, setup, io_each_piece_at);
}
