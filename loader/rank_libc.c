/* Per-rank copies of libc state that glibc keeps once per process: rand/random and their
 * seeds and state arrays, strtok's position, and the registration of each copy's getopt
 * variables. Entered by any thread; rank threads touch only their own rank's state.
 * Must not change results: sequences are glibc's own (random_r on a private TYPE_3 state). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"
#include "loader/loader_internal.h"

void shl_rank_register_copy(int abi, void *dso_handle, int *optind_p, int *opterr_p,
			    int *optopt_p, char **optarg_p)
{
	struct shl_libc *l = shl_loader_libc();

	if (abi != SHL_LOADER_ABI) {
		fprintf(stderr, "shoal: program built for loader ABI %d, libmpi.so has %d; "
			"rebuild it with this Shoal's mpicc\n", abi, SHL_LOADER_ABI);
		return;
	}
	l->dso = dso_handle;
	l->optind = optind_p;
	l->opterr = opterr_p;
	l->optopt = optopt_p;
	l->optarg = optarg_p;
	memset(&l->go, 0, sizeof(l->go));
}

/* The calling rank's state; for a thread that is not a rank, the singleton's, locked because
 * glibc's random() is thread-safe and programs rely on it. */
static struct shl_libc *enter(void)
{
	struct shl_copy *c = shl_loader_self;

	if (c)
		return &c->libc;
	pthread_mutex_lock(&shl_loader.single_lock);
	return &shl_loader.single;
}

static void leave(struct shl_libc *l)
{
	if (l == &shl_loader.single)
		pthread_mutex_unlock(&shl_loader.single_lock);
}

/* glibc starts as if from initstate(1, state, 128), so a rank that never seeds sees glibc's
 * unseeded sequence. */
static void ready(struct shl_libc *l)
{
	if (l->rnd_ready)
		return;
	memset(&l->rnd, 0, sizeof(l->rnd));
	initstate_r(1, l->rnd_state, sizeof(l->rnd_state), &l->rnd);
	l->rnd_ready = true;
}

/* random_r keeps the state array's address past its header word; this is the array as the
 * caller of initstate/setstate knows it. */
static char *state_array(struct shl_libc *l)
{
	return (char *)(l->rnd.state - 1);
}

SHL_LOADER_EXPORT long random(void)
{
	struct shl_libc *l = enter();
	int32_t r;

	ready(l);
	random_r(&l->rnd, &r);
	leave(l);
	return r;
}

SHL_LOADER_EXPORT void srandom(unsigned int seed)
{
	struct shl_libc *l = enter();

	ready(l);
	srandom_r(seed, &l->rnd);
	leave(l);
}

SHL_LOADER_EXPORT int rand(void)
{
	return (int)random();
}

SHL_LOADER_EXPORT void srand(unsigned int seed)
{
	srandom(seed);
}

SHL_LOADER_EXPORT char *initstate(unsigned int seed, char *state, size_t size)
{
	struct shl_libc *l = enter();
	char *old;

	ready(l);
	old = state_array(l);
	if (initstate_r(seed, state, size, &l->rnd) < 0)
		old = NULL;
	leave(l);
	return old;
}

SHL_LOADER_EXPORT char *setstate(char *state)
{
	struct shl_libc *l = enter();
	char *old;

	ready(l);
	old = state_array(l);
	if (setstate_r(state, &l->rnd) < 0)
		old = NULL;
	leave(l);
	return old;
}

/* glibc's strtok is not thread-safe either, so the singleton takes no lock. */
SHL_LOADER_EXPORT char *strtok(char *restrict s, const char *restrict delim)
{
	return strtok_r(s, delim, &shl_loader_libc()->strtok_save);
}
