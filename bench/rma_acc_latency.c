/* rma_acc_latency: rank 0 holds a shared lock on rank 1 and times
 * MPI_Accumulate (MPI_SUM of -m/8 .. -M/8 doubles, from 8 B), each followed by
 * MPI_Win_flush(1); µs per accumulate
 * (bench/rma.h: rma_latency_main). Runs on rank threads of any MPI; ranks above 1 only
 * join the barriers.
 * Prints: RESULT rma_acc_latency <bytes> <us> us */
#include "rma.h"

int main(int argc, char **argv)
{
	return rma_latency_main(argc, argv, "rma_acc_latency", RMA_ACC, RMA_FLUSH);
}
