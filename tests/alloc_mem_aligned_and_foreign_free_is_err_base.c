/* alloc_mem_aligned_and_foreign_free_is_err_base: MPI_Alloc_mem returns distinct blocks
 * aligned to 64 bytes (also of size 0), or to the info hint mpi_minimum_memory_alignment,
 * that MPI_Free_mem frees, from every rank at once; MPI_Free_mem of a pointer
 * MPI_Alloc_mem did not return, or of a block freed already, is MPI_ERR_BASE (raised on
 * MPI_COMM_SELF, as calls on no object are), not a crash; MPI_Free_mem(NULL) succeeds;
 * a negative size is MPI_ERR_SIZE and an invalid info MPI_ERR_INFO. */
/* ranks: 1 2 8 64 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
	char *p[40], *q, stack[64];
	MPI_Info info;

	CHECK_MPI(MPI_Init(&argc, &argv));
	memset(stack, 0, sizeof(stack));
	for (int i = 0; i < 40; i++) {
		/* Enough blocks that the registry grows while they live. */
		CHECK_MPI(MPI_Alloc_mem(i * 37, MPI_INFO_NULL, &p[i]));
		CHECK(p[i] != NULL);
		CHECK_INT((uintptr_t)p[i] % 64, 0);
		memset(p[i], i, (size_t)i * 37);
		for (int j = 0; j < i; j++)
			CHECK(p[i] != p[j]);
	}
	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "mpi_minimum_memory_alignment", "4096"));
	CHECK_MPI(MPI_Alloc_mem(1000, info, &q));
	CHECK_INT((uintptr_t)q % 4096, 0);
	CHECK_MPI(MPI_Info_free(&info));

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Free_mem(stack), MPI_ERR_BASE);
	CHECK_CLASS(MPI_Free_mem(q + 64), MPI_ERR_BASE);
	char *m = malloc(64);
	CHECK_CLASS(MPI_Free_mem(m), MPI_ERR_BASE);
	free(m);
	CHECK_MPI(MPI_Free_mem(q));
	CHECK_CLASS(MPI_Free_mem(q), MPI_ERR_BASE);
	CHECK_MPI(MPI_Free_mem(NULL));
	CHECK_CLASS(MPI_Alloc_mem(-1, MPI_INFO_NULL, &q), MPI_ERR_SIZE);
	CHECK_CLASS(MPI_Alloc_mem(8, (MPI_Info)stack, &q), MPI_ERR_INFO);

	for (int i = 0; i < 40; i++) {
		for (int k = 0; k < i * 37; k++)
			CHECK_INT(p[i][k], i);
		CHECK_MPI(MPI_Free_mem(p[i]));
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
