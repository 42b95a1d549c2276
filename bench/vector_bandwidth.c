/* vector_bandwidth: windowed bandwidth of a strided vector (columns of a 1024x1024 double
 * matrix, as vector_latency), the vector type on both sides.
 * Prints: RESULT vector_bandwidth <bytes> <MB/s> MB/s */
#include "bench.h"
#include "dtype.h"

int main(int argc, char **argv)
{
	return dt_bandwidth(argc, argv, "vector_bandwidth", 'v');
}
