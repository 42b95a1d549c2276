/* rank_threads_are_named: the thread running rank N is named "rank N", and every rank's
 * thread shows up under that name in /proc/self/task. */
/* ranks: 1 2 4 64 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <pthread.h>
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;
	char name[64], want[64];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	CHECK_INT(pthread_getname_np(pthread_self(), name, sizeof name), 0);
	snprintf(want, sizeof want, "rank %d", rank);
	CHECK_STR(name, want);

	/* While every rank is inside MPI (between two barriers), rank 0 lists the threads. */
	check_barrier(MPI_COMM_WORLD, 1);
	if (rank == 0) {
		char *seen = calloc(size, 1);
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;

		CHECK(d != NULL);
		while ((e = readdir(d)) != NULL) {
			char path[300], comm[64] = "";
			int r;
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
			FILE *f = fopen(path, "r");
			if (!f)
				continue; /* the thread ended meanwhile */
			if (fgets(comm, sizeof comm, f) && sscanf(comm, "rank %d", &r) == 1 &&
			    r >= 0 && r < size)
				seen[r]++;
			fclose(f);
		}
		closedir(d);
		for (int r = 0; r < size; r++) {
			if (seen[r] != 1)
				fprintf(stderr, "thread \"rank %d\" seen %d times\n", r, seen[r]);
			CHECK_INT(seen[r], 1);
		}
		free(seen);
	}
	check_barrier(MPI_COMM_WORLD, 2);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
