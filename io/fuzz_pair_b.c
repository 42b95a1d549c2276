/* Copy b of io/proto.c for io/fuzz_pair.c (io/fuzz_twin.h): node 1 of the fuzzed pair.
 * Entered by libFuzzer's driver thread only; never part of libmpi.so. */
#define TWIN b_
#include "io/fuzz_twin.h"
#include "io/proto.c"

static void reset(void)
{
	memset(&pr, 0, sizeof(pr));
}

const struct twin twin_b = {
	shl_io_start, shl_io_send_get, shl_io_post_eager, shl_io_post_rts, shl_io_recv_get,
	shl_io_post_cts, shl_io_post_cancel, shl_proto_take, shl_proto_written, shl_proto_header,
	shl_proto_frame, reset,
};
