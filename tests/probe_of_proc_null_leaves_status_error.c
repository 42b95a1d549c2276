/* probe_of_proc_null_leaves_status_error: MPI_Probe, MPI_Iprobe, MPI_Mprobe and
 * MPI_Improbe of MPI_PROC_NULL return at once with source MPI_PROC_NULL, tag MPI_ANY_TAG
 * and count 0 and leave status.MPI_ERROR as it was (MPI 4.1, 3.8 and 3.11); the matched
 * ones give MPI_MESSAGE_NO_PROC, whose receive completes at once. */
/* ranks: 1 2 4 16 64 */
#include "check.h"

static void check_proc_null(const MPI_Status *st)
{
	CHECK_EMPTY_STATUS(st, MPI_PROC_NULL);
	CHECK_INT(st->MPI_ERROR, 4444);
}

int main(int argc, char **argv)
{
	MPI_Status st;
	MPI_Message msg;
	int flag, buf = 5;

	CHECK_MPI(MPI_Init(&argc, &argv));
	st.MPI_ERROR = 4444;
	CHECK_MPI(MPI_Probe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
	check_proc_null(&st);
	st.MPI_ERROR = 4444;
	flag = 0;
	CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
	CHECK_INT(flag, 1);
	check_proc_null(&st);
	st.MPI_ERROR = 4444;
	msg = MPI_MESSAGE_NULL;
	CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_SELF, &msg, &st));
	check_proc_null(&st);
	CHECK(msg == MPI_MESSAGE_NO_PROC);
	CHECK_MPI(MPI_Mrecv(&buf, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
	CHECK(msg == MPI_MESSAGE_NULL);
	CHECK_INT(buf, 5);
	st.MPI_ERROR = 4444;
	flag = 0;
	CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &msg, &st));
	CHECK_INT(flag, 1);
	check_proc_null(&st);
	CHECK(msg == MPI_MESSAGE_NO_PROC);
	CHECK_MPI(MPI_Mrecv(&buf, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
