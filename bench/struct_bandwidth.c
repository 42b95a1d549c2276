/* struct_bandwidth: windowed bandwidth of an array of particle structs (as struct_latency),
 * the struct type on both sides.
 * Prints: RESULT struct_bandwidth <bytes> <MB/s> MB/s */
#include "bench.h"
#include "dtype.h"

int main(int argc, char **argv)
{
	return dt_bandwidth(argc, argv, "struct_bandwidth", 's');
}
