/* Collectives on a communicator with members on other nodes (coll/net.c): what the layers
 * below coll/ call into it: the mesh start-up (shl_coll_net_init), the progress engine
 * (shl_coll_net_progress) and MPI_Finalize (shl_coll_net_finalize); frames arriving from
 * other nodes go to comm/route.c. Entered by rank threads; shl_coll_net_init by the node's
 * main thread before ranks run.
 * What comm/ calls is in comm/hooks.h, what coll/'s own files share in coll/internal.h. */
#ifndef SHL_RUNTIME_COLL_NET_H
#define SHL_RUNTIME_COLL_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/core/rt.h"

/* Set once before ranks run when this node process is part of a job on several nodes:
 * shl_progress then calls shl_coll_net_progress. */
extern bool shl_coll_net_on;

/* Node process main thread, before ranks run (shl_job_connect): remember which node hosts
 * each of the `size` world ranks (copied). Returns 0 or -ENOMEM. */
int shl_coll_net_init(int size, const uint32_t *node_of);

/* Owner, rank locked (from shl_progress): advance the network phases this rank leads for
 * its node; runs the collectives whose data has all arrived and completes their members'
 * requests. Returns at once when there is nothing to do. */
void shl_coll_net_progress(struct shl_rank *r);

/* Owner thread, rank unlocked, in MPI_Finalize once its own requests are done: on a job
 * of several nodes, wait until every rank of the job has come this far (a barrier on
 * MPI_COMM_WORLD), so no node process ends while another still needs one of its ranks. */
void shl_coll_net_finalize(struct shl_rank *r);


#endif
