/* any_source_matches_in_post_order: receives with MPI_ANY_SOURCE / MPI_ANY_TAG match in the
 * order they were posted, and their statuses name the actual source and tag. */
/* ranks: 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	if (rank == 0) {
		/* Post many wildcard receives before anything is sent; the k-th posted receive
		 * gets the k-th message to arrive from each sender, so per sender the values
		 * seen in posted order must be increasing. */
		int per = 4, n = (size - 1) * per;
		int *vals = malloc(n * 2 * sizeof(int));
		MPI_Request *reqs = malloc(n * sizeof(MPI_Request));
		MPI_Status *sts = malloc(n * sizeof(MPI_Status));
		for (int i = 0; i < n; i++)
			CHECK_MPI(MPI_Irecv(&vals[2 * i], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
					    MPI_COMM_WORLD, &reqs[i]));
		int go = 1;
		for (int d = 1; d < size; d++)
			CHECK_MPI(MPI_Send(&go, 1, MPI_INT, d, 0, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Waitall(n, reqs, sts));
		int *last = malloc(size * sizeof(int)), *seen = calloc(size, sizeof(int));
		for (int s = 0; s < size; s++)
			last[s] = -1;
		for (int i = 0; i < n; i++) {
			int src = sts[i].MPI_SOURCE;
			CHECK(src >= 1 && src < size);
			CHECK_INT(vals[2 * i], src);
			CHECK_INT(sts[i].MPI_TAG, 10 + vals[2 * i + 1]);
			CHECK_CMP(vals[2 * i + 1], >, last[src]);
			last[src] = vals[2 * i + 1];
			seen[src]++;
		}
		for (int s = 1; s < size; s++)
			CHECK_INT(seen[s], per);

		/* Messages already waiting: ANY_SOURCE with a specific tag takes only that tag. */
		for (int d = 1; d < size; d++)
			CHECK_MPI(MPI_Send(&go, 1, MPI_INT, d, 1, MPI_COMM_WORLD));
		for (int i = 1; i < size; i++) {
			int v[2];
			MPI_Status st;
			CHECK_MPI(MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, 200, MPI_COMM_WORLD, &st));
			CHECK_INT(st.MPI_TAG, 200);
			CHECK_INT(v[0], st.MPI_SOURCE);
			CHECK_INT(v[1], 200);
		}
		for (int i = 1; i < size; i++) {
			int v[2];
			MPI_Status st;
			CHECK_MPI(MPI_Recv(v, 2, MPI_INT, i, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
			CHECK_INT(st.MPI_SOURCE, i);
			CHECK_INT(st.MPI_TAG, 100);
			CHECK_INT(v[1], 100);
		}
		free(vals); free(reqs); free(sts); free(last); free(seen);
	} else {
		int go = 0;
		CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		for (int k = 0; k < 4; k++) {
			int v[2] = { rank, k };
			CHECK_MPI(MPI_Send(v, 2, MPI_INT, 0, 10 + k, MPI_COMM_WORLD));
		}
		CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		/* Tag 100 first, then tag 200: rank 0 asks for 200 first. */
		int a[2] = { rank, 100 }, b[2] = { rank, 200 };
		CHECK_MPI(MPI_Send(a, 2, MPI_INT, 0, 100, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(b, 2, MPI_INT, 0, 200, MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
