/* session_concurrent_creations_told_apart_by_tag: under MPI_THREAD_MULTIPLE (asked for in
 * the session's info, given back by MPI_Session_get_info) each rank's three threads make a
 * communicator of the same group (mpi://WORLD) at once, each thread with its own string
 * tag, the tags sharing a long prefix; each communicator's Allreduce and Bcast give its own
 * thread's values, so no creation joined another's. Then each rank makes two
 * communicators of the same group one after the other with tags in opposite orders on
 * even and odd ranks, from two threads, which completes only if the tags tell them apart. */
/* ranks: 1 2 4 16 64 */
#include <pthread.h>
#include "check.h"

#define THREADS 3

static MPI_Group world;

static void *maker(void *arg)
{
	int t = (int)(long)arg, rank, size, sum, v;
	char tag[64];
	MPI_Comm c;

	snprintf(tag, sizeof(tag), "org.shoal.tests.concurrent.creation.%d", t);
	CHECK_MPI(MPI_Comm_create_from_group(world, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
	CHECK_MPI(MPI_Comm_rank(c, &rank));
	CHECK_MPI(MPI_Comm_size(c, &size));
	v = 100 * t + rank;
	CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c));
	CHECK_INT(sum, 100 * t * size + size * (size - 1) / 2);
	v = rank == 0 ? t : -1;
	CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, c));
	CHECK_INT(v, t);
	CHECK_MPI(MPI_Comm_free(&c));
	return NULL;
}

int main(void)
{
	MPI_Session s;
	MPI_Info info, used;
	pthread_t th[THREADS];
	char value[MPI_MAX_INFO_VAL];
	int len = sizeof(value), flag, rank;

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE"));
	CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Session_get_info(s, &used));
	CHECK_MPI(MPI_Info_get_string(used, "thread_level", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "MPI_THREAD_MULTIPLE");
	len = sizeof(value);
	CHECK_MPI(MPI_Info_get_string(used, "mpi_thread_support_level", &len, value, &flag));
	CHECK_INT(flag, 1);
	CHECK_STR(value, "MPI_THREAD_MULTIPLE");
	CHECK_MPI(MPI_Info_free(&used));
	CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
	CHECK_MPI(MPI_Group_rank(world, &rank));

	for (int round = 0; round < 3; round++) {
		for (long t = 0; t < THREADS; t++)
			CHECK_INT(pthread_create(&th[t], NULL, maker, (void *)t), 0);
		for (int t = 0; t < THREADS; t++)
			CHECK_INT(pthread_join(th[t], NULL), 0);
	}
	/* Opposite orders: thread 0 and 1 start in either order on each rank. */
	if (rank % 2 == 0) {
		CHECK_INT(pthread_create(&th[0], NULL, maker, (void *)1L), 0);
		CHECK_INT(pthread_create(&th[1], NULL, maker, (void *)2L), 0);
	} else {
		CHECK_INT(pthread_create(&th[1], NULL, maker, (void *)2L), 0);
		CHECK_INT(pthread_create(&th[0], NULL, maker, (void *)1L), 0);
	}
	CHECK_INT(pthread_join(th[0], NULL), 0);
	CHECK_INT(pthread_join(th[1], NULL), 0);

	CHECK_MPI(MPI_Group_free(&world));
	CHECK_MPI(MPI_Session_finalize(&s));
	if (rank == 0)
		printf("ok\n");
	return 0;
}
