/* ranks: 1 2 4 16 64 */
/* session_bad_arguments_return_error_classes: under MPI_ERRORS_RETURN each bad argument of
 * the session calls gets its class: a process set that does not exist (MPI_ERR_ARG, from
 * MPI_Group_from_session_pset and MPI_Session_get_pset_info), a process set index out of
 * range (MPI_ERR_ARG), a thread_level that is no level (MPI_ERR_INFO), MPI_SESSION_NULL and
 * a finalized session's handle (MPI_ERR_SESSION), a communicator's handler on a session and
 * a session's on a communicator (MPI_ERR_ARG), a group without the caller or
 * MPI_GROUP_NULL (MPI_ERR_GROUP), a NULL string tag (MPI_ERR_ARG), groups that overlap or a
 * leader out of range for MPI_Intercomm_create_from_groups (MPI_ERR_GROUP, MPI_ERR_RANK),
 * detaching a session buffer never attached (MPI_ERR_BUFFER). After them the session still
 * works. */
#include "check.h"

static void comm_handler(MPI_Comm *c, int *code, ...)
{
}

int main(int argc, char **argv)
{
	MPI_Session s, dead;
	MPI_Group g, world, none;
	MPI_Comm c;
	MPI_Info info;
	MPI_Errhandler ceh, seh;
	int rank, size, n, len;
	char name[MPI_MAX_PSET_NAME_LEN];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* Errors with no session to raise them on go to MPI_COMM_SELF's handler. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "thread_level", "MPI_THREAD_SOMETIMES"));
	CHECK_CLASS(MPI_Session_init(info, MPI_ERRORS_RETURN, &s), MPI_ERR_INFO);
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_CLASS(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL), MPI_ERR_ARG);
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));

	CHECK_CLASS(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Group_from_session_pset(s, "shoal://node/99999", &g), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Group_from_session_pset(s, "shoal://node/-1", &g), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Group_from_session_pset(s, NULL, &g), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Session_get_pset_info(s, "mpi://NOWHERE", &info), MPI_ERR_ARG);
	CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
	len = sizeof(name);
	CHECK_CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, name), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &len, name), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n),
		    MPI_ERR_SESSION);

	CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &ceh));
	CHECK_CLASS(MPI_Session_set_errhandler(s, ceh), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Session_init(MPI_INFO_NULL, ceh, &dead), MPI_ERR_ARG);
	CHECK_MPI(MPI_Session_create_errhandler((MPI_Session_errhandler_function *)comm_handler,
						&seh));
	CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_SELF, seh), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "t", MPI_INFO_NULL, seh, &c),
		    MPI_ERR_ARG);

	CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
	CHECK_CLASS(MPI_Comm_create_from_group(MPI_GROUP_NULL, "t", MPI_INFO_NULL,
					       MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP);
	CHECK_CLASS(MPI_Comm_create_from_group(world, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
		    MPI_ERR_ARG);
	int other = (rank + 1) % size;
	CHECK_MPI(MPI_Group_incl(world, 1, &other, &none));
	if (size > 1)
		CHECK_CLASS(MPI_Comm_create_from_group(none, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN,
						       &c), MPI_ERR_GROUP);
	CHECK_CLASS(MPI_Intercomm_create_from_groups(world, 0, world, 0, "t", MPI_INFO_NULL,
						     MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP);
	CHECK_CLASS(MPI_Intercomm_create_from_groups(world, size, none, 0, "t", MPI_INFO_NULL,
						     MPI_ERRORS_RETURN, &c), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Session_detach_buffer(s, &c, &n), MPI_ERR_BUFFER);

	/* The session still works. */
	CHECK_MPI(MPI_Comm_create_from_group(world, "after the errors", MPI_INFO_NULL,
					     MPI_ERRORS_RETURN, &c));
	int sum;
	CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
	CHECK_INT(sum, size * (size - 1) / 2);
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK_MPI(MPI_Group_free(&none));
	CHECK_MPI(MPI_Group_free(&world));

	dead = s;
	CHECK_MPI(MPI_Session_finalize(&s));
	CHECK_CLASS(MPI_Session_get_num_psets(dead, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
	CHECK_CLASS(MPI_Session_finalize(&dead), MPI_ERR_SESSION);
	CHECK_MPI(MPI_Errhandler_free(&ceh));
	CHECK_MPI(MPI_Errhandler_free(&seh));
	MPI_Finalize();
	if (rank == 0)
		printf("ok\n");
	return 0;
}
