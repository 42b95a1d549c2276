/* coll_allgather_alltoall_exchange_blocks: Allgather(v) and Alltoall(v/w) deliver block k
 * from rank k on every rank, also with MPI_IN_PLACE, with blocks that ranks describe with
 * different types of the same bytes, and Alltoallw with mixed types. */
/* ranks: 1 2 3 4 7 8 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int *r = malloc(sizeof(int) * 4 * size), *s = malloc(sizeof(int) * 4 * size);
	int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
	int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
	MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * size),
		     *rt = malloc(sizeof(MPI_Datatype) * size);

	int mine[2] = { rank, -rank };
	CHECK_MPI(MPI_Allgather(mine, 2, MPI_INT, r, 2, MPI_INT, MPI_COMM_WORLD));
	for (int k = 0; k < size; k++) {
		CHECK_INT(r[2 * k], k);
		CHECK_INT(r[2 * k + 1], -k);
	}
	memset(r, 0, sizeof(int) * 2 * size);
	r[2 * rank] = rank * 5;
	r[2 * rank + 1] = rank * 6;
	CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, 2, MPI_INT, MPI_COMM_WORLD));
	for (int k = 0; k < size; k++) {
		CHECK_INT(r[2 * k], k * 5);
		CHECK_INT(r[2 * k + 1], k * 6);
	}
	/* Two ints a block, described by each rank its own way: as 2 MPI_INT, as one
	 * contiguous pair, or as one vector of 2 ints with stride 1; the receive side another
	 * way again. */
	MPI_Datatype pair, vec;
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	CHECK_MPI(MPI_Type_vector(2, 1, 1, MPI_INT, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	MPI_Datatype how[3] = { MPI_INT, pair, vec };
	int per[3] = { 2, 1, 1 };
	int sk = rank % 3, rk = (rank + 1) % 3;
	memset(r, 0xff, sizeof(int) * 2 * size);
	CHECK_MPI(MPI_Allgather(mine, per[sk], how[sk], r, per[rk], how[rk], MPI_COMM_WORLD));
	for (int k = 0; k < size; k++) {
		CHECK_INT(r[2 * k], k);
		CHECK_INT(r[2 * k + 1], -k);
	}
	for (int j = 0; j < size; j++) {
		s[2 * j] = 1000 * rank + j;
		s[2 * j + 1] = -(1000 * rank + j);
	}
	memset(r, 0xff, sizeof(int) * 2 * size);
	CHECK_MPI(MPI_Alltoall(s, per[sk], how[sk], r, per[rk], how[rk], MPI_COMM_WORLD));
	for (int i = 0; i < size; i++) {
		CHECK_INT(r[2 * i], 1000 * i + rank);
		CHECK_INT(r[2 * i + 1], -(1000 * i + rank));
	}
	CHECK_MPI(MPI_Type_free(&pair));
	CHECK_MPI(MPI_Type_free(&vec));
	/* Allgatherv: rank k contributes k % 2 + 1 ints at displacement 2(size-1-k). */
	for (int k = 0; k < size; k++) {
		rc[k] = k % 2 + 1;
		rd[k] = 2 * (size - 1 - k);
	}
	memset(r, 0xff, sizeof(int) * 2 * size);
	CHECK_MPI(MPI_Allgatherv(mine, rank % 2 + 1, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD));
	for (int k = 0; k < size; k++) {
		CHECK_INT(r[rd[k]], k);
		CHECK_INT(r[rd[k] + 1], k % 2 ? -k : -1);
	}
	/* Alltoall: block j of rank i's send is 1000 i + j, arriving as block i at j. */
	for (int j = 0; j < size; j++)
		s[j] = 1000 * rank + j;
	CHECK_MPI(MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD));
	for (int i = 0; i < size; i++)
		CHECK_INT(r[i], 1000 * i + rank);
	for (int j = 0; j < size; j++)
		r[j] = 1000 * rank + j;
	CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, 1, MPI_INT, MPI_COMM_WORLD));
	for (int i = 0; i < size; i++)
		CHECK_INT(r[i], 1000 * i + rank);
	/* Alltoallv: rank i sends j % 3 ints to rank j; they land at rank j reversed. */
	int off = 0;
	for (int j = 0; j < size; j++) {
		sc[j] = j % 3;
		sd[j] = off;
		for (int t = 0; t < sc[j]; t++)
			s[off + t] = 100 * rank + 10 * j + t;
		off += sc[j];
	}
	for (int i = 0; i < size; i++) {
		rc[i] = rank % 3;
		rd[i] = (size - 1 - i) * 3;
	}
	memset(r, 0xff, sizeof(int) * 3 * size);
	CHECK_MPI(MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, MPI_COMM_WORLD));
	for (int i = 0; i < size; i++)
		for (int t = 0; t < 3; t++)
			CHECK_INT(r[(size - 1 - i) * 3 + t],
				  t < rank % 3 ? 100 * i + 10 * rank + t : -1);
	/* Alltoallv in place: each pair exchanges 2 ints. */
	for (int i = 0; i < size; i++) {
		rc[i] = 2;
		rd[i] = 2 * i;
		r[2 * i] = rank;
		r[2 * i + 1] = i;
	}
	CHECK_MPI(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, r, rc, rd, MPI_INT,
				MPI_COMM_WORLD));
	for (int i = 0; i < size; i++) {
		CHECK_INT(r[2 * i], i);
		CHECK_INT(r[2 * i + 1], rank);
	}
	/* Alltoallw: to even ranks one int, to odd ranks one short; byte displacements. */
	short *ss = (short *)s, *rs = (short *)r;
	for (int j = 0; j < size; j++) {
		sc[j] = 1;
		rc[j] = 1;
		st[j] = rank % 2 ? MPI_SHORT : MPI_INT;
		rt[j] = st[j];
		sd[j] = j * 4;
		rd[j] = j * 4;
		if (rank % 2)
			ss[2 * j] = (short)(rank * 3 + j);
		else
			s[j] = rank * 3 + j;
	}
	/* What rank j receives from i has j's send type: signature must match, so everyone
	 * uses the receiver's parity. */
	for (int j = 0; j < size; j++)
		st[j] = j % 2 ? MPI_SHORT : MPI_INT;
	for (int j = 0; j < size; j++) {
		if (j % 2)
			ss[2 * j] = (short)(rank * 3 + j);
		else
			s[j] = rank * 3 + j;
	}
	memset(r, 0, sizeof(int) * size);
	CHECK_MPI(MPI_Alltoallw(s, sc, sd, st, r, rc, rd, rt, MPI_COMM_WORLD));
	for (int i = 0; i < size; i++)
		CHECK_INT(rank % 2 ? rs[2 * i] : r[i], i * 3 + rank);
	free(r); free(s); free(sc); free(sd); free(rc); free(rd); free(st); free(rt);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
