/* struct_latency: ping-pong latency of an array of particle structs { int; double[3];
 * float } (32 bytes of data in a 40-byte extent), the struct type on both sides.
 * Prints: RESULT struct_latency <bytes> <us> us */
#include "bench.h"
#include "dtype.h"

int main(int argc, char **argv)
{
	return dt_latency(argc, argv, "struct_latency", 's');
}
