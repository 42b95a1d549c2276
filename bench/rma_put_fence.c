/* rma_put_fence: per iteration rank 0 puts -m .. -M bytes into rank 1 and
 * every rank calls MPI_Win_fence(0); µs per put and fence
 * (bench/rma.h: rma_latency_main). Runs on rank threads of any MPI; ranks above 1 only
 * join the fences and the barriers.
 * Prints: RESULT rma_put_fence <bytes> <us> us */
#include "rma.h"

int main(int argc, char **argv)
{
	return rma_latency_main(argc, argv, "rma_put_fence", RMA_PUT, RMA_FENCE);
}
