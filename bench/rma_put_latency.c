/* rma_put_latency: rank 0 holds a shared lock on rank 1 and times MPI_Put of
 * -m .. -M bytes, each followed by MPI_Win_flush(1); µs per put
 * (bench/rma.h: rma_latency_main). Runs on rank threads of any MPI; ranks above 1 only
 * join the barriers.
 * Prints: RESULT rma_put_latency <bytes> <us> us */
#include "rma.h"

int main(int argc, char **argv)
{
	return rma_latency_main(argc, argv, "rma_put_latency", RMA_PUT, RMA_FLUSH);
}
