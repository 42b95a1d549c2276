#!/bin/bash
# session_errors_name_function_rank_and_argument: under MPI_ERRORS_ARE_FATAL a session call with a bad argument ends the job with a message naming the function, the rank and the argument: a process set that does not exist (MPI_Group_from_session_pset on the last rank of 4, its name quoted, MPI_ERR_ARG, "on a session"), a session used after MPI_Session_finalize (MPI_ERR_SESSION, in a program without MPI_Init), a thread_level that is no level (MPI_Session_init, MPI_ERR_INFO), and a Comm_create_from_group whose caller is not in the group (MPI_ERR_GROUP).
. "$SHOAL_TESTS/lib/common.bash"

build badpset <<'SRC'
#include <mpi.h>
int main(void)
{
	MPI_Session s;
	MPI_Group g;
	MPI_Comm c;
	int rank, size;
	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
	MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
	MPI_Comm_create_from_group(g, "t", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c);
	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	if (rank == size - 1)
		MPI_Group_from_session_pset(s, "mpi://nowhere", &g);
	MPI_Barrier(c);
	MPI_Session_finalize(&s);
	return 0;
}
SRC
run "$MPIEXEC" -n 4 "$TEST_TMP/badpset"
expect_nonzero
expect_err 'rank 3: MPI_Group_from_session_pset: pset_name "mpi://nowhere" is not a process set .* on a session: MPI_ERR_ARG'

build stale <<'SRC'
#include <mpi.h>
int main(void)
{
	MPI_Session s, keep;
	int n;
	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &keep);
	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
	MPI_Session old = s;
	MPI_Session_finalize(&s);
	MPI_Session_get_num_psets(old, MPI_INFO_NULL, &n);
	MPI_Session_finalize(&keep);
	return 0;
}
SRC
run "$MPIEXEC" -n 2 "$TEST_TMP/stale"
expect_nonzero
expect_err 'rank [01]: MPI_Session_get_num_psets: session is not a valid session \(finalized already\?\).*MPI_ERR_SESSION'

build badlevel <<'SRC'
#include <mpi.h>
int main(void)
{
	MPI_Session s;
	MPI_Info info;
	MPI_Init(NULL, NULL);
	MPI_Info_create(&info);
	MPI_Info_set(info, "thread_level", "MPI_THREAD_MAYBE");
	MPI_Session_init(info, MPI_ERRORS_ARE_FATAL, &s);
	MPI_Finalize();
	return 0;
}
SRC
run "$MPIEXEC" -n 2 "$TEST_TMP/badlevel"
expect_nonzero
expect_err 'rank [01]: MPI_Session_init: info.s thread_level "MPI_THREAD_MAYBE" is not one of .*MPI_ERR_INFO'

build notin <<'SRC'
#include <mpi.h>
int main(void)
{
	MPI_Session s;
	MPI_Group g, one;
	MPI_Comm c;
	int zero = 0, rank;
	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
	MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
	MPI_Group_rank(g, &rank);
	MPI_Group_incl(g, 1, &zero, &one);
	if (rank == 1)
		MPI_Comm_create_from_group(one, "t", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c);
	MPI_Session_finalize(&s);
	return 0;
}
SRC
run "$MPIEXEC" -n 2 "$TEST_TMP/notin"
expect_nonzero
expect_err 'rank 1: MPI_Comm_create_from_group: the calling rank \(1 of mpi://WORLD\) is not a member of group .*MPI_ERR_GROUP'
exit 0
