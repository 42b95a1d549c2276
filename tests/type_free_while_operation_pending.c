/* type_free_while_operation_pending: MPI_Type_free right after a nonblocking large send, a
 * nonblocking receive or a persistent request with a derived type lets them complete normally
 * (MPI 4.1 5.1.10), with the right data. */
/* ranks: 2 */
#include "check.h"

#define N (64 * 1024)   /* 64 Ki doubles every other one: 512 KiB of data */

int main(int argc, char **argv)
{
	int rank;
	double *a = malloc(sizeof(double) * 4 * N), *b = malloc(sizeof(double) * N);
	MPI_Datatype t;
	MPI_Request rq;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (long i = 0; i < 2 * N; i++)
		a[i] = i;
	if (rank == 0) {
		CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		CHECK_MPI(MPI_Isend(a, 1, t, 1, 1, MPI_COMM_WORLD, &rq));
		CHECK_MPI(MPI_Type_free(&t));
		/* Give the receiver time to post late: the send is still pending. */
		CHECK_MPI(MPI_Send(a, 0, MPI_INT, 1, 2, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));

		/* persistent send */
		CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		CHECK_MPI(MPI_Send_init(a + 1, 1, t, 1, 3, MPI_COMM_WORLD, &rq));
		CHECK_MPI(MPI_Type_free(&t));
		for (int k = 0; k < 2; k++) {
			CHECK_MPI(MPI_Start(&rq));
			CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
		}
		CHECK_MPI(MPI_Request_free(&rq));
		CHECK_MPI(MPI_Send(b, 0, MPI_INT, 1, 4, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(a, N, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD));
	} else {
		CHECK_MPI(MPI_Recv(b, 0, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Recv(b, N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		for (long i = 0; i < N; i++)
			CHECK(b[i] == 2.0 * i);
		for (int k = 0; k < 2; k++) {
			CHECK_MPI(MPI_Recv(b, N, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			for (long i = 0; i < N; i++)
				CHECK(b[i] == 2.0 * i + 1);
		}
		/* nonblocking receive into a strided layout, type freed before the data comes */
		CHECK_MPI(MPI_Type_vector(N / 2, 1, 4, MPI_DOUBLE, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		for (long i = 0; i < 4 * N; i++)
			a[i] = -1;
		CHECK_MPI(MPI_Irecv(a, 2, t, 0, 5, MPI_COMM_WORLD, &rq));
		CHECK_MPI(MPI_Type_free(&t));
		CHECK_MPI(MPI_Recv(b, 0, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
		/* element 0 covers a[0], a[4], ...; element 1 starts one extent later */
		long ext = (long)(N / 2 - 1) * 4 + 1;
		for (long i = 0; i < N / 2; i++) {
			CHECK(a[i * 4] == (double)i);
			CHECK(a[ext + i * 4] == (double)(N / 2 + i));
			CHECK(a[i * 4 + 2] == -1);
		}
	}
	MPI_Finalize();
	free(a);
	free(b);
	return 0;
}
