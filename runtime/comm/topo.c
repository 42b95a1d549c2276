/* Process topologies (MPI 4.1, chapter 8): the Cartesian, graph and distributed-graph
 * structures communicators carry, their constructors and queries, and the neighbourhood
 * each rank's topology gives the neighborhood collectives. Entered by rank threads, each on
 * its own communicators' topologies. */
#include <stdlib.h>

#include "runtime/core/rt.h"

struct shl_topo *shl_topo_hold(struct shl_topo *t)
{
	if (t != NULL)
		atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
	return t;
}

void shl_topo_drop(struct shl_topo *t)
{
	if (t == NULL || atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1)
		return;
	free(t->dims);
	free(t->periods);
	free(t->index);
	free(t->edges);
	free(t->sources);
	free(t->destinations);
	free(t->sourceweights);
	free(t->destweights);
	free(t);
}
