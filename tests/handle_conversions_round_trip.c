/* handle_conversions_round_trip: MPI_<kind>_c2f and _f2c for communicators, datatypes,
 * groups, requests, operations, info objects, error handlers, windows, messages and
 * sessions: the
 * null handle is 0 and back; predefined handles (MPI_COMM_WORLD and MPI_COMM_SELF, which
 * each rank maps to its own object, too) and created ones come back as the same handle,
 * and the handle works; a freed object's integer, another kind's and made-up integers give
 * the kind's null handle. MPI_Status_c2f/f2c, _c2f08/_f082c and _f2f08/_f082f keep every
 * field (MPI_Get_count, MPI_Test_cancelled). */
/* ranks: 1 2 4 16 64 */
#include "check.h"

static void add_one(void *in, void *inout, int *len, MPI_Datatype *t)
{
	for (int i = 0; i < *len; i++)
		((int *)inout)[i] += ((int *)in)[i];
}

static void ignore_error(MPI_Comm *c, int *code, ...)
{
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* Null handles are 0, and 0 is every kind's null handle. */
	CHECK_INT(MPI_Comm_c2f(MPI_COMM_NULL), 0);
	CHECK_INT(MPI_Type_c2f(MPI_DATATYPE_NULL), 0);
	CHECK_INT(MPI_Group_c2f(MPI_GROUP_NULL), 0);
	CHECK_INT(MPI_Request_c2f(MPI_REQUEST_NULL), 0);
	CHECK_INT(MPI_Op_c2f(MPI_OP_NULL), 0);
	CHECK_INT(MPI_Info_c2f(MPI_INFO_NULL), 0);
	CHECK_INT(MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL), 0);
	CHECK_INT(MPI_Win_c2f(MPI_WIN_NULL), 0);
	CHECK_INT(MPI_Message_c2f(MPI_MESSAGE_NULL), 0);
	CHECK(MPI_Comm_f2c(0) == MPI_COMM_NULL);
	CHECK(MPI_Type_f2c(0) == MPI_DATATYPE_NULL);
	CHECK(MPI_Group_f2c(0) == MPI_GROUP_NULL);
	CHECK(MPI_Request_f2c(0) == MPI_REQUEST_NULL);
	CHECK(MPI_Op_f2c(0) == MPI_OP_NULL);
	CHECK(MPI_Info_f2c(0) == MPI_INFO_NULL);
	CHECK(MPI_Errhandler_f2c(0) == MPI_ERRHANDLER_NULL);
	CHECK(MPI_Win_f2c(0) == MPI_WIN_NULL);
	CHECK(MPI_Message_f2c(0) == MPI_MESSAGE_NULL);

	/* Predefined handles, sentinels included, come back as themselves. */
	CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
	CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_SELF)) == MPI_COMM_SELF);
	CHECK(MPI_Comm_c2f(MPI_COMM_WORLD) != MPI_Comm_c2f(MPI_COMM_SELF));
	CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_INT)) == MPI_INT);
	CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE_INT)) == MPI_DOUBLE_INT);
	CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM);
	CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY);
	CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_ENV)) == MPI_INFO_ENV);
	CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN);
	CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC);
	/* Another kind's integer names nothing of this kind. */
	CHECK(MPI_Comm_f2c(MPI_Type_c2f(MPI_INT)) == MPI_COMM_NULL);
	CHECK(MPI_Type_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_DATATYPE_NULL);
	CHECK(MPI_Op_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_OP_NULL);
	/* Made-up integers (a class that does not exist, a slot far past any used, outside the
	 * predefined section, the special one). */
	const MPI_Fint junk[] = { 1, 7, (13 << 26) + 1, (4 << 26) + 0x3fffff, 123456789,
				  -123456789, 0x7fffffff, -0x7fffffff - 1 };
	for (unsigned i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		CHECK(MPI_Comm_f2c(junk[i]) == MPI_COMM_NULL);
		CHECK(MPI_Group_f2c(junk[i]) == MPI_GROUP_NULL);
		CHECK(MPI_Info_f2c(junk[i]) == MPI_INFO_NULL);
		CHECK(MPI_Win_f2c(junk[i]) == MPI_WIN_NULL);
	}

	/* Created objects: the handle that comes back works. */
	MPI_Comm dup;
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	MPI_Fint fdup = MPI_Comm_c2f(dup);
	CHECK(fdup != 0);
	CHECK(MPI_Comm_f2c(fdup) == dup);
	int one = 1, sum = 0;
	CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_Comm_f2c(fdup)));
	CHECK_INT(sum, size);

	MPI_Datatype pair;
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	MPI_Fint fpair = MPI_Type_c2f(pair);
	CHECK(MPI_Type_f2c(fpair) == pair);
	CHECK(MPI_Comm_f2c(fpair) == MPI_COMM_NULL);
	int tsize = 0;
	CHECK_MPI(MPI_Type_size(MPI_Type_f2c(fpair), &tsize));
	CHECK_INT(tsize, 8);

	MPI_Group world_group;
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
	CHECK(MPI_Group_f2c(MPI_Group_c2f(world_group)) == world_group);

	MPI_Op op;
	CHECK_MPI(MPI_Op_create(add_one, 1, &op));
	MPI_Fint fop = MPI_Op_c2f(op);
	CHECK(MPI_Op_f2c(fop) == op);
	sum = 0;
	CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_Op_f2c(fop), MPI_COMM_WORLD));
	CHECK_INT(sum, size);

	MPI_Info info;
	CHECK_MPI(MPI_Info_create(&info));
	MPI_Fint finfo = MPI_Info_c2f(info);
	CHECK(MPI_Info_f2c(finfo) == info);

	MPI_Errhandler eh;
	CHECK_MPI(MPI_Comm_create_errhandler(ignore_error, &eh));
	MPI_Fint feh = MPI_Errhandler_c2f(eh);
	CHECK(MPI_Errhandler_f2c(feh) == eh);

	int wbuf = 0;
	MPI_Win win;
	CHECK_MPI(MPI_Win_create(&wbuf, sizeof wbuf, sizeof wbuf, MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win));
	MPI_Fint fwin = MPI_Win_c2f(win);
	CHECK(MPI_Win_f2c(fwin) == win);
	CHECK_MPI(MPI_Win_fence(0, MPI_Win_f2c(fwin)));
	CHECK_MPI(MPI_Win_fence(0, win));

	MPI_Session session;
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
	MPI_Fint fsession = MPI_Session_c2f(session);
	CHECK(MPI_Session_f2c(fsession) == session);
	CHECK_INT(MPI_Session_c2f(MPI_SESSION_NULL), 0);
	CHECK(MPI_Session_f2c(0) == MPI_SESSION_NULL);
	CHECK(MPI_Session_f2c(fwin) == MPI_SESSION_NULL);
	int npsets = 0;
	CHECK_MPI(MPI_Session_get_num_psets(MPI_Session_f2c(fsession), MPI_INFO_NULL, &npsets));
	CHECK(npsets >= 2);
	CHECK_MPI(MPI_Session_finalize(&session));
	CHECK(MPI_Session_f2c(fsession) == MPI_SESSION_NULL);

	/* Requests: a receive in flight, and a send (completed at once or not). */
	int in = -1, out = rank;
	MPI_Request reqs[2];
	int from = (rank + size - 1) % size, to = (rank + 1) % size;
	CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, from, 5, dup, &reqs[0]));
	CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, to, 5, dup, &reqs[1]));
	MPI_Fint freq[2] = { MPI_Request_c2f(reqs[0]), MPI_Request_c2f(reqs[1]) };
	CHECK(freq[0] != 0 && freq[1] != 0);
	MPI_Request back[2] = { MPI_Request_f2c(freq[0]), MPI_Request_f2c(freq[1]) };
	CHECK(back[0] == reqs[0] && back[1] == reqs[1]);
	CHECK_MPI(MPI_Waitall(2, back, MPI_STATUSES_IGNORE));
	CHECK_INT(in, from);

	/* Messages: the integer names the message while it is matched, then nothing. */
	CHECK_MPI(MPI_Send(&out, 1, MPI_INT, 0, 6, MPI_COMM_SELF));
	MPI_Message msg;
	MPI_Status st;
	CHECK_MPI(MPI_Mprobe(0, 6, MPI_COMM_SELF, &msg, &st));
	MPI_Fint fmsg = MPI_Message_c2f(msg);
	CHECK(fmsg != 0);
	CHECK(MPI_Message_c2f(msg) == fmsg);
	MPI_Message msg2 = MPI_Message_f2c(fmsg);
	CHECK(msg2 == msg);
	CHECK_MPI(MPI_Mrecv(&in, 1, MPI_INT, &msg2, &st));
	CHECK_INT(in, rank);
	CHECK(MPI_Message_f2c(fmsg) == MPI_MESSAGE_NULL);

	/* Statuses keep every field through each Fortran form. */
	MPI_Status c = st, c2;
	MPI_Fint f[MPI_F_STATUS_SIZE], f2[MPI_F_STATUS_SIZE];
	MPI_F08_status f08, f08b;
	int count = -1, flag = 1;
	c.MPI_ERROR = MPI_ERR_TRUNCATE;
	CHECK_MPI(MPI_Status_c2f(&c, f));
	CHECK_INT(f[MPI_F_SOURCE], 0);
	CHECK_INT(f[MPI_F_TAG], 6);
	CHECK_INT(f[MPI_F_ERROR], MPI_ERR_TRUNCATE);
	CHECK_MPI(MPI_Status_f2f08(f, &f08));
	CHECK_INT(f08.MPI_SOURCE, 0);
	CHECK_INT(f08.MPI_TAG, 6);
	CHECK_INT(f08.MPI_ERROR, MPI_ERR_TRUNCATE);
	CHECK_MPI(MPI_Status_f082f(&f08, f2));
	CHECK_MPI(MPI_Status_f2c(f2, &c2));
	CHECK_INT(c2.MPI_SOURCE, 0);
	CHECK_INT(c2.MPI_TAG, 6);
	CHECK_INT(c2.MPI_ERROR, MPI_ERR_TRUNCATE);
	CHECK_MPI(MPI_Get_count(&c2, MPI_INT, &count));
	CHECK_INT(count, 1);
	CHECK_MPI(MPI_Status_set_cancelled(&c2, 1));
	CHECK_MPI(MPI_Status_c2f08(&c2, &f08b));
	CHECK_MPI(MPI_Status_f082c(&f08b, &c));
	CHECK_MPI(MPI_Test_cancelled(&c, &flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Get_count(&c, MPI_INT, &count));
	CHECK_INT(count, 1);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &c), MPI_ERR_ARG);

	/* Freed objects' integers name nothing. */
	CHECK_MPI(MPI_Win_free(&win));
	CHECK(MPI_Win_f2c(fwin) == MPI_WIN_NULL);
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK(MPI_Errhandler_f2c(feh) == MPI_ERRHANDLER_NULL);
	CHECK_MPI(MPI_Info_free(&info));
	CHECK(MPI_Info_f2c(finfo) == MPI_INFO_NULL);
	CHECK_MPI(MPI_Op_free(&op));
	CHECK(MPI_Op_f2c(fop) == MPI_OP_NULL);
	CHECK_MPI(MPI_Type_free(&pair));
	CHECK(MPI_Type_f2c(fpair) == MPI_DATATYPE_NULL);
	CHECK_MPI(MPI_Group_free(&world_group));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK(MPI_Comm_f2c(fdup) == MPI_COMM_NULL);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
