/* buffer_detach_int_refuses_size_above_int_max: a buffer of 2^32 + 64 bytes attached with
 * MPI_Buffer_attach_c serves buffered sends; the int MPI_Buffer_detach fails with
 * MPI_ERR_VALUE_TOO_LARGE and leaves it attached; MPI_Buffer_detach_c returns it. */
/* ranks: 1 2 */
#include <sys/mman.h>
#include "check.h"

#define HUGE_BYTES (((MPI_Count)1 << 32) + 64)
#define N 1000

int main(int argc, char **argv)
{
	int rank, out[N], in[N], small_size, *small = malloc(4096);
	MPI_Count size;
	void *addr, *huge;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	CHECK_CLASS(MPI_Buffer_attach_c(small, -1), MPI_ERR_SIZE);
	/* Sizes an int holds go back through either binding. */
	CHECK_MPI(MPI_Buffer_attach_c(small, 4096));
	CHECK_MPI(MPI_Buffer_detach(&addr, &small_size));
	CHECK(addr == small);
	CHECK_INT(small_size, 4096);
	CHECK_MPI(MPI_Buffer_attach(small, 4000));
	CHECK_MPI(MPI_Buffer_detach_c(&addr, &size));
	CHECK(addr == small);
	CHECK_INT(size, 4000);

	/* MAP_NORESERVE: only the pages buffered messages are written to get backed. */
	huge = mmap(NULL, (size_t)HUGE_BYTES, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	CHECK(huge != MAP_FAILED);
	CHECK_MPI(MPI_Buffer_attach_c(huge, HUGE_BYTES));
	addr = NULL;
	small_size = -1;
	CHECK_CLASS(MPI_Buffer_detach(&addr, &small_size), MPI_ERR_VALUE_TOO_LARGE);
	CHECK(addr == NULL);
	CHECK_INT(small_size, -1);

	/* Still attached: a buffered send to ourselves goes through it. */
	for (int i = 0; i < N; i++)
		out[i] = rank * N + i;
	CHECK_MPI(MPI_Bsend_c(out, N, MPI_INT, rank, 5, MPI_COMM_WORLD));
	memset(out, 0, sizeof(out));
	CHECK_MPI(MPI_Recv_c(in, N, MPI_INT, rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	for (int i = 0; i < N; i++)
		CHECK_INT(in[i], rank * N + i);

	CHECK_MPI(MPI_Buffer_detach_c(&addr, &size));
	CHECK(addr == huge);
	CHECK_INT(size, HUGE_BYTES);
	/* Nothing is attached any more. */
	CHECK_CLASS(MPI_Bsend_c(out, 1, MPI_INT, rank, 6, MPI_COMM_WORLD), MPI_ERR_BUFFER);
	munmap(huge, (size_t)HUGE_BYTES);
	free(small);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
