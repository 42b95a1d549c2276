#!/bin/bash
# isendrecv_across_hosts_exchanges_values: on 2 hosts (network namespaces, ranks alternating between them), MPI_Isendrecv around a ring of 4 ranks (4 B, 60 KiB eager, 1 MiB rendezvous) and MPI_Isendrecv_replace through a vector datatype give the neighbours' values and the receive's status, completed by MPI_Wait, MPI_Waitall and a loop of MPI_Test.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build isr <<'SRC'
#include <stdint.h>
#include "check.h"

static int32_t val(int from, int round, int i) { return (int32_t)(from * 1000003 + round * 7919 + i); }

int main(int argc, char **argv)
{
	int rank, size, count;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	int ns[3] = { 1, 15 * 1024, 256 * 1024 };
	int32_t *out = malloc(256 * 1024 * 4), *in = malloc(256 * 1024 * 4);
	CHECK(out && in);
	for (int round = 0; round < 9; round++) {
		int n = ns[round % 3], flag = 0;
		MPI_Request req;
		MPI_Status st;
		for (int i = 0; i < n; i++) {
			out[i] = val(rank, round, i);
			in[i] = -1;
		}
		CHECK_MPI(MPI_Isendrecv(out, n, MPI_INT32_T, right, round, in, n, MPI_INT32_T, left,
					round, MPI_COMM_WORLD, &req));
		if (round / 3 == 0) {
			CHECK_MPI(MPI_Wait(&req, &st));
		} else if (round / 3 == 1) {
			MPI_Request two[2] = { req, MPI_REQUEST_NULL };
			MPI_Status sts[2];
			CHECK_MPI(MPI_Waitall(2, two, sts));
			st = sts[0];
		} else {
			double t0 = MPI_Wtime();
			while (!flag) {
				CHECK_MPI(MPI_Test(&req, &flag, &st));
				CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
			}
		}
		CHECK_INT(st.MPI_SOURCE, left);
		CHECK_INT(st.MPI_TAG, round);
		CHECK_MPI(MPI_Get_count(&st, MPI_INT32_T, &count));
		CHECK_INT(count, n);
		for (int i = 0; i < n; i++)
			if (in[i] != val(left, round, i))
				CHECK_INT(in[i], val(left, round, i));
	}
	/* In place through a vector: 64 KiB of every other int. */
	{
		int n = 16 * 1024;
		MPI_Datatype vec;
		MPI_Request req;
		CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT32_T, &vec));
		CHECK_MPI(MPI_Type_commit(&vec));
		for (int i = 0; i < 2 * n; i++)
			out[i] = i % 2 ? -7 : val(rank, 50, i / 2);
		CHECK_MPI(MPI_Isendrecv_replace(out, 1, vec, right, 50, left, 50, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; i < 2 * n; i++)
			if (out[i] != (i % 2 ? -7 : val(left, 50, i / 2)))
				CHECK_INT(out[i], i % 2 ? -7 : val(left, 50, i / 2));
		MPI_Type_free(&vec);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d of %d: ok\n", rank, size);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
hosts=$(IFS=,; echo "${NS_HOSTS[*]:0:2}")
run -t 90 "${NETNS_MPIEXEC[@]}" -H "$hosts" -ppn 2 --map-by node "$TEST_TMP/isr"
expect_rc 0
expect_out_count '^rank [0-9]+ of 4: ok$' 4
exit 0
