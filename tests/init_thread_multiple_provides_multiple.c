/* init_thread_multiple_provides_multiple: MPI_Init_thread(MPI_THREAD_MULTIPLE) provides
 * MPI_THREAD_MULTIPLE; Query_thread agrees; Is_thread_main is true only in the thread that
 * called MPI_Init_thread. */
/* ranks: 1 2 4 */
#include <pthread.h>
#include "check.h"

static void *other_thread(void *arg)
{
	int flag = -1, provided = -1;

	CHECK_MPI(MPI_Is_thread_main(&flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Query_thread(&provided));
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	*(int *)arg = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	int provided = -1, flag = -1, done = 0;
	pthread_t t;

	CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	CHECK_MPI(MPI_Query_thread(&provided));
	CHECK_INT(provided, MPI_THREAD_MULTIPLE);
	CHECK_MPI(MPI_Is_thread_main(&flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 1);

	CHECK_INT(pthread_create(&t, NULL, other_thread, &done), 0);
	CHECK_INT(pthread_join(t, NULL), 0);
	CHECK_INT(done, 1);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
