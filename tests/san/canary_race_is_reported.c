/* canary_race_is_reported: two threads add to one plain int with no synchronisation, a data
 * race on purpose. make test-san builds this with ThreadSanitizer and fails unless TSan
 * reports the race: the proof that the tool is live in that build. Standalone (no MPI);
 * must never be fixed. */
#include <pthread.h>
#include <stdio.h>

static int counter;  /* written by both threads, unsynchronised: the race */

static void *bump(void *arg)
{
	for (int i = 0; i < 100000; i++)
		counter++;
	return arg;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, bump, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("counter %d (no race reported: ThreadSanitizer is not live)\n", counter);
	return 0;
}
