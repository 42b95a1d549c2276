/* MPI_Isendrecv and MPI_Isendrecv_replace (and their _c twins) exchange values around a ring (8 B, 64 KiB, 1 MiB; a vector datatype on one side; in place through a vector), with MPI_PROC_NULL on either side, and their one request completes through every Wait/Test form, MPI_Request_get_status, MPI_Request_free and MPI_Cancel; its status is the receive's, a truncated receive fails in MPI_Wait with MPI_ERR_TRUNCATE. */
/* ranks: 1 2 4 16 64 */
/* timeout: 180 */
#include <stdint.h>
#include "check.h"

static int rank, size, left, right;

static int32_t val(int from, int round, int i)
{
	return (int32_t)(from * 1000003 + round * 7919 + i);
}

/* Complete `req` by form `how`, returning its status. */
static void complete(MPI_Request *req, int how, MPI_Status *st)
{
	int flag = 0, index = -1, outcount = 0, indices[2];
	MPI_Request two[2] = { MPI_REQUEST_NULL, *req };
	MPI_Status sts[2];
	double t0 = MPI_Wtime();

	switch (how) {
	case 0:
		CHECK_MPI(MPI_Wait(req, st));
		break;
	case 1:
		while (!flag) {
			CHECK_MPI(MPI_Test(req, &flag, st));
			CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
		}
		break;
	case 2:
		CHECK_MPI(MPI_Waitall(2, two, sts));
		*st = sts[1];
		*req = two[1];
		break;
	case 3:
		CHECK_MPI(MPI_Waitany(2, two, &index, st));
		CHECK_INT(index, 1);
		*req = two[1];
		break;
	case 4:
		CHECK_MPI(MPI_Waitsome(2, two, &outcount, indices, sts));
		CHECK_INT(outcount, 1);
		CHECK_INT(indices[0], 1);
		*st = sts[0];
		*req = two[1];
		break;
	case 5:
		while (!flag) {
			CHECK_MPI(MPI_Testall(2, two, &flag, sts));
			CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
		}
		*st = sts[1];
		*req = two[1];
		break;
	case 6:
		while (!flag) {
			CHECK_MPI(MPI_Testany(2, two, &index, &flag, st));
			CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
		}
		CHECK_INT(index, 1);
		*req = two[1];
		break;
	case 7:
		while (outcount == 0) {
			CHECK_MPI(MPI_Testsome(2, two, &outcount, indices, sts));
			CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
		}
		CHECK_INT(outcount, 1);
		*st = sts[0];
		*req = two[1];
		break;
	case 8:
		while (!flag) {
			CHECK_MPI(MPI_Request_get_status(*req, &flag, st));
			CHECK(MPI_Wtime() - t0 < CHECK_POLL_S);
		}
		CHECK(*req != MPI_REQUEST_NULL);  /* get_status leaves it */
		CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
		break;
	}
	CHECK(*req == MPI_REQUEST_NULL);
}

