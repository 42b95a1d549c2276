/* wait_test_families_handle_null_entries: Wait/Test/Waitany/Testany/Waitall/Testall/Waitsome/
 * Testsome complete the right requests, skip MPI_REQUEST_NULL entries, report MPI_UNDEFINED
 * for all-null arrays and empty statuses for null requests; Request_get_status doesn't free. */
/* ranks: 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, partner;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;

	/* Arrays of only MPI_REQUEST_NULL. */
	MPI_Request nulls[3] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	MPI_Status st, sts[8];
	int idx = 5, flag = 0, outcount = 5, indices[8];

	CHECK_MPI(MPI_Wait(&nulls[0], &st));
	CHECK_EMPTY_STATUS(&st, MPI_ANY_SOURCE);
	CHECK_MPI(MPI_Test(&nulls[0], &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_EMPTY_STATUS(&st, MPI_ANY_SOURCE);
	CHECK_MPI(MPI_Waitany(3, nulls, &idx, &st));
	CHECK_INT(idx, MPI_UNDEFINED);
	CHECK_EMPTY_STATUS(&st, MPI_ANY_SOURCE);
	flag = 0;
	idx = 5;
	CHECK_MPI(MPI_Testany(3, nulls, &idx, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_INT(idx, MPI_UNDEFINED);
	CHECK_MPI(MPI_Waitall(3, nulls, sts));
	flag = 0;
	CHECK_MPI(MPI_Testall(3, nulls, &flag, sts));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Waitsome(3, nulls, &outcount, indices, sts));
	CHECK_INT(outcount, MPI_UNDEFINED);
	outcount = 5;
	CHECK_MPI(MPI_Testsome(3, nulls, &outcount, indices, sts));
	CHECK_INT(outcount, MPI_UNDEFINED);
	CHECK_MPI(MPI_Waitany(0, nulls, &idx, &st));
	CHECK_INT(idx, MPI_UNDEFINED);
	CHECK_MPI(MPI_Waitall(0, nulls, sts));
	flag = 0;
	CHECK_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_EMPTY_STATUS(&st, MPI_ANY_SOURCE);

	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}

	if (rank < partner) {
		/* Send values 0..5 with tags 0..5 whenever the partner asks for them. */
		for (int t = 0; t < 6; t++) {
			int go = 0;
			CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, partner, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			int v = 1000 + go;
			CHECK_MPI(MPI_Send(&v, 1, MPI_INT, partner, go, MPI_COMM_WORLD));
		}
	} else {
		int v[6] = { 0 };
		MPI_Request r[6] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL,
				     MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL };
		/* Receives for tags 1, 3, 4, 5 at indices 1, 3, 4, 5; 0 and 2 stay null. */
		for (int t = 1; t < 6; t++)
			if (t != 2)
				CHECK_MPI(MPI_Irecv(&v[t], 1, MPI_INT, partner, t, MPI_COMM_WORLD, &r[t]));

		/* Nothing sent yet: the Test family says "not yet". */
		flag = 1;
		CHECK_MPI(MPI_Testany(6, r, &idx, &flag, &st));
		CHECK_INT(flag, 0);
		CHECK_INT(idx, MPI_UNDEFINED);
		flag = 1;
		CHECK_MPI(MPI_Testall(6, r, &flag, sts));
		CHECK_INT(flag, 0);
		CHECK_MPI(MPI_Testsome(6, r, &outcount, indices, sts));
		CHECK_INT(outcount, 0);
		flag = 1;
		CHECK_MPI(MPI_Request_get_status(r[3], &flag, &st));
		CHECK_INT(flag, 0);

		/* Tag 3 arrives: Request_get_status sees it complete without freeing it. */
		int go = 3;
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, partner, 100, MPI_COMM_WORLD));
		flag = 0;
		while (!flag)
			CHECK_MPI(MPI_Request_get_status(r[3], &flag, &st));
		CHECK(r[3] != MPI_REQUEST_NULL);
		CHECK_INT(st.MPI_TAG, 3);
		CHECK_INT(st.MPI_SOURCE, partner);
		CHECK_INT(v[3], 1003);
		CHECK_MPI(MPI_Request_get_status(r[3], &flag, &st)); /* still there */
		CHECK_INT(flag, 1);
		CHECK_MPI(MPI_Waitany(6, r, &idx, &st));
		CHECK_INT(idx, 3);
		CHECK(r[3] == MPI_REQUEST_NULL);
		CHECK_INT(st.MPI_TAG, 3);

		/* Tag 5: Waitsome reports exactly index 5. */
		go = 5;
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, partner, 100, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Waitsome(6, r, &outcount, indices, sts));
		CHECK_INT(outcount, 1);
		CHECK_INT(indices[0], 5);
		CHECK_INT(sts[0].MPI_TAG, 5);
		CHECK_INT(v[5], 1005);
		CHECK(r[5] == MPI_REQUEST_NULL);

		/* Tag 1: Testany polled until it reports index 1. */
		go = 1;
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, partner, 100, MPI_COMM_WORLD));
		flag = 0;
		while (!flag)
			CHECK_MPI(MPI_Testany(6, r, &idx, &flag, &st));
		CHECK_INT(idx, 1);
		CHECK_INT(st.MPI_TAG, 1);
		CHECK_INT(v[1], 1001);

		/* Tag 4: Testsome polled; then Wait on the freed handle is a no-op. */
		go = 4;
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, partner, 100, MPI_COMM_WORLD));
		outcount = 0;
		while (outcount == 0)
			CHECK_MPI(MPI_Testsome(6, r, &outcount, indices, sts));
		CHECK_INT(outcount, 1);
		CHECK_INT(indices[0], 4);
		CHECK_INT(v[4], 1004);

		/* Now every entry is null: Waitany says MPI_UNDEFINED. */
		CHECK_MPI(MPI_Waitany(6, r, &idx, &st));
		CHECK_INT(idx, MPI_UNDEFINED);

		/* Tags 0 and 2 together through Waitall with nulls in between; status entries
		 * for null requests are empty. */
		CHECK_MPI(MPI_Irecv(&v[0], 1, MPI_INT, partner, 0, MPI_COMM_WORLD, &r[0]));
		CHECK_MPI(MPI_Irecv(&v[2], 1, MPI_INT, partner, 2, MPI_COMM_WORLD, &r[2]));
		go = 2;
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, partner, 100, MPI_COMM_WORLD));
		go = 0;
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, partner, 100, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Waitall(6, r, sts));
		for (int i = 0; i < 6; i++)
			CHECK(r[i] == MPI_REQUEST_NULL);
		CHECK_INT(sts[0].MPI_TAG, 0);
		CHECK_INT(sts[2].MPI_TAG, 2);
		CHECK_EMPTY_STATUS(&sts[1], MPI_ANY_SOURCE);
		CHECK_EMPTY_STATUS(&sts[5], MPI_ANY_SOURCE);
		CHECK_INT(v[0], 1000);
		CHECK_INT(v[2], 1002);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
