/* rank_globals_are_private: each rank has its own globals, statics and __thread variables. */
/* ranks: 1 2 4 64 */
#include "check.h"

int global_value = -1;          /* initialised data */
long global_bss;                /* zero-initialised data */
__thread int tls_value = -1;    /* thread-local, initialised */
__thread long tls_bss;          /* thread-local, zero */
static int file_static = -1;

static int *local_static(void)
{
	static int value = -1;
	return &value;
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* Every copy starts from the program's initial values, untouched by other ranks. */
	CHECK_INT(global_value, -1);
	CHECK_INT(global_bss, 0);
	CHECK_INT(tls_value, -1);
	CHECK_INT(tls_bss, 0);
	CHECK_INT(file_static, -1);
	CHECK_INT(*local_static(), -1);
	check_barrier(MPI_COMM_WORLD, 1);

	global_value = rank;
	global_bss = 1000L + rank;
	tls_value = 2 * rank;
	tls_bss = 3L * rank;
	file_static = rank + 7;
	*local_static() = rank + 11;

	/* Everyone has written; any sharing would now show another rank's value. */
	check_barrier(MPI_COMM_WORLD, 2);
	for (int i = 0; i < 3; i++) {
		CHECK_INT(global_value, rank);
		CHECK_INT(global_bss, 1000L + rank);
		CHECK_INT(tls_value, 2 * rank);
		CHECK_INT(tls_bss, 3L * rank);
		CHECK_INT(file_static, rank + 7);
		CHECK_INT(*local_static(), rank + 11);
		check_barrier(MPI_COMM_WORLD, 3);
	}

	/* Addresses differ between ranks: send ours to rank 0 for comparison. */
	unsigned long long addr[2] = { (unsigned long long)(uintptr_t)&global_value,
				       (unsigned long long)(uintptr_t)&tls_value };
	if (rank == 0) {
		for (int src = 1; src < size; src++) {
			unsigned long long other[2];
			CHECK_MPI(MPI_Recv(other, 2, MPI_UNSIGNED_LONG_LONG, src, 4,
					   MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CHECK(other[0] != addr[0]);
			CHECK(other[1] != addr[1]);
		}
	} else {
		CHECK_MPI(MPI_Send(addr, 2, MPI_UNSIGNED_LONG_LONG, 0, 4, MPI_COMM_WORLD));
	}

	CHECK_MPI(MPI_Finalize());
	return 0;
}
