/* Arriving messages from other nodes into ranks' inboxes, with their source translated from
 * the world rank the frame named to a rank of the communicator (comm/route.h): a table by
 * context id of the communicators of this node that span nodes, and the frames parked for
 * a context reserved here whose communicator is not built yet.
 * Entered by whoever reads a mesh connection (shl_route_deliver: the completion thread, or
 * a rank polling the connections, one at a time) and by rank threads creating or freeing
 * such communicators. Must not block an arrival on a lock but to park it, nor free a map
 * an arrival may still be reading (a dropped map is retired, and freed once no arrival is
 * reading any map). */
#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>

#include "runtime/comm/hooks.h"
#include "runtime/comm/route.h"
#include "runtime/core/rt.h"

/* The communicator rank of each world rank (-1: not a member) for one context id; an
 * intercommunicator's frames name a rank of the sender's group. Written once before it is
 * published; unlinked when its communicator goes, then retired until no arrival can still
 * hold it (reap). */
struct map {
	struct map *retired;          /* the next map on route.retired */
	/* A window's node object when the context is a window's (shl_route_rma_set): set and
	 * cleared under route.lock, loaded by arrivals. */
	struct shl_route_rma *_Atomic rma;
	int rank_of[];                /* by world rank */
};

/* A frame that arrived for a context this node reserved but has not built yet: another
 * node finished the creation first. */
struct parked {
	struct shl_rank *to;
	struct shl_envelope *env;
	struct parked *next;
};

/* Process-wide. `size` and the `maps` array are set by shl_route_init before ranks run;
 * each map pointer is stored under `lock`, and loaded by arrivals without it. `readers`
 * counts the arrivals between their first load of a map and their last use of it: an
 * unlinked map is freed only once `readers` has been seen at 0 after the unlink (a
 * seq_cst store of NULL then a seq_cst load of `readers`, against the arrival's seq_cst
 * increment then seq_cst load of the map: either the arrival sees NULL, or the dropper
 * sees it counted). */
static struct {
	int size;
	struct map *_Atomic *maps;    /* by context id (SHL_CTX_MAX entries) */
	pthread_mutex_t lock;         /* guards the parked list, the maps' stores, `retired` */
	struct parked *park, **park_tail;
	struct map *retired;          /* unlinked, perhaps still read by an arrival */
	struct shl_route_rma *rma_retired;  /* the same for windows' node objects */
	alignas(64) _Atomic int readers;
} route = { .lock = PTHREAD_MUTEX_INITIALIZER, .park_tail = &route.park };

/* Holding route.lock: free the retired maps if no arrival can hold one. */
static void reap(void)
{
	if ((route.retired == NULL && route.rma_retired == NULL) ||
	    atomic_load(&route.readers) != 0)
		return;
	while (route.retired != NULL) {
		struct map *m = route.retired;
		route.retired = m->retired;
		free(m);
	}
	while (route.rma_retired != NULL) {
		struct shl_route_rma *o = route.rma_retired;
		route.rma_retired = o->retired;
		free(o);
	}
}

int shl_route_init(int size)
{
	route.size = size;
	/* 8 MiB of address space, touched only where a context spans nodes. */
	route.maps = calloc(SHL_CTX_MAX, sizeof(*route.maps));
	return route.maps != NULL ? 0 : -ENOMEM;
}

/* Into `to`'s inbox, and wake it. */
static int push(struct shl_rank *to, struct shl_envelope *env)
{
	shl_inbox_push(&to->inbox, SHL_LANE_OFFNODE, env);
	shl_rank_wake(to);
	return 0;
}

/* Hand `env` to `to` with its source as a rank of the communicator of map `m`. */
static int translate(struct shl_rank *to, struct shl_envelope *env, const struct map *m)
{
	if (env->src < 0 || env->src >= route.size || m->rank_of[env->src] < 0 ||
	    m->rank_of[to->world_rank] < 0)
		return -EPROTO;
	if (!(env->context & SHL_CTX_INTERNAL)) {
		struct shl_route_rma *rma;
		env->src = m->rank_of[env->src];
		/* One-sided frames are applied or taken by whoever reads them (rma/remote.c). */
		if (env->tag >= SHL_RMA_TAG_BASE &&
		    (rma = atomic_load_explicit(&m->rma, memory_order_acquire)) != NULL)
			return shl_rma_deliver(rma, to, env);
	}
	return push(to, env);
}

