/* vector_latency: ping-pong latency of a strided vector: min(x/8,1024) rows of columns of a
 * 1024x1024 double matrix (one column up to 8 KiB), the vector type on both sides.
 * Prints: RESULT vector_latency <bytes> <us> us */
#include "bench.h"
#include "dtype.h"

int main(int argc, char **argv)
{
	return dt_latency(argc, argv, "vector_latency", 'v');
}
