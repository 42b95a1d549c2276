/* proc_null_completes_at_once: every send and receive to/from MPI_PROC_NULL completes at
 * once; receives report source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0, buffer untouched. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int buf[4] = { 1, 2, 3, 4 }, in[4] = { 9, 9, 9, 9 }, flag = 0;
	MPI_Status st;
	MPI_Request r;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Send(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Ssend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Rsend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Bsend(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));

	CHECK_MPI(MPI_Recv(in, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st));
	CHECK_EMPTY_STATUS(&st, MPI_PROC_NULL);
	CHECK_INT(in[0], 9);

	CHECK_MPI(MPI_Irecv(in, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &r));
	CHECK_MPI(MPI_Test(&r, &flag, &st)); /* a single Test completes it */
	CHECK_INT(flag, 1);
	CHECK(r == MPI_REQUEST_NULL);
	CHECK_EMPTY_STATUS(&st, MPI_PROC_NULL);

	MPI_Request sr[4];
	CHECK_MPI(MPI_Isend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &sr[0]));
	CHECK_MPI(MPI_Issend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &sr[1]));
	CHECK_MPI(MPI_Ibsend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &sr[2]));
	CHECK_MPI(MPI_Irsend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &sr[3]));
	CHECK_MPI(MPI_Testall(4, sr, &flag, MPI_STATUSES_IGNORE));
	CHECK_INT(flag, 1);

	CHECK_MPI(MPI_Sendrecv(buf, 4, MPI_INT, MPI_PROC_NULL, 0, in, 4, MPI_INT, MPI_PROC_NULL,
			       0, MPI_COMM_WORLD, &st));
	CHECK_EMPTY_STATUS(&st, MPI_PROC_NULL);
	CHECK_MPI(MPI_Sendrecv_replace(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0,
				       MPI_COMM_WORLD, &st));
	CHECK_EMPTY_STATUS(&st, MPI_PROC_NULL);
	CHECK_INT(buf[3], 4);

	CHECK_MPI(MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
	CHECK_EMPTY_STATUS(&st, MPI_PROC_NULL);
	flag = 0;
	CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st));
	CHECK_INT(flag, 1);
	CHECK_EMPTY_STATUS(&st, MPI_PROC_NULL);

	/* Persistent requests to MPI_PROC_NULL complete at once too. */
	MPI_Request pr[2];
	CHECK_MPI(MPI_Send_init(buf, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &pr[0]));
	CHECK_MPI(MPI_Recv_init(in, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &pr[1]));
	for (int i = 0; i < 3; i++) {
		MPI_Status sts[2];
		CHECK_MPI(MPI_Startall(2, pr));
		CHECK_MPI(MPI_Testall(2, pr, &flag, sts));
		CHECK_INT(flag, 1);
		CHECK_EMPTY_STATUS(&sts[1], MPI_PROC_NULL);
	}
	CHECK_MPI(MPI_Request_free(&pr[0]));
	CHECK_MPI(MPI_Request_free(&pr[1]));
	CHECK_INT(in[0], 9);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
