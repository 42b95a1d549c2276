/* thread_created_on_a_carrier_is_named_after_its_rank: a thread a rank creates is named
 * "rank N" (what gdb and shoal_gdb.py go by), also when the rank was running on a carrier
 * thread (ranks switched in user space: more ranks than cores). */
/* ranks: 2 16 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <mpi.h>

static char name[16];

static void *body(void *arg)
{
	(void)arg;
	pthread_getname_np(pthread_self(), name, sizeof(name));
	return NULL;
}

int main(int argc, char **argv)
{
	int rank, bad = 0, nbad;
	char want[16];
	pthread_t t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	snprintf(want, sizeof(want), "rank %d", rank);
	/* Waits park ranks that outnumber the cores: they go on on a carrier. */
	for (int i = 0; i < 3; i++)
		MPI_Barrier(MPI_COMM_WORLD);
	if (pthread_create(&t, NULL, body, NULL) != 0 || pthread_join(t, NULL) != 0) {
		printf("rank %d: cannot run a thread\n", rank);
		bad = 1;
	} else if (strcmp(name, want) != 0) {
		printf("rank %d: its thread is named \"%s\", not \"%s\"\n", rank, name, want);
		bad = 1;
	}
	MPI_Allreduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return nbad != 0;
}