/* One ring exchange of n ints per form, checking values and status. */
static void ring(int n, int round)
{
	int32_t *out = malloc((size_t)n * 4 + 4), *in = malloc((size_t)n * 4 + 4);
	CHECK(out && in);
	for (int how = 0; how < 9; how++, round++) {
		MPI_Request req;
		MPI_Status st;
		int count;

		for (int i = 0; i < n; i++) {
			out[i] = val(rank, round, i);
			in[i] = -1;
		}
		if (how % 2)
			CHECK_MPI(MPI_Isendrecv_c(out, n, MPI_INT32_T, right, round, in, n, MPI_INT32_T,
						  left, round, MPI_COMM_WORLD, &req));
		else
			CHECK_MPI(MPI_Isendrecv(out, n, MPI_INT32_T, right, round, in, n, MPI_INT32_T,
						left, round, MPI_COMM_WORLD, &req));
		complete(&req, how, &st);
		CHECK_INT(st.MPI_SOURCE, left);
		CHECK_INT(st.MPI_TAG, round);
		CHECK_MPI(MPI_Get_count(&st, MPI_INT32_T, &count));
		CHECK_INT(count, n);
		for (int i = 0; i < n; i++)
			if (in[i] != val(left, round, i))
				CHECK_INT(in[i], val(left, round, i));
	}
	free(out);
	free(in);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;

	ring(2, 0);                /* fastbox cells */
	ring(16 * 1024, 100);      /* 64 KiB: direct */
	ring(256 * 1024, 200);     /* 1 MiB: shared copy */

	/* A vector on the send side (every other int), dense on the receive side. */
	{
		int32_t strided[200], dense[100];
		MPI_Datatype vec;
		MPI_Request req;
		MPI_Status st;
		CHECK_MPI(MPI_Type_vector(100, 1, 2, MPI_INT32_T, &vec));
		CHECK_MPI(MPI_Type_commit(&vec));
		for (int i = 0; i < 200; i++)
			strided[i] = i % 2 ? -7 : val(rank, 300, i / 2);
		CHECK_MPI(MPI_Isendrecv(strided, 1, vec, right, 300, dense, 100, MPI_INT32_T, left, 300,
					MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Type_free(&vec));  /* the request holds it */
		CHECK_MPI(MPI_Wait(&req, &st));
		for (int i = 0; i < 100; i++)
			CHECK_INT(dense[i], val(left, 300, i));
	}

	/* In place, through a vector: 300 (strided ints) and 301 (64 KiB of them). */
	for (int k = 0; k < 2; k++) {
		int n = k ? 16 * 1024 : 50;
		int32_t *buf = malloc((size_t)n * 8);
		MPI_Datatype vec;
		MPI_Request req;
		MPI_Status st;
		int count;
		CHECK(buf);
		CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT32_T, &vec));
		CHECK_MPI(MPI_Type_commit(&vec));
		for (int i = 0; i < 2 * n; i++)
			buf[i] = i % 2 ? -7 : val(rank, 301 + k, i / 2);
		if (k)
			CHECK_MPI(MPI_Isendrecv_replace_c(buf, 1, vec, right, 301 + k, left, 301 + k,
							  MPI_COMM_WORLD, &req));
		else
			CHECK_MPI(MPI_Isendrecv_replace(buf, 1, vec, right, 301 + k, left, 301 + k,
							MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Wait(&req, &st));
		CHECK_INT(st.MPI_SOURCE, left);
		CHECK_MPI(MPI_Get_count(&st, vec, &count));
		CHECK_INT(count, 1);
		for (int i = 0; i < 2 * n; i++)
			CHECK_INT(buf[i], i % 2 ? -7 : val(left, 301 + k, i / 2));
		CHECK_MPI(MPI_Type_free(&vec));
		free(buf);
	}

	/* MPI_PROC_NULL on both sides: an empty status from MPI_PROC_NULL, buffer untouched. */
	{
		int32_t out = 5, in = 9;
		MPI_Request req;
		MPI_Status st;
		int count;
		CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT32_T, MPI_PROC_NULL, 1, &in, 1, MPI_INT32_T,
					MPI_PROC_NULL, 1, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Wait(&req, &st));
		CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
		CHECK_INT(st.MPI_TAG, MPI_ANY_TAG);
		CHECK_MPI(MPI_Get_count(&st, MPI_INT32_T, &count));
		CHECK_INT(count, 0);
		CHECK_INT(in, 9);
		CHECK_MPI(MPI_Isendrecv_replace(&in, 1, MPI_INT32_T, MPI_PROC_NULL, 1, MPI_PROC_NULL, 1,
						MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Wait(&req, &st));
		CHECK_INT(in, 9);
		/* Sending to MPI_PROC_NULL, receiving from the left (who sends right). */
		int32_t a = val(rank, 400, 0), b = -1;
		MPI_Request r2;
		CHECK_MPI(MPI_Isend(&a, 1, MPI_INT32_T, right, 400, MPI_COMM_WORLD, &r2));
		CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT32_T, MPI_PROC_NULL, 400, &b, 1, MPI_INT32_T,
					left, 400, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Wait(&req, &st));
		CHECK_MPI(MPI_Wait(&r2, MPI_STATUS_IGNORE));
		CHECK_INT(b, val(left, 400, 0));
	}

	/* MPI_Request_free: the exchange still happens; a message after it shows it did. */
	{
		int32_t out = val(rank, 500, 0), in = -1, token = 0;
		MPI_Request req;
		CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT32_T, right, 500, &in, 1, MPI_INT32_T, left,
					500, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Request_free(&req));
		CHECK(req == MPI_REQUEST_NULL);
		/* The left's 501 comes after its 500, so our 500 receive has matched by now. */
		CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, right, 501, &token, 1, MPI_INT, left, 501,
				       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(in, val(left, 500, 0));
	}

	/* MPI_Cancel of a pair whose receive nothing matches: cancelled. */
	{
		int32_t out = 1, in = -1;
		MPI_Request req;
		MPI_Status st;
		int flag = 0;
		CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT32_T, MPI_PROC_NULL, 600, &in, 1, MPI_INT32_T,
					rank, 600, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Cancel(&req));
		CHECK_MPI(MPI_Wait(&req, &st));
		CHECK_MPI(MPI_Test_cancelled(&st, &flag));
		CHECK_INT(flag, 1);
		CHECK_INT(in, -1);
	}

	/* A receive too small: MPI_Wait fails with MPI_ERR_TRUNCATE. */
	{
		int32_t out[4] = { 1, 2, 3, 4 }, in[2];
		MPI_Request req;
		MPI_Status st;
		int cls;
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		CHECK_MPI(MPI_Isendrecv(out, 4, MPI_INT32_T, right, 700, in, 2, MPI_INT32_T, left, 700,
					MPI_COMM_WORLD, &req));
		int rc = MPI_Wait(&req, &st);
		MPI_Error_class(rc, &cls);
		CHECK_INT(cls, MPI_ERR_TRUNCATE);
		/* Bad arguments: a negative count, a request pointer of NULL. */
		rc = MPI_Isendrecv(out, -1, MPI_INT32_T, right, 701, in, 2, MPI_INT32_T, left, 701,
				   MPI_COMM_WORLD, &req);
		MPI_Error_class(rc, &cls);
		CHECK_INT(cls, MPI_ERR_COUNT);
		rc = MPI_Isendrecv_replace(in, 2, MPI_INT32_T, right, 701, left, 701, MPI_COMM_WORLD,
					   NULL);
		MPI_Error_class(rc, &cls);
		CHECK_INT(cls, MPI_ERR_REQUEST);
	}

	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
