/* coll_small_bcast_root_runs_ahead_of_readers: small blocking Bcasts return at the root before any reader has arrived, and readers arriving late still get every round's data in order */
/* ranks: 1 2 3 4 64 128 */
/* Rank 0 broadcasts 4 rounds before any other rank calls MPI_Bcast: they wait for its
 * message (TAG_DONE) saying it is through, so a root that waited for readers would never
 * be (the job would end as a deadlock). Then 200 rounds (more than any ring
 * holds) of sizes from 1 B to 8 KiB, crossing the ring's limit so ring and meeting rounds
 * interleave, rotate the root, change the contents every round, and receive into a strided
 * vector type on odd ranks; every rank checks every byte. */
#include "check.h"

#define ROUNDS 200
#define TAG_DONE 5
#define MAXN 2048   /* ints: 8 KiB */

static int value(int round, int i)
{
	return round * 7919 + i * 31 + 1;
}

int main(int argc, char **argv)
{
	int rank, size;
	static int buf[2 * MAXN];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	if (rank == 0) {
		for (int k = 0; k < 4; k++) {
			buf[0] = k;
			CHECK_MPI(MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD));
		}
		for (int p = 1; p < size; p++)
			CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, p, TAG_DONE, MPI_COMM_WORLD));
	} else {
		CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		for (int k = 0; k < 4; k++) {
			buf[0] = -1;
			CHECK_MPI(MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD));
			CHECK_INT(buf[0], k);
		}
	}

	for (int k = 0; k < ROUNDS; k++) {
		int root = (k / 3) % size, n = 1 + (k * 37) % MAXN;
		if (k % 5 == 0)
			n = (k * 11) % 3 == 0 ? 1 : 1024;  /* exactly 4 KiB, the default limit */
		if (rank == root) {
			for (int i = 0; i < n; i++)
				buf[i] = value(k, i);
			CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD));
		} else if (rank % 2) {
			MPI_Datatype t;
			CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &t));
			CHECK_MPI(MPI_Type_commit(&t));
			memset(buf, 0xff, sizeof(buf));
			CHECK_MPI(MPI_Bcast(buf, 1, t, root, MPI_COMM_WORLD));
			for (int i = 0; i < n; i++) {
				CHECK_INT(buf[2 * i], value(k, i));
				CHECK_INT(buf[2 * i + 1], -1);
			}
			CHECK_MPI(MPI_Type_free(&t));
		} else {
			memset(buf, 0xff, sizeof(buf));
			CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD));
			for (int i = 0; i < n; i++)
				CHECK_INT(buf[i], value(k, i));
			CHECK_INT(buf[n], -1);
		}
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
