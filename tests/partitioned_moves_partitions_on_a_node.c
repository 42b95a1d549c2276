/* Partitioned communication on a node: each rank sends to its right neighbour in 8 partitions and receives from its left in 4 (same bytes), over 6 epochs of MPI_Startall/Wait with partitions readied one by one in reverse, by MPI_Pready_range and by MPI_Pready_list, the receiver started before or after the sender readies; MPI_Parrived turns true per partition; a vector datatype on the send side; two sends with one tag match the receives in init order; MPI_PROC_NULL; requests freed and made again. */
/* ranks: 1 2 4 16 64 */
/* timeout: 180 */
#include <stdint.h>
#include "check.h"

#define SPARTS 8
#define RPARTS 4
#define N 4096                         /* ints in the message */

static int rank, size, left, right;

static int32_t val(int from, int epoch, int i)
{
	return (int32_t)(from * 1000003 + epoch * 7919 + i);
}

/* Wait until every receive partition of `rreq` has arrived, polling MPI_Parrived. */
static void await_partitions(MPI_Request rreq, int parts)
{
	double t0 = MPI_Wtime();
	for (int j = 0; j < parts; j++) {
		int flag = 0;
		while (!flag) {
			CHECK_MPI(MPI_Parrived(rreq, j, &flag));
			CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
		}
	}
}

int main(int argc, char **argv)
{
	int32_t *sbuf = malloc(2 * N * sizeof(int32_t)), *rbuf = malloc(N * sizeof(int32_t));
	MPI_Request req[2];
	MPI_Datatype vec;
	MPI_Status st;
	int token = 0, count;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	CHECK(sbuf && rbuf);

	/* The send is 8 partitions of N/8 ints taken from every other int of sbuf. */
	CHECK_MPI(MPI_Type_vector(N / SPARTS, 1, 2, MPI_INT32_T, &vec));
	CHECK_MPI(MPI_Type_create_resized(vec, 0, (MPI_Aint)(N / SPARTS) * 2 * sizeof(int32_t),
					  &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	CHECK_MPI(MPI_Psend_init(sbuf, SPARTS, 1, vec, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &req[0]));
	CHECK_MPI(MPI_Precv_init(rbuf, RPARTS, N / RPARTS, MPI_INT32_T, left, 5, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &req[1]));
	CHECK_MPI(MPI_Type_free(&vec));  /* the request holds it */

	for (int epoch = 0; epoch < 6; epoch++) {
		for (int i = 0; i < 2 * N; i++)
			sbuf[i] = i % 2 ? -7 : val(rank, epoch, i / 2);
		for (int i = 0; i < N; i++)
			rbuf[i] = -1;
		int recv_first = epoch % 2;
		if (recv_first) {
			CHECK_MPI(MPI_Start(&req[1]));
			/* Everyone's receive is started before anyone readies. */
			CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, right, 1, &token, 1, MPI_INT, left, 1,
					       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Start(&req[0]));
		} else {
			CHECK_MPI(MPI_Start(&req[0]));
		}
		switch (epoch / 2) {
		case 0:
			for (int i = SPARTS - 1; i >= 0; i--)
				CHECK_MPI(MPI_Pready(i, req[0]));
			break;
		case 1:
			CHECK_MPI(MPI_Pready_range(4, 7, req[0]));
			CHECK_MPI(MPI_Pready_range(0, 3, req[0]));
			break;
		case 2: {
			int list[SPARTS] = { 3, 1, 7, 5, 0, 2, 4, 6 };
			CHECK_MPI(MPI_Pready_list(SPARTS, list, req[0]));
			break;
		}
		}
		if (!recv_first) {
			/* Everyone has readied before anyone starts its receive: the receiver's
			 * MPI_Start copies. */
			CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, right, 1, &token, 1, MPI_INT, left, 1,
					       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Start(&req[1]));
		}
		await_partitions(req[1], RPARTS);
		CHECK_MPI(MPI_Wait(&req[1], &st));
		CHECK(req[1] != MPI_REQUEST_NULL);  /* persistent */
		CHECK_INT(st.MPI_SOURCE, left);
		CHECK_INT(st.MPI_TAG, 5);
		CHECK_MPI(MPI_Get_count(&st, MPI_INT32_T, &count));
		CHECK_INT(count, N);
		CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
		for (int i = 0; i < N; i++)
			if (rbuf[i] != val(left, epoch, i))
				CHECK_INT(rbuf[i], val(left, epoch, i));
		/* Inactive again: its partitions read as arrived. */
		int flag = 0;
		CHECK_MPI(MPI_Parrived(req[1], 0, &flag));
		CHECK_INT(flag, 1);
		/* The left neighbour may start its next epoch only once ours is read. */
		CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, left, 2, &token, 1, MPI_INT, right, 2,
				       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_Request_free(&req[0]));
	CHECK_MPI(MPI_Request_free(&req[1]));

	/* Two channels with one tag match in init order: the first send's data lands in the
	 * first receive. Startall on all four, readied in reverse. */
	{
		int32_t a[64], b[64], ra[64], rb[64];
		MPI_Request q[4];
		for (int i = 0; i < 64; i++) {
			a[i] = val(rank, 100, i);
			b[i] = val(rank, 200, i);
			ra[i] = rb[i] = -1;
		}
		CHECK_MPI(MPI_Psend_init(a, 2, 32, MPI_INT32_T, right, 9, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &q[0]));
		CHECK_MPI(MPI_Precv_init(ra, 1, 64, MPI_INT32_T, left, 9, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &q[1]));
		CHECK_MPI(MPI_Psend_init(b, 4, 16, MPI_INT32_T, right, 9, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &q[2]));
		CHECK_MPI(MPI_Precv_init(rb, 8, 8, MPI_INT32_T, left, 9, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &q[3]));
		CHECK_MPI(MPI_Startall(4, q));
		CHECK_MPI(MPI_Pready_range(0, 3, q[2]));
		CHECK_MPI(MPI_Pready_range(0, 1, q[0]));
		CHECK_MPI(MPI_Waitall(4, q, MPI_STATUSES_IGNORE));
		for (int i = 0; i < 64; i++) {
			CHECK_INT(ra[i], val(left, 100, i));
			CHECK_INT(rb[i], val(left, 200, i));
		}
		for (int k = 0; k < 4; k++)
			CHECK_MPI(MPI_Request_free(&q[k]));
	}

	/* MPI_PROC_NULL on either side completes at once. */
	{
		int32_t x[4] = { 1, 2, 3, 4 };
		MPI_Request q[2];
		CHECK_MPI(MPI_Psend_init(x, 2, 2, MPI_INT32_T, MPI_PROC_NULL, 3, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &q[0]));
		CHECK_MPI(MPI_Precv_init(x, 2, 2, MPI_INT32_T, MPI_PROC_NULL, 3, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &q[1]));
		CHECK_MPI(MPI_Startall(2, q));
		CHECK_MPI(MPI_Pready(1, q[0]));
		CHECK_MPI(MPI_Pready(0, q[0]));
		CHECK_MPI(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Wait(&q[1], &st));
		CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
		CHECK_INT(x[0], 1);
		CHECK_MPI(MPI_Request_free(&q[0]));
		CHECK_MPI(MPI_Request_free(&q[1]));
	}

	MPI_Barrier(MPI_COMM_WORLD);
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
