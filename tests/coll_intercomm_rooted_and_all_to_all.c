/* coll_intercomm_rooted_and_all_to_all: on an intercommunicator (even world ranks against
 * odd), Bcast, Gather, Scatter and Reduce follow MPI_ROOT / MPI_PROC_NULL root semantics,
 * Allreduce, Allgather and Alltoall deliver the other group's data, Barrier and
 * Reduce_scatter_block work, and Ibcast completes. */
/* ranks: 2 3 4 7 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, lrank, lsize, rsize;
	MPI_Comm half, inter;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int color = rank % 2;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half));
	CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, !color, 3, &inter));
	MPI_Comm_rank(inter, &lrank);
	MPI_Comm_size(inter, &lsize);
	MPI_Comm_remote_size(inter, &rsize);
	CHECK_MPI(MPI_Barrier(inter));

	/* Bcast from local rank 0 of the even group to the odd group. */
	int v = -1, root = color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	if (color == 0 && lrank == 0)
		v = 1234;
	CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, root, inter));
	CHECK_INT(v, color == 1 || lrank == 0 ? 1234 : -1);
	MPI_Request q;
	v = color == 1 && lrank == 0 ? 99 : -1;
	root = color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	CHECK_MPI(MPI_Ibcast(&v, 1, MPI_INT, root, inter, &q));
	CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
	CHECK_INT(v, color == 0 || lrank == 0 ? 99 : -1);

	/* Gather to the odd group's rank 0 from every even rank, then scatter back. */
	int *all = malloc(sizeof(int) * (rsize + 1)), mine = 10 * lrank + 1;
	root = color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	CHECK_MPI(MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, root, inter));
	if (root == MPI_ROOT)
		for (int k = 0; k < rsize; k++)
			CHECK_INT(all[k], 10 * k + 1);
	if (root == MPI_ROOT)
		for (int k = 0; k < rsize; k++)
			all[k] = 5 * k;
	mine = -1;
	CHECK_MPI(MPI_Scatter(all, 1, MPI_INT, &mine, 1, MPI_INT, root, inter));
	if (color == 0)
		CHECK_INT(mine, 5 * lrank);
	/* Reduce of the even group's values at the odd root. */
	int s = -1, x = lrank + 1;
	CHECK_MPI(MPI_Reduce(&x, &s, 1, MPI_INT, MPI_SUM, root, inter));
	if (root == MPI_ROOT)
		CHECK_INT(s, rsize * (rsize + 1) / 2);

	/* Allreduce: each group gets the sum over the other group. */
	x = color == 0 ? 1 : 100;
	CHECK_MPI(MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, inter));
	CHECK_INT(s, rsize * (color == 0 ? 100 : 1));
	/* Allgather: the other group's local ranks in order. */
	int *g = malloc(sizeof(int) * rsize * 2);
	int me[2] = { lrank, color };
	CHECK_MPI(MPI_Allgather(me, 2, MPI_INT, g, 2, MPI_INT, inter));
	for (int k = 0; k < rsize; k++) {
		CHECK_INT(g[2 * k], k);
		CHECK_INT(g[2 * k + 1], !color);
	}
	/* Alltoall: block j goes to remote rank j. */
	int *so = malloc(sizeof(int) * rsize), *ro = malloc(sizeof(int) * rsize);
	for (int j = 0; j < rsize; j++)
		so[j] = 1000 * color + 10 * lrank + j;
	CHECK_MPI(MPI_Alltoall(so, 1, MPI_INT, ro, 1, MPI_INT, inter));
	for (int i = 0; i < rsize; i++)
		CHECK_INT(ro[i], 1000 * !color + 10 * i + lrank);
	/* Reduce_scatter_block: each group's vectors (one int per receiving rank) summed and
	 * scattered over the other group; |even| * 1 ints need |odd| == |even| or equal sums:
	 * use recvcount so that both totals match (lsize * rc == rsize * rc' when sizes
	 * differ, only run it for equal sizes). */
	if (lsize == rsize) {
		int *vec = malloc(sizeof(int) * rsize), out = -1;
		for (int j = 0; j < rsize; j++)
			vec[j] = j + lrank;
		CHECK_MPI(MPI_Reduce_scatter_block(vec, &out, 1, MPI_INT, MPI_SUM, inter));
		CHECK_INT(out, rsize * lrank + rsize * (rsize - 1) / 2);
		free(vec);
	}
	free(so); free(ro); free(g); free(all);
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&half));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