int shl_route_deliver(struct shl_rank *to, struct shl_envelope *env)
{
	uint32_t ctx = env->context & ~SHL_CTX_INTERNAL;
	struct map *m;
	struct parked *p;
	int err;

	/* The frames name world ranks, which are MPI_COMM_WORLD's. */
	if (ctx == SHL_CTX_WORLD)
		return push(to, env);
	if (ctx >= SHL_CTX_MAX || route.maps == NULL)
		return -EPROTO;
	/* seq_cst, against shl_route_drop's store of NULL and reap's load (route). */
	atomic_fetch_add(&route.readers, 1);
	/* Pairs with the store in shl_route_add, which pushed the frames parked for this
	 * context before it: a frame that sees the map comes after them. */
	m = atomic_load(&route.maps[ctx]);
	if (m != NULL) {
		err = translate(to, env, m);
		atomic_fetch_sub_explicit(&route.readers, 1, memory_order_release);
		return err;
	}
	pthread_mutex_lock(&route.lock);
	m = atomic_load_explicit(&route.maps[ctx], memory_order_relaxed);
	if (m != NULL) {
		err = translate(to, env, m);
	} else if (!shl_ctx_in_use(ctx) || (p = malloc(sizeof(*p))) == NULL) {
		/* Only an id this node offered (reserved) can have been agreed. */
		err = -EPROTO;
	} else {
		*p = (struct parked){ to, env, NULL };
		*route.park_tail = p;
		route.park_tail = &p->next;
		err = 0;
	}
	pthread_mutex_unlock(&route.lock);
	atomic_fetch_sub_explicit(&route.readers, 1, memory_order_release);
	return err;
}

void shl_route_add(const struct shl_comm_shared *sh)
{
	struct map *m = malloc(sizeof(*m) + (size_t)route.size * sizeof(int));

	if (route.maps == NULL || m == NULL)
		shl_panic("MPI_Comm_split", ENOMEM, "no memory for a communicator across nodes");
	atomic_init(&m->rma, NULL);
	for (int w = 0; w < route.size; w++)
		m->rank_of[w] = -1;
	for (int j = 0; j < sh->nmembers; j++)
		m->rank_of[sh->world[j]] = sh->inter && j >= sh->gsize[0] ? j - sh->gsize[0] : j;
	pthread_mutex_lock(&route.lock);
	/* The parked frames first, in their order: an arrival that sees the map (without the
	 * lock) comes after every one of them. */
	for (struct parked **link = &route.park, *p; (p = *link) != NULL;) {
		if ((p->env->context & ~SHL_CTX_INTERNAL) != sh->context) {
			link = &p->next;
			continue;
		}
		if (translate(p->to, p->env, m) < 0)
			shl_panic("MPI_Comm_split", EPROTO, "a frame from another node names a "
				  "rank that is not a member of its communicator");
		*link = p->next;
		if (route.park_tail == &p->next)
			route.park_tail = link;
		free(p);
	}
	atomic_store_explicit(&route.maps[sh->context], m, memory_order_release);
	reap();
	pthread_mutex_unlock(&route.lock);
}

void shl_route_drop(uint32_t context)
{
	struct map *m;

	if (route.maps == NULL)
		return;
	pthread_mutex_lock(&route.lock);
	m = atomic_exchange(&route.maps[context], NULL);
	if (m != NULL) {
		struct shl_route_rma *o = atomic_exchange(&m->rma, NULL);
		m->retired = route.retired;
		route.retired = m;
		if (o != NULL) {  /* a window's, forgotten only by some of its ranks */
			o->retired = route.rma_retired;
			route.rma_retired = o;
		}
	}
	reap();
	pthread_mutex_unlock(&route.lock);
}

int shl_route_rma_set(uint32_t context, struct shl_route_rma *obj)
{
	struct map *m;

	if (route.maps == NULL || context >= SHL_CTX_MAX)
		return -ENOENT;
	pthread_mutex_lock(&route.lock);
	m = atomic_load_explicit(&route.maps[context], memory_order_relaxed);
	if (m != NULL)
		atomic_store_explicit(&m->rma, obj, memory_order_release);
	pthread_mutex_unlock(&route.lock);
	return m != NULL ? 0 : -ENOENT;
}

struct shl_route_rma *shl_route_rma_get(uint32_t context)
{
	struct map *m;
	struct shl_route_rma *o = NULL;

	if (route.maps == NULL || context >= SHL_CTX_MAX)
		return NULL;
	pthread_mutex_lock(&route.lock);
	m = atomic_load_explicit(&route.maps[context], memory_order_relaxed);
	if (m != NULL)
		o = atomic_load_explicit(&m->rma, memory_order_relaxed);
	pthread_mutex_unlock(&route.lock);
	return o;
}

void shl_route_rma_clear(uint32_t context)
{
	struct map *m;
	struct shl_route_rma *o;

	if (route.maps == NULL || context >= SHL_CTX_MAX)
		return;
	pthread_mutex_lock(&route.lock);
	m = atomic_load_explicit(&route.maps[context], memory_order_relaxed);
	/* seq_cst, against the arrivals' count (route): as for a map's drop. */
	o = m != NULL ? atomic_exchange(&m->rma, NULL) : NULL;
	if (o != NULL) {
		o->retired = route.rma_retired;
		route.rma_retired = o;
	}
	reap();
	pthread_mutex_unlock(&route.lock);
}
