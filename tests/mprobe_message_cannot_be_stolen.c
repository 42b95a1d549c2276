/* mprobe_message_cannot_be_stolen: a message matched by MPI_Mprobe/MPI_Improbe is removed
 * from matching (a later wildcard receive gets the next message), MPI_Mrecv/MPI_Imrecv
 * receive it, and probing MPI_PROC_NULL yields MPI_MESSAGE_NO_PROC. */
/* ranks: 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int partner = rank ^ 1;

	/* MPI_PROC_NULL: no-proc message, receiving it completes with an empty status. */
	MPI_Message msg = MPI_MESSAGE_NULL;
	MPI_Status st;
	int flag = 0, v = 123, count = -1;
	CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
	CHECK(msg == MPI_MESSAGE_NO_PROC);
	CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
	CHECK_INT(st.MPI_TAG, MPI_ANY_TAG);
	CHECK_MPI(MPI_Mrecv(&v, 1, MPI_INT, &msg, &st));
	CHECK(msg == MPI_MESSAGE_NULL);
	CHECK_INT(v, 123);
	CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
	CHECK_INT(count, 0);
	msg = MPI_MESSAGE_NULL;
	CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, &st));
	CHECK_INT(flag, 1);
	CHECK(msg == MPI_MESSAGE_NO_PROC);
	MPI_Request r;
	CHECK_MPI(MPI_Imrecv(&v, 1, MPI_INT, &msg, &r));
	CHECK(msg == MPI_MESSAGE_NULL);
	CHECK_MPI(MPI_Wait(&r, &st));
	CHECK_INT(st.MPI_SOURCE, MPI_PROC_NULL);

	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}

	if (rank < partner) {
		/* Four messages, tag 1 each, values 1..4; the third is large. */
		for (int i = 1; i <= 4; i++) {
			int len = i == 3 ? 100000 : 1;
			int *buf = malloc(len * sizeof(int));
			for (int j = 0; j < len; j++)
				buf[j] = i;
			CHECK_MPI(MPI_Send(buf, len, MPI_INT, partner, 1, MPI_COMM_WORLD));
			free(buf);
		}
	} else {
		/* Mprobe takes message 1 out of matching... */
		CHECK_MPI(MPI_Mprobe(partner, 1, MPI_COMM_WORLD, &msg, &st));
		CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC);
		CHECK_INT(st.MPI_SOURCE, partner);
		CHECK_INT(st.MPI_TAG, 1);
		CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
		CHECK_INT(count, 1);
		/* ...so a wildcard receive gets message 2, not message 1. */
		int got = 0;
		CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
		CHECK_INT(got, 2);
		/* An ordinary probe doesn't see message 1 either. */
		CHECK_MPI(MPI_Probe(partner, 1, MPI_COMM_WORLD, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
		CHECK_INT(count, 100000);
		got = 0;
		CHECK_MPI(MPI_Mrecv(&got, 1, MPI_INT, &msg, &st));
		CHECK(msg == MPI_MESSAGE_NULL);
		CHECK_INT(got, 1);
		CHECK_INT(st.MPI_SOURCE, partner);
		CHECK_INT(st.MPI_TAG, 1);

		/* Improbe the large message 3, post a competing Irecv, then Imrecv message 3. */
		flag = 0;
		while (!flag)
			CHECK_MPI(MPI_Improbe(partner, 1, MPI_COMM_WORLD, &flag, &msg, &st));
		CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
		CHECK_INT(count, 100000);
		int other = 0;
		MPI_Request competing;
		CHECK_MPI(MPI_Irecv(&other, 1, MPI_INT, partner, 1, MPI_COMM_WORLD, &competing));
		int *big = calloc(100000, sizeof(int));
		CHECK_MPI(MPI_Imrecv(big, 100000, MPI_INT, &msg, &r));
		CHECK(msg == MPI_MESSAGE_NULL);
		CHECK_MPI(MPI_Wait(&r, &st));
		CHECK_INT(big[0], 3);
		CHECK_INT(big[99999], 3);
		CHECK_MPI(MPI_Wait(&competing, &st));
		CHECK_INT(other, 4);
		free(big);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
