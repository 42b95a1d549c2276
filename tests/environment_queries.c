/* environment_queries: Initialized/Finalized, Query_thread, Is_thread_main, Wtime, Wtick,
 * processor name, version 4.1, library version, and rank/size of WORLD and SELF. */
/* ranks: 1 2 4 */
#include <time.h>
#include "check.h"

int main(int argc, char **argv)
{
	int flag = -1, rank = -1, size = -1, provided = -1, len = -1, v = 0, sv = 0;
	char name[MPI_MAX_PROCESSOR_NAME], lib[MPI_MAX_LIBRARY_VERSION_STRING];

	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Finalized(&flag));
	CHECK_INT(flag, 0);
	/* Version queries may be called before MPI_Init. */
	CHECK_MPI(MPI_Get_version(&v, &sv));
	CHECK_INT(v, 4);
	CHECK_INT(sv, 1);

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Finalized(&flag));
	CHECK_INT(flag, 0);

	CHECK_MPI(MPI_Query_thread(&provided));
	CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
	CHECK_MPI(MPI_Is_thread_main(&flag));
	CHECK_INT(flag, 1);

	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
	CHECK(size >= 1);
	CHECK(rank >= 0 && rank < size);
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &rank));
	CHECK_INT(rank, 0);
	CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &size));
	CHECK_INT(size, 1);

	/* Wtime never goes backwards and advances over a 20 ms sleep; Wtick is positive. */
	double prev = MPI_Wtime();
	for (int i = 0; i < 100000; i++) {
		double t = MPI_Wtime();
		CHECK_DBL_CMP(t, >=, prev);
		prev = t;
	}
	/* Over the sleep it advances in seconds: no more than CLOCK_MONOTONIC did around it
	 * (a clock read in other units would not fit), give or take a tick. */
	struct timespec ts = { 0, 20 * 1000 * 1000 }, m0, m1;
	clock_gettime(CLOCK_MONOTONIC, &m0);
	double t0 = MPI_Wtime();
	nanosleep(&ts, NULL);
	double t1 = MPI_Wtime();
	clock_gettime(CLOCK_MONOTONIC, &m1);
	CHECK_DBL_CMP(t1 - t0, >=, 0.019);
	CHECK_DBL_CMP(t1 - t0, <=, (m1.tv_sec - m0.tv_sec) + (m1.tv_nsec - m0.tv_nsec) * 1e-9 +
				       MPI_Wtick());
	CHECK_DBL_CMP(MPI_Wtick(), >, 0.0);
	CHECK_DBL_CMP(MPI_Wtick(), <=, 0.001);

	memset(name, 0, sizeof name);
	CHECK_MPI(MPI_Get_processor_name(name, &len));
	CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME);
	CHECK_INT(strlen(name), len);

	CHECK_MPI(MPI_Get_version(&v, &sv));
	CHECK_INT(v, MPI_VERSION);
	CHECK_INT(sv, MPI_SUBVERSION);
	CHECK_INT(v, 4);
	CHECK_INT(sv, 1);

	memset(lib, 0, sizeof lib);
	CHECK_MPI(MPI_Get_library_version(lib, &len));
	CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING);
	CHECK_INT(strlen(lib), len);

	CHECK_MPI(MPI_Finalize());
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 1); /* stays true after MPI_Finalize (MPI 4.1, 11.2.1) */
	CHECK_MPI(MPI_Finalized(&flag));
	CHECK_INT(flag, 1);
	return 0;
}
