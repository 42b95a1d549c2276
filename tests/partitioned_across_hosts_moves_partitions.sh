#!/bin/bash
# partitioned_across_hosts_moves_partitions: on 2 hosts (network namespaces, ranks alternating, so each rank's neighbours are on the other host), partitioned sends of 8 partitions received as 4 (16 B and 800 KiB in all, pieces above the 64 KiB chunk), 6 epochs with the receive started before or after the readies, readied in reverse, by range, by list and by 4 threads at once (MPI_THREAD_MULTIPLE); MPI_Parrived turns true per partition, two channels with one tag match in init order; values checked; a receive whose sender's partitions add up to fewer bytes ends in MPI_ERR_TRUNCATE.
# timeout: 180
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build part <<'SRC'
#include <pthread.h>
#include <stdint.h>
#include "check.h"

#define SPARTS 8
#define RPARTS 4

static int rank, size, left, right, epoch, n;
static int32_t *sbuf, *rbuf;
static MPI_Request sreq, rreq;

static int32_t val(int from, int e, int i) { return (int32_t)(from * 1000003 + e * 7919 + i); }

static void *readier(void *arg)
{
	int t = (int)(intptr_t)arg;
	for (int p = t; p < SPARTS; p += 4)
		CHECK_MPI(MPI_Pready(p, sreq));
	return NULL;
}

static void exchange(void)
{
	int token = 0, recv_first = epoch % 2;
	double t0;
	for (int i = 0; i < n; i++) {
		sbuf[i] = val(rank, epoch, i);
		rbuf[i] = -1;
	}
	if (recv_first)
		CHECK_MPI(MPI_Start(&rreq));
	CHECK_MPI(MPI_Start(&sreq));
	switch (epoch / 2) {
	case 0:
		for (int p = SPARTS - 1; p >= 0; p--)
			CHECK_MPI(MPI_Pready(p, sreq));
		break;
	case 1: {
		int list[4] = { 3, 1, 0, 2 };
		CHECK_MPI(MPI_Pready_range(4, 7, sreq));
		CHECK_MPI(MPI_Pready_list(4, list, sreq));
		break;
	}
	case 2: {
		pthread_t th[4];
		for (int t = 0; t < 4; t++)
			CHECK_INT(pthread_create(&th[t], NULL, readier, (void *)(intptr_t)t), 0);
		for (int t = 0; t < 4; t++)
			CHECK_INT(pthread_join(th[t], NULL), 0);
		break;
	}
	}
	if (!recv_first)
		CHECK_MPI(MPI_Start(&rreq));
	t0 = MPI_Wtime();
	for (int j = 0; j < RPARTS; j++) {
		int flag = 0;
		while (!flag) {
			CHECK_MPI(MPI_Parrived(rreq, j, &flag));
			CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
		}
	}
	CHECK_MPI(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
	for (int i = 0; i < n; i++)
		if (rbuf[i] != val(left, epoch, i))
			CHECK_INT(rbuf[i], val(left, epoch, i));
	CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, left, 1, &token, 1, MPI_INT, right, 1,
			       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

int main(int argc, char **argv)
{
	int provided, ns[2] = { 4, 200 * 1024 };
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	for (int k = 0; k < 2; k++) {
		n = ns[k] * 2;                       /* 8 partitions of n/8 ints */
		sbuf = malloc((size_t)n * 4);
		rbuf = malloc((size_t)n * 4);
		CHECK(sbuf && rbuf);
		CHECK_MPI(MPI_Psend_init(sbuf, SPARTS, n / SPARTS, MPI_INT32_T, right, 5 + k,
					 MPI_COMM_WORLD, MPI_INFO_NULL, &sreq));
		CHECK_MPI(MPI_Precv_init(rbuf, RPARTS, n / RPARTS, MPI_INT32_T, left, 5 + k,
					 MPI_COMM_WORLD, MPI_INFO_NULL, &rreq));
		for (epoch = 0; epoch < 6; epoch++)
			exchange();
		CHECK_MPI(MPI_Request_free(&sreq));
		CHECK_MPI(MPI_Request_free(&rreq));
		free(sbuf);
		free(rbuf);
	}
	/* Two channels with one tag: the first send's data lands in the first receive. */
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
	/* Totals that differ (32 sent, 64 expected): the receive ends in MPI_ERR_TRUNCATE
	 * instead of waiting for bytes that never come; the send completes. */
	{
		int32_t s32[32] = { 0 }, r64[64];
		MPI_Comm ret;
		MPI_Request q[2];
		MPI_Status st;
		int cls;
		CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &ret));
		CHECK_MPI(MPI_Comm_set_errhandler(ret, MPI_ERRORS_RETURN));
		CHECK_MPI(MPI_Psend_init(s32, 2, 16, MPI_INT32_T, right, 11, ret, MPI_INFO_NULL,
					 &q[0]));
		CHECK_MPI(MPI_Precv_init(r64, 2, 32, MPI_INT32_T, left, 11, ret, MPI_INFO_NULL,
					 &q[1]));
		CHECK_MPI(MPI_Startall(2, q));
		CHECK_MPI(MPI_Pready_range(0, 1, q[0]));
		CHECK_MPI(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
		MPI_Error_class(MPI_Wait(&q[1], &st), &cls);
		CHECK_INT(cls, MPI_ERR_TRUNCATE);
		for (int k = 0; k < 2; k++)
			CHECK_MPI(MPI_Request_free(&q[k]));
		/* `ret` stays: the refused send's data is still on its way to it. */
	}
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d of %d: ok\n", rank, size);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
hosts=$(IFS=,; echo "${NS_HOSTS[*]:0:2}")
run -t 150 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 2 --map-by node "$TEST_TMP/part"
expect_rc 0
expect_out_count '^rank [0-9]+ of 4: ok$' 4
exit 0
