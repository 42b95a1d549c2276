/* rma_get_fence: per iteration rank 0 gets -m .. -M bytes from rank 1 and
 * every rank calls MPI_Win_fence(0); µs per get and fence
 * (bench/rma.h: rma_latency_main). Runs on rank threads of any MPI; ranks above 1 only
 * join the fences and the barriers.
 * Prints: RESULT rma_get_fence <bytes> <us> us */
#include "rma.h"

int main(int argc, char **argv)
{
	return rma_latency_main(argc, argv, "rma_get_fence", RMA_GET, RMA_FENCE);
}
