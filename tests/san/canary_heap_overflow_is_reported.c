/* canary_heap_overflow_is_reported: a rank sends itself 4 KiB from a 100-byte heap buffer,
 * an overflow on purpose that the library's copy makes. make test-san runs this under the
 * AddressSanitizer build (build-asan) and fails unless ASan reports a heap-buffer-overflow:
 * the proof that the tool is live in the node process where the library runs. Must never
 * be fixed. */
/* ranks: 1 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#define HAVE 100
#define SEND 4096

int main(int argc, char **argv)
{
	char *buf = malloc(HAVE), *in = malloc(SEND);

	MPI_Init(&argc, &argv);
	memset(buf, 1, HAVE);
	MPI_Sendrecv(buf, SEND, MPI_BYTE, 0, 0, in, SEND, MPI_BYTE, 0, 0, MPI_COMM_SELF,
		     MPI_STATUS_IGNORE);
	printf("sent %d bytes of a %d-byte buffer: AddressSanitizer is not live\n", SEND, HAVE);
	MPI_Finalize();
	free(buf);
	free(in);
	return 0;
}
