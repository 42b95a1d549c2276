/* self_messages: a rank can send to itself (Isend then Recv, small and large; Send of a small
 * message then Recv; Sendrecv to itself), on MPI_COMM_WORLD and MPI_COMM_SELF. */
/* ranks: 1 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	MPI_Comm comms[2] = { MPI_COMM_WORLD, MPI_COMM_SELF };
	for (int c = 0; c < 2; c++) {
		MPI_Comm comm = comms[c];
		int me = c == 0 ? rank : 0;
		static const int lens[] = { 1, 100, 1 << 20 };
		for (int l = 0; l < 3; l++) {
			int n = lens[l];
			int *out = malloc(n * sizeof(int)), *in = calloc(n, sizeof(int));
			for (int i = 0; i < n; i++)
				out[i] = rank + i;
			MPI_Request r;
			MPI_Status st;
			CHECK_MPI(MPI_Isend(out, n, MPI_INT, me, l, comm, &r));
			CHECK_MPI(MPI_Recv(in, n, MPI_INT, me, l, comm, &st));
			CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
			CHECK_INT(st.MPI_SOURCE, me);
			CHECK_INT(st.MPI_TAG, l);
			CHECK_INT(in[0], rank);
			CHECK_INT(in[n - 1], rank + n - 1);

			/* Irecv first, then a blocking Send to self. */
			memset(in, 0, n * sizeof(int));
			CHECK_MPI(MPI_Irecv(in, n, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &r));
			CHECK_MPI(MPI_Send(out, n, MPI_INT, me, 10 + l, comm));
			CHECK_MPI(MPI_Wait(&r, &st));
			CHECK_INT(st.MPI_SOURCE, me);
			CHECK_INT(st.MPI_TAG, 10 + l);
			CHECK_INT(in[n - 1], rank + n - 1);

			memset(in, 0, n * sizeof(int));
			CHECK_MPI(MPI_Sendrecv(out, n, MPI_INT, me, 20, in, n, MPI_INT, me, 20, comm, &st));
			CHECK_INT(in[n - 1], rank + n - 1);
			free(out);
			free(in);
		}
		/* A small blocking Send to self then Recv (the send is buffered eagerly). */
		int v = 77 + rank, w = 0;
		CHECK_MPI(MPI_Send(&v, 1, MPI_INT, me, 30, comm));
		CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, me, 30, comm, MPI_STATUS_IGNORE));
		CHECK_INT(w, 77 + rank);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
