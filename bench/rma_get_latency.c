/* rma_get_latency: rank 0 holds a shared lock on rank 1 and times MPI_Get of
 * -m .. -M bytes, each followed by MPI_Win_flush(1); µs per get
 * (bench/rma.h: rma_latency_main). Runs on rank threads of any MPI; ranks above 1 only
 * join the barriers.
 * Prints: RESULT rma_get_latency <bytes> <us> us */
#include "rma.h"

int main(int argc, char **argv)
{
	return rma_latency_main(argc, argv, "rma_get_latency", RMA_GET, RMA_FLUSH);
}
